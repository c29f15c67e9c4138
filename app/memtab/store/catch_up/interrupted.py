"""Runs a kill stopped midway, logged when the runs log next catches up: each change applied if
history or the file says so (the call replayed on a scratch copy), the run logged as failed
("interrupted") and journaled in mux's journal (docs/formats.md §14.3)."""

from __future__ import annotations

import contextlib
import logging
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from memtab.fs.jsonfile import JsonError, parse_json
from memtab.fs.locking.locks import InterprocessLock, LockUnavailableError
from memtab.store.errors import MemoryStoreError
from memtab.store.history.blobs import BlobError, BlobStore
from memtab.store.history.describe import describe_op, op_texts
from memtab.store.history.recorder import FileChange, RecordedChange
from memtab.store.history.records import (
    FileVersions,
    RunEntry,
    RunHeader,
    RunOp,
    StartedAttempt,
    StartedEnd,
)
from memtab.store.history.runs import RunsLog, journal_fingerprint
from memtab.store.history.started import started_dir, started_run_names
from memtab.store.history.versions import ScopeHistory, Version, scope_key
from memtab.store.home import CONSOLIDATION_LOCK, Home, HomeError
from memtab.store.paths import SHARED_SCOPES, PathError, parse_file_path, parse_virtual_path
from memtab.store.scopes.memory import MemoryStore
from memtab.store.scopes.tool import MemoryTool
from memtab.store.sidecars.journal import ConsolidationRecord
from memtab.store.sidecars.registry import load_registry
from memtab.store.sidecars.scope_runs import journal_run, journaled_run

logger = logging.getLogger(__name__)

INTERRUPTED_ERROR = (
    "interrupted: the run stopped before it was logged (Memtab was closed or killed, the "
    "machine stopped, or the disk was full); logged when Memtab next looked"
)
NOT_MADE_NOTE = "not made: the run stopped before this change"


@dataclass
class _Started:
    """A started-run file as read back."""

    header: RunHeader
    attempts: list[StartedAttempt] = field(default_factory=list)
    end: StartedEnd | None = None


def log_interrupted_runs(home: Home, *, consolidation_held: bool = False) -> list[RunEntry]:
    """Log the runs a kill left behind; the runs logged. Nothing while another run holds the
    consolidation lock; never raises."""
    directory = started_dir(home)
    names = started_run_names(home)
    if not names:
        return []
    with _no_run_going(home, consolidation_held) as free:
        if not free:
            return []
        logged = []
        for name in names:
            try:
                entry = _log_one(home, directory / name)
            except (OSError, LockUnavailableError, MemoryStoreError) as error:
                logger.warning("Could not log the interrupted run %s: %s", name, error)
                continue
            if entry is not None:
                logged.append(entry)
        return logged


@contextlib.contextmanager
def _no_run_going(home: Home, held: bool) -> Iterator[bool]:
    if held:
        yield True
        return
    lock = InterprocessLock(home.lock_path(CONSOLIDATION_LOCK))
    try:
        lock.acquire(0)
    except (LockUnavailableError, OSError):
        yield False  # a run is going: its file is not a leftover
        return
    try:
        yield True
    finally:
        lock.release()


def _read(path: Path) -> _Started | None:
    started = None
    for line in path.read_bytes().splitlines():
        try:
            value = parse_json(line)
        except JsonError:
            continue  # a line the kill cut short
        if not isinstance(value, dict):
            continue
        if started is None:
            header = RunHeader.read(value.get("run"))
            started = _Started(header) if header is not None else None
        elif (attempt := StartedAttempt.read(value)) is not None:
            started.attempts.append(attempt)
        elif isinstance(value.get("end"), dict):
            started.end = StartedEnd.read(value["end"])
    return started


