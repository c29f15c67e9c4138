"""Listing a home's trace dumps (the writer's and the consolidation's), newest first,
re-reading only the files that changed."""

from __future__ import annotations

import logging
import os
import stat
from collections.abc import Iterator
from pathlib import Path

from memtab.fs.private import private_dir
from memtab.store.home import Home, HomeError
from memtab.store.sidecars.registry import load_registry
from memtab.traces.reader import TraceSummary, summarize_trace, unreadable_summary

logger = logging.getLogger(__name__)


class TraceCatalog:
    """Lists the dumps of a home, remembering summaries of files that did not change. Not
    thread-safe: use one catalog from one thread at a time (the GUI keeps one and scans it on the
    job service's scans lane)."""

    def __init__(self, home: Home) -> None:
        """A catalog over `home`'s `debug_obj/`; nothing is read until `scan()`."""
        self.home = home
        self._cache: dict[Path, tuple[tuple[int, int], TraceSummary]] = {}  # by (size, mtime)

    def scan(self, workspace_id: str | None = None) -> list[TraceSummary]:
        """Every dump (of one workspace, if given), newest first; never raises for a bad file."""
        names = workspace_names(self.home)
        seen: set[Path] = set()
        summaries: list[TraceSummary] = []
        for owner, path in _trace_files(self.home, workspace_id):
            seen.add(path)
            summary = self._summary(owner, path)
            name = names.get(owner) or summary.workspace_name
            summaries.append(summary.replaced(workspace_name=name))
        if workspace_id is None:
            for gone in set(self._cache) - seen:
                del self._cache[gone]
        summaries.sort(key=_newest_first)
        return summaries

    def _summary(self, owner: str, path: Path) -> TraceSummary:
        try:
            info = path.stat()
        except OSError as error:
            self._cache.pop(path, None)
            return unreadable_summary(owner, path, error)
        stamp = (info.st_size, info.st_mtime_ns)
        cached = self._cache.get(path)
        if cached is not None and cached[0] == stamp:
            return cached[1]
        summary = summarize_trace(path, owner)
        self._cache[path] = (stamp, summary)
        return summary


def list_traces(home: Home, workspace_id: str | None = None) -> list[TraceSummary]:
    """Every dump in `home`, the writer's and the consolidation's (of one workspace, if
    given), newest first."""
    return TraceCatalog(home).scan(workspace_id)


def trace_workspace_ids(home: Home) -> list[str]:
    """The workspace ids that have a dump folder under `debug_obj/` (sorted)."""
    try:
        with os.scandir(home.debug_dir) as entries:
            return sorted(e.name for e in entries if _is_dir(e) and not e.name.startswith("."))
    except OSError:
        return []


def workspace_names(home: Home) -> dict[str, str]:
    """Workspace id → display name from the registry ({} when it cannot be read)."""
    try:
        registry = load_registry(home)
    except (HomeError, OSError) as error:
        logger.info("Workspace names unavailable for trace dumps: %s", error)
        return {}
    return {workspace.id: workspace.display_name for workspace in registry.workspaces}


def _trace_files(home: Home, workspace_id: str | None) -> Iterator[tuple[str, Path]]:
    owners = [workspace_id] if workspace_id is not None else trace_workspace_ids(home)
    for owner in owners:
        for folder in home.trace_dirs(owner):
            _close(folder)
            try:
                with os.scandir(folder) as entries:
                    names = sorted(entry.name for entry in entries if _is_dump_entry(entry))
            except OSError:
                continue
            for name in names:
                yield owner, folder / name


def _close(folder: Path) -> None:
    """A dump folder open to others — an older Memtab wrote its dumps 0644 in a 0755
    folder, and they quote transcripts and memory — made private (0700) as it is listed
    (docs/formats.md §16.2); what cannot be changed is listed as it is."""
    try:
        if stat.S_IMODE(os.stat(folder).st_mode) & 0o077:
            private_dir(folder)
    except OSError as error:
        if not isinstance(error, FileNotFoundError):
            logger.info("Could not make the dump folder %s private: %s", folder, error)


def _is_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False


def _is_dump_entry(entry: os.DirEntry[str]) -> bool:
    """A `*.json` that is a regular file, or that cannot be stat'ed (shown as unreadable).
    Directories and special files (a FIFO would block the reader) are skipped, and so are hidden
    names (an atomic writer's `.name.tmp` never ends in `.json` anyway)."""
    if not entry.name.endswith(".json") or entry.name.startswith("."):
        return False
    try:
        return stat.S_ISREG(entry.stat().st_mode)
    except OSError:
        return True


def _newest_first(summary: TraceSummary) -> tuple[int, str]:
    return (-(summary.run_started_at or 0), str(summary.path))
