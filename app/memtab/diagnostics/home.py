"""The home in use and why, its registry, and the health of every sidecar (`memtab.fs.sidecar`):
whether it parses, its size, and the copies kept aside."""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Annotated

from memtab.diagnostics.report import Findings
from memtab.fs.config.settings_file import SETTINGS_FILE_NAME
from memtab.fs.records import Inlined, Record
from memtab.fs.sidecar import CORRUPT_INFIX, read_sidecar
from memtab.store.home import Home, HomeLocation
from memtab.store.sidecars.registry import Registry, orphan_project_dirs, registry_from_document

logger = logging.getLogger(__name__)

# Why the home was chosen (`resolve_home`'s rules, store/home.py), in words.
_WHY = {
    "--home": "given with --home",
    "MEMTAB_HOME": "$MEMTAB_HOME is set",
    "XUM_ROOT": "$XUM_ROOT is set (mux's variable)",
    "MUX_ROOT": "$MUX_ROOT is set (mux's variable)",
    "~/.xum": "mux's home ~/.xum exists (looked for as mux does: ~/.xum, ~/.mux, ~/.cmux)",
    "~/.mux": "mux's earlier home ~/.mux exists, and no populated ~/.xum",
    "~/.cmux": "mux's earlier home ~/.cmux exists, and no ~/.xum or ~/.mux",
    "Memtab": "no variable is set and no mux home exists, so Memtab uses its own",
    "demo": "the demo home (memtab --demo)",
}


def home_why(source: str) -> str:
    """How `resolve_home` chose the home (`HomeLocation.source`), in words."""
    return _WHY.get(source, f"set by {source}")


class HomeFacts(Record, write_only=True):
    """`home`: where the home is, why, and whether Memtab can read and write it."""

    path: str
    source: str
    why: str
    exists: bool
    readable: bool
    writable: bool


class RegistryCounts(Record, write_only=True):
    """What a readable config.json registers (written as `registry`'s own fields)."""

    projects: int
    workspaces: int
    archived_workspaces: int
    multi_project_workspaces: int
    writer_interval: int
    skipped: tuple[str, ...]
    orphan_project_dirs: tuple[str, ...]


class RegistryFacts(Record, write_only=True):
    """`registry`: config.json, and what it registers — no counts when it cannot be read."""

    path: str
    exists: bool
    problem: str | None
    counts: Annotated[RegistryCounts | None, Inlined] = None


class KeptAsideCopy(Record, write_only=True):
    """A copy of a sidecar kept aside when it could not be parsed."""

    path: str
    size: int | None


class SidecarFacts(Record, write_only=True):
    """One row of `sidecars`: a sidecar's parse status, size and copies kept aside."""

    name: str
    path: str
    exists: bool
    size: int | None
    status: str
    problem: str | None
    kept_aside: tuple[KeptAsideCopy, ...]


def check_home(location: HomeLocation) -> tuple[HomeFacts, Findings]:
    """Where the home is, why, and whether Memtab can read and write it."""
    found = Findings("home")
    path = location.path
    exists = path.exists()
    is_dir = path.is_dir()
    readable = is_dir and os.access(path, os.R_OK | os.X_OK)
    writable = is_dir and os.access(path, os.W_OK | os.X_OK)
    if not exists:
        found.warning(f"The home {path} does not exist yet; the first memory written creates it")
    elif not is_dir:
        found.broken(f"The home {path} is not a directory")
    elif not readable:
        found.broken(f"The home {path} is not readable")
    elif not writable:
        found.broken(f"The home {path} is read-only: memories can be read, not changed")
    facts = HomeFacts(
        path=str(path),
        source=location.source,
        why=home_why(location.source),
        exists=exists,
        readable=readable,
        writable=writable,
    )
    return facts, found


