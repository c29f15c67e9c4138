"""Whether Claude Code's sessions have auto memory at all, as `CLAUDE_CODE_DISABLE_AUTO_MEMORY`
decides before any setting, and where a session's local settings are (docs/formats.md §17.2,
§17.6).

Read in Claude Code 2.1.332's bundle: its auto memory switch (`CLAUDE_CODE_DISABLE_AUTO_MEMORY`
"1", "true", "yes" or "on" — any case, blanks trimmed — turns auto memory off for the session;
"0", "false", "no" or "off" turns it on whatever `autoMemoryEnabled` says; anything else
leaves it to the settings), and its local settings' root (`localSettings`: the session
directory's canonical git root — a linked worktree's main checkout — when that root, its
`.git` and its `.claude` belong to the user and it is not the home directory; else the
session directory: "the consent store stays at the session cwd").

A session takes the variable from the user's `settings.json` `env` (which Claude Code sets
in its environment), else from the environment it was started in: Memtab's own here, which
a session started elsewhere may not share.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from memtab.sources.claude.settings import read_settings_file

DISABLE_AUTO_MEMORY = "CLAUDE_CODE_DISABLE_AUTO_MEMORY"
_OFF = ("1", "true", "yes", "on")
_ON = ("0", "false", "no", "off")


@dataclass(frozen=True)
class AutoMemorySwitch:
    """`CLAUDE_CODE_DISABLE_AUTO_MEMORY` as a session has it: `off` (no auto memory is read
    or written) or `on` (auto memory whatever `autoMemoryEnabled` says), and where it is set."""

    state: Literal["off", "on"]
    value: str
    where: str

    @property
    def words(self) -> str:
        return f"{DISABLE_AUTO_MEMORY}={self.value} ({self.where})"

    @property
    def off_note(self) -> str:
        return f"Claude Code neither reads nor writes auto memory: {self.words}"


def auto_memory_switch(config_root: Path, env: Mapping[str, str]) -> AutoMemorySwitch | None:
    """The switch a session started with `env` has (the user's settings' `env` first), or
    None when the variable leaves auto memory to the settings."""
    settings_file = config_root / "settings.json"
    settings = read_settings_file(settings_file)
    settings_env = settings.env if settings is not None and isinstance(settings.env, dict) else {}
    from_settings = settings_env.get(DISABLE_AUTO_MEMORY)
    if isinstance(from_settings, str):
        value, where = from_settings, f"env of {settings_file}"
    elif DISABLE_AUTO_MEMORY in env:
        value, where = env[DISABLE_AUTO_MEMORY], "in the environment"
    else:
        return None
    word = value.strip().lower()
    if word in _OFF:
        return AutoMemorySwitch("off", value, where)
    if word in _ON:
        return AutoMemorySwitch("on", value, where)
    return None


def local_settings_root(cwd: Path, canonical_root: Path, user_home: Path) -> Path:
    """Where a session started in `cwd` keeps its local settings (`.claude/settings.local.json`):
    its canonical git root `canonical_root` when that is another directory, not the home
    directory, and it, its `.git` and its `.claude` (when there) are the user's; else `cwd`."""
    if canonical_root in (cwd, user_home):
        return cwd
    uid = os.geteuid() if hasattr(os, "geteuid") else None
    if uid is None:  # no uid to check ownership with: the session directory
        return cwd
    try:
        owners = [os.stat(canonical_root).st_uid, os.lstat(canonical_root / ".git").st_uid]
        claude = canonical_root / ".claude"
        if os.path.lexists(claude):
            owners.append(os.lstat(claude).st_uid)
    except OSError:
        return cwd
    return canonical_root if all(owner == uid for owner in owners) else cwd