def _log_one(home: Home, path: Path) -> RunEntry | None:
    started = _read(path)
    if started is None:  # killed before its first line was whole: it changed nothing
        path.unlink(missing_ok=True)
        return None
    header = started.header
    log = RunsLog(home)
    if log.get(header.id) is not None:  # logged, then killed before the file went
        path.unlink(missing_ok=True)
        return None
    store = _store(home, header)
    found = _run_versions(home, header)
    ops = [_op(home, store, header, attempt, found) for attempt in started.attempts]
    end = started.end or StartedEnd()
    status: Literal["ok", "failed"] = "failed" if end.status != "ok" else "ok"
    at = max((v.after_version for op in ops for v in op.files), default=None)
    record = ConsolidationRecord(
        last_run_at=_time_of(at, header.started_at),
        trigger=header.trigger,
        scope=header.scope,
        summary=end.summary or interrupted_summary(home, ops, header.planned),
        ops=tuple(op.journal_op() for op in ops),
    )
    fingerprint = _journaled(home, header, record) or end.journal_fingerprint
    if fingerprint is None and started.end is None and record.applied_count:
        fingerprint = _journal(home, header, record)
    entry = RunEntry(
        **{f.name: getattr(header, f.name) for f in RunHeader.fields() if f.name != "planned"},
        at=record.last_run_at,
        summary=record.summary,
        ops=tuple(ops),
        status=status,
        error=end.error or (INTERRUPTED_ERROR if started.end is None else None),
        journal_fingerprint=fingerprint,
    )
    log.append(entry)
    path.unlink(missing_ok=True)
    applied = record.applied_count
    logger.info("Logged the interrupted run %s (%d changes applied)", header.id, applied)
    return entry


def _time_of(version_id: str | None, default: int) -> int:
    """A version id begins with its time (11 hex digits of ms)."""
    if version_id is None:
        return default
    try:
        return max(int(version_id[:11], 16), default)
    except ValueError:
        return default


def _store(home: Home, header: RunHeader) -> MemoryStore | None:
    """The run's store (as the consolidator), or None when the workspace is gone."""
    try:
        workspace = load_registry(home).require_workspace(header.workspace_id)
    except HomeError:
        return None
    return MemoryStore(home, workspace, actor="consolidator", run_id=header.id)


def _notebook(home: Home, header: RunHeader) -> str:
    """The notebook the run's workspace scope was (docs/formats.md §2.5); the run's id when no
    longer registered."""
    workspace = load_registry(home).workspace(header.workspace_id)
    return workspace.notebook_id if workspace is not None else header.workspace_id


def _run_versions(home: Home, header: RunHeader) -> dict[str, list[tuple[Version | None, Version]]]:
    """The versions recorded under the run's id, by path, each with the version before it."""
    found: dict[str, list[tuple[Version | None, Version]]] = {}
    for scope in SHARED_SCOPES:  # a run never changes a session scope
        try:
            key = scope_key(
                scope, project_path=header.project_path, workspace_id=_notebook(home, header)
            )
        except ValueError:
            continue
        previous: dict[str, Version] = {}
        for version in ScopeHistory(home, key).versions():
            if version.run_id == header.id:
                found.setdefault(version.path, []).append((previous.get(version.path), version))
            previous[version.path] = version
    return found


def _op(
    home: Home,
    store: MemoryStore | None,
    header: RunHeader,
    attempt: StartedAttempt,
    found: dict[str, list[tuple[Version | None, Version]]],
) -> RunOp:
    command, path, new_path = attempt.command, attempt.path or "", attempt.new_path
    files = _claim(found, path, command == "delete")
    if new_path is not None:
        files += _claim(found, new_path, False)
    if not files and store is not None:
        files = _made_unrecorded(home, store, attempt)
    note = None if files else NOT_MADE_NOTE
    return RunOp(
        command=command,
        path=path,
        applied=bool(files),
        new_path=new_path,
        note=note,
        files=tuple(files),
    )


def _claim(
    found: dict[str, list[tuple[Version | None, Version]]], path: str, subtree: bool
) -> list[FileVersions]:
    """Take the run's versions of `path` (and below it, for a directory's delete)."""
    names = [
        name for name in sorted(found) if name == path or (subtree and name.startswith(path + "/"))
    ]
    return [
        FileVersions.from_change(RecordedChange("", name, before, after))
        for name in names
        for before, after in found.pop(name)
    ]


