"""Where a check looks for an installed program: PATH, and the places version managers
and package managers install programs for a user.

A desktop launcher often starts Memtab with a shorter PATH than the user's shell (no
`~/.local/bin`, no nvm's node), so a program the user runs every day would look missing;
those places are looked in too.
"""

from __future__ import annotations

import glob
import os
import shutil
from collections.abc import Callable, Mapping

# Relative to the user's home; globs allowed (one version manager keeps one folder per
# version).
USER_PROGRAM_DIRS = (
    ".local/bin", "bin", ".cargo/bin", "go/bin", ".bun/bin", ".deno/bin", ".volta/bin",
    ".nvm/versions/node/*/bin", ".fnm/aliases/default/bin", ".pyenv/shims", ".pyenv/bin",
    ".rbenv/shims", ".asdf/shims", ".local/share/mise/shims", ".local/share/pnpm",
    ".npm-global/bin", ".yarn/bin", ".dotnet/tools", ".poetry/bin", ".pub-cache/bin",
    ".rye/shims", ".nix-profile/bin", "miniconda3/bin", "anaconda3/bin", ".juliaup/bin",
)  # fmt: skip
SYSTEM_PROGRAM_DIRS = (
    "/usr/local/bin", "/usr/bin", "/bin", "/usr/sbin", "/sbin", "/opt/homebrew/bin",
    "/home/linuxbrew/.linuxbrew/bin", "/snap/bin", "/nix/var/nix/profiles/default/bin",
    "/usr/local/go/bin",
)  # fmt: skip


def program_dirs(env: Mapping[str, str]) -> str:
    """PATH followed by the usual places (see the module doc), as one search path."""
    home = env.get("HOME") or os.path.expanduser("~")
    found = [d for d in env.get("PATH", "").split(os.pathsep) if d]
    for pattern in USER_PROGRAM_DIRS:
        found += sorted(glob.glob(os.path.join(home, pattern)))
    found += SYSTEM_PROGRAM_DIRS
    return os.pathsep.join(dict.fromkeys(found))


def program_finder(env: Mapping[str, str]) -> Callable[[str], str | None]:
    """Where `program` is installed, or None (looked up once per name)."""
    return which_in(program_dirs(env))


def which_in(path: str) -> Callable[[str], str | None]:
    """`shutil.which` over the search path `path`, remembered per program."""
    known: dict[str, str | None] = {}

    def find(program: str) -> str | None:
        if program not in known:
            known[program] = shutil.which(program, path=path)
        return known[program]

    return find
