"""The demo's projects' checkouts in the demo home's `code/`, named in mux's registry, so what
`memtab check` finds in the demo is what it was given on purpose."""

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
    """Where a file of the seed's `claude/` goes (acme-api's memory in Claude Code's folder)."""
    parts = relative.parts
    if len(parts) > 1 and parts[0] == "projects" and parts[1] == CLAUDE_PROJECT_SEED:
        return Path("projects", claude_project_name(acme_api(home)), *parts[2:])
    return relative


def claude_project_name(path: str) -> str:
    """The name of Claude Code's folder of the project at `path` (a long one cut and given a
    suffix)."""
    encoded = encode_project_path(path)
    if len(encoded) <= MAX_ENCODED_LENGTH:
        return encoded
    suffix = hashlib.sha256(path.encode("utf-8")).hexdigest()[:8]
    return f"{encoded[:MAX_ENCODED_LENGTH]}-{suffix}"


def copy_seed_tree(
    seed: Path, target: Path, first_ms: int, step_ms: int, *, leaving: frozenset[str] = frozenset()
) -> None:
    """Every file of `seed` but `leaving` written under `target`, mtimes `step_ms` apart from
    `first_ms`."""
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
