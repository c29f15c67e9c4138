"""The demo's projects, on its disk: acme-api's checkout and the webapp's, in the demo home's
`code/` (issue 81 point 8). mux's registry names them there, so what `memtab check` and the
window's room find in the demo are the findings it was given on purpose — never that its
own projects are on no disk.

Where they are depends on where the demo is: the seed's texts name them `{acme}` and
`{webapp}` (`seeded`), and Claude Code's folder of acme-api's memory is named after
acme-api's path, as Claude Code names it (`claude_folder`). acme-api's checkout is the main
workspace's worktree's code (`resources/demo/worktree`: the workspace branches from it);
the webapp's is `resources/demo/webapp`.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from memtab.fs.atomic import atomic_write_text
from memtab.resources import resource_path
from memtab.sources.claude.source import MAX_ENCODED_LENGTH, encode_project_path
from memtab.store.home import Home

CODE_DIR = "code"
"""The demo home's folder of its projects' checkouts."""
ACME_API = "acme-api"
WEBAPP = "webapp"
CLAUDE_PROJECT_SEED = "acme-api"
"""The name of acme-api's folder in the seed's `claude/projects/`."""

MINUTE = 60_000
DAY = 24 * 60 * MINUTE


def project_path(home: Home, name: str) -> str:
    """The path of the demo project `name` (`ACME_API`, `WEBAPP`), as mux's registry has it."""
    return str(home.root / CODE_DIR / name)


def acme_api(home: Home) -> str:
    return project_path(home, ACME_API)


def webapp(home: Home) -> str:
    return project_path(home, WEBAPP)


def seeded(text: str, home: Home) -> str:
    """A seed's `text` naming the demo's projects where they are."""
    return text.replace("{acme}", acme_api(home)).replace("{webapp}", webapp(home))


def claude_folder(home: Home, relative: Path) -> Path:
    """Where a file of the seed's `claude/` goes: acme-api's memory in the folder Claude
    Code keeps for acme-api's path."""
    parts = relative.parts
    if len(parts) > 1 and parts[0] == "projects" and parts[1] == CLAUDE_PROJECT_SEED:
        return Path("projects", claude_project_name(acme_api(home)), *parts[2:])
    return relative


def claude_project_name(path: str) -> str:
    """The name of Claude Code's folder of the project at `path`: the path encoded, a long
    one cut to 200 characters and given a suffix (Memtab finds Claude Code's by the cut;
    this one's is a digest of the path), as a demo home deep in folders needs."""
    encoded = encode_project_path(path)
    if len(encoded) <= MAX_ENCODED_LENGTH:
        return encoded
    suffix = hashlib.sha256(path.encode("utf-8")).hexdigest()[:8]
    return f"{encoded[:MAX_ENCODED_LENGTH]}-{suffix}"


def copy_seed_tree(
    seed: Path, target: Path, first_ms: int, step_ms: int, *, leaving: frozenset[str] = frozenset()
) -> None:
    """Every file of `seed` but those `leaving` names (paths inside it) written under
    `target`, their mtimes `step_ms` apart from `first_ms` (an installed Memtab's compiled
    Python sources of a seed are left out)."""
    files = [
        p
        for p in seed.rglob("*")
        if p.is_file()
        and "__pycache__" not in p.parts
        and p.relative_to(seed).as_posix() not in leaving
    ]
    for index, file in enumerate(sorted(files)):
        written = target / file.relative_to(seed)
        atomic_write_text(written, file.read_text(encoding="utf-8"))
        modified = (first_ms + index * step_ms) / 1000
        os.utime(written, (modified, modified))


BRANCH_ONLY = frozenset({"GEMINI.md"})
"""The worktree's files its branch added: not in acme-api's main checkout."""


def write_projects(home: Home, now: int) -> None:
    """acme-api's checkout and the webapp's, where the registry says they are."""
    acme = Path(acme_api(home))
    copy_seed_tree(
        resource_path("demo", "worktree"), acme, now - 6 * DAY, MINUTE, leaving=BRANCH_ONLY
    )
    copy_seed_tree(resource_path("demo", WEBAPP), Path(webapp(home)), now - 21 * DAY, MINUTE)