def check_registry(home: Home) -> tuple[RegistryFacts, Findings, Registry | None]:
    """What config.json registers, and what of it was skipped (as mux's loader skips it)."""
    found = Findings("registry")
    read = read_sidecar(home.config_path)
    facts = RegistryFacts(path=str(home.config_path), exists=read.exists, problem=read.problem)
    if read.problem is not None:
        found.broken(
            f"{home.config_path} is {read.problem}: projects and workspaces cannot be read"
        )
        return facts, found, None
    registry = registry_from_document(home, read.document)
    workspaces = registry.workspaces
    counts = RegistryCounts(
        projects=len(registry.projects),
        workspaces=len(workspaces),
        archived_workspaces=sum(1 for ws in workspaces if ws.archived),
        multi_project_workspaces=sum(1 for ws in workspaces if ws.multi_project),
        writer_interval=registry.writer_interval,
        skipped=tuple(registry.problems),
        orphan_project_dirs=tuple(orphan_project_dirs(home, registry)),
    )
    for problem in registry.problems:
        found.warning(problem)
    return facts.replaced(counts=counts), found, registry


def sidecar_paths(home: Home, config_dir: Path) -> list[Path]:
    """Every sidecar of the home and of Memtab's config dir, in a stable order."""
    paths = [
        home.config_path,
        home.meta_path,
        home.journal_path,
        home.extension_metadata_path,
    ]
    try:
        with os.scandir(home.sessions_dir) as entries:
            workspace_ids = sorted(e.name for e in entries if e.is_dir(follow_symlinks=False))
    except OSError:
        workspace_ids = []
    paths.extend(
        path
        for path in (home.writer_state_path(ws) for ws in workspace_ids)
        if path.exists() or _kept_aside(path)
    )
    settings = config_dir / SETTINGS_FILE_NAME
    paths.append(settings)
    try:
        with os.scandir(config_dir) as entries:
            others = sorted(
                Path(entry.path)
                for entry in entries
                if entry.name.endswith(".json")
                and entry.name != SETTINGS_FILE_NAME
                and entry.is_file(follow_symlinks=False)
            )
    except OSError:
        others = []
    paths.extend(others)
    return paths


def check_sidecars(home: Home, config_dir: Path) -> tuple[tuple[SidecarFacts, ...], Findings]:
    """Each sidecar's parse status, size and copies kept aside; one that cannot be used is
    broken, but for the UI state (only the window's layout)."""
    found = Findings("sidecars")
    rows: list[SidecarFacts] = []
    settings = config_dir / SETTINGS_FILE_NAME
    for path in sidecar_paths(home, config_dir):
        read = read_sidecar(path)
        kept = _kept_aside(path)
        status = "missing" if not read.exists and read.problem is None else "ok"
        if read.problem is not None:
            status = "unusable"
            essential = path.parent != config_dir or path == settings
            message = f"{path} is {read.problem}"
            if essential:
                found.broken(f"{message}; Memtab reads it as empty until it is fixed")
            else:
                found.warning(message)
        if kept:
            newest = kept[-1]
            found.warning(
                f"{len(kept)} unusable cop{'y' if len(kept) == 1 else 'ies'} of {path.name} "
                f"kept aside in {path.parent} (newest: {newest.name}); compare with the "
                "current file, then delete them"
            )
        rows.append(
            SidecarFacts(
                name=path.name,
                path=str(path),
                exists=read.exists,
                size=len(read.raw) if read.raw is not None else None,
                status=status,
                problem=read.problem,
                kept_aside=tuple(KeptAsideCopy(path=str(copy), size=_size(copy)) for copy in kept),
            )
        )
    return tuple(rows), found


def _kept_aside(path: Path) -> list[Path]:
    """The copies of `path` kept aside, oldest first (their names sort by time)."""
    prefix = path.name + CORRUPT_INFIX
    try:
        with os.scandir(path.parent) as entries:
            return sorted(
                Path(entry.path)
                for entry in entries
                if entry.name.startswith(prefix) and entry.is_file(follow_symlinks=False)
            )
    except OSError:
        return []


def _size(path: Path) -> int | None:
    try:
        return path.stat().st_size
    except OSError:
        return None