def _made_unrecorded(home: Home, store: MemoryStore, attempt: StartedAttempt) -> list[FileVersions]:
    """The change a kill left unrecorded, recorded now when each file holds exactly what the call
    makes of what it held."""
    before, arguments, paths = attempt.before, attempt.arguments, attempt.paths
    if before is None or arguments is None or not paths:
        return []
    blobs = BlobStore(home.history_blobs_dir)
    contents: dict[str, bytes | None] = {}
    try:
        for path in paths:
            sha = before.get(path)
            contents[path] = blobs.get(sha) if isinstance(sha, str) else None
        now = {path: store.read_whole(parse_file_path(path)) for path in paths}
    except (BlobError, MemoryStoreError, PathError):
        return []
    if all(now[p] == contents[p] for p in paths):
        return []  # the change was never made
    expected = replay_call(store, arguments, contents)
    if expected is None or any(now[p] != expected.get(p) for p in paths):
        return []  # changed since by someone else: not the run's to claim
    return _record(store, attempt, paths, contents, now)


def replay_call(
    store: MemoryStore, arguments: Mapping[str, Any], contents: Mapping[str, bytes | None]
) -> dict[str, bytes | None] | None:
    """What a memory-tool call makes of these files (None: no file), on a scratch copy; None when it
    cannot be told."""
    if store.workspace is None:
        return None
    with tempfile.TemporaryDirectory(prefix="memtab-replay-") as directory:
        scratch = MemoryStore(Home(Path(directory) / "home"), store.workspace, record_history=False)
        for path, data in contents.items():
            if data is not None:
                target = scratch.physical(parse_file_path(path))
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(data)
        if not MemoryTool(scratch).execute(dict(arguments)).success:
            return None
        return {path: scratch.read_whole(parse_file_path(path)) for path in contents}


def _record(
    store: MemoryStore,
    attempt: StartedAttempt,
    paths: Sequence[str],
    contents: Mapping[str, bytes | None],
    now: Mapping[str, bytes | None],
) -> list[FileVersions]:
    """Record the change as the run's (the store's actor and run id)."""
    moved = attempt.command == "rename" and len(paths) == 2
    changes: list[FileChange] = []
    for index, path in enumerate(paths):
        before, after = contents[path], now[path]
        if before == after:
            continue
        if moved:
            op = "move"
            other = paths[1 - index]
            extra = {"moved_to": other} if index == 0 else {"moved_from": other}
        else:
            op = "create" if before is None else "delete" if after is None else "edit"
            extra = {}
        changes.append(FileChange(path, before, after, op, **extra))  # type: ignore[arg-type]
    scope = parse_virtual_path(paths[0]).scope
    assert scope is not None
    with store.writing(scope, changes_home=False):
        recorded = store.record_changes(scope, changes, before_kept=True)
    return [FileVersions.from_change(change) for change in recorded]


def _journaled(home: Home, header: RunHeader, record: ConsolidationRecord) -> str | None:
    """The fingerprint of the journal's record of this run, when it saved one before it stopped."""
    saved = journaled_run(home, _notebook(home, header), header.project_path, header.scope)
    if saved is None or saved.last_run_at < header.started_at:
        return None
    mine = [(op.command, op.path, op.new_path) for op in record.ops]
    if [(op.command, op.path, op.new_path) for op in saved.ops] != mine:
        return None
    return journal_fingerprint(saved)


def _journal(home: Home, header: RunHeader, record: ConsolidationRecord) -> str | None:
    """Journal a run that changed something, unless the journal has a newer record."""
    notebook = _notebook(home, header)
    saved = journaled_run(home, notebook, header.project_path, header.scope)
    if saved is not None and saved.last_run_at >= record.last_run_at:
        return None
    try:
        journal_run(home, notebook, header.project_path, record)
    except OSError as error:
        logger.warning("Could not journal the interrupted run %s: %s", header.id, error)
        return None
    return journal_fingerprint(record)


def interrupted_summary(home: Home, ops: Sequence[RunOp], planned: int | None = None) -> str:
    """`Interrupted after 2 of 4 changes: added 1 line to a.md; deleted b.md.`"""
    made = [op for op in ops if op.applied]
    total = f" of {planned}" if planned is not None else ""
    if not made:
        return f"Interrupted before any{total} change was made."
    words = [describe_op(op, op_texts(home, op)) for op in made]
    text = "; ".join(word[:1].lower() + word[1:] for word in words)
    noun = "change" if len(made) == 1 and not total else "changes"
    return f"Interrupted after {len(made)}{total} {noun}: {text}."
