"""Memtab's own files in the home: whether history can keep copies (docs/formats.md §14.2) and
read them back, whether locks can be taken (§14.1) and who holds xum's (§21.1), and whether
history is being recorded."""

from __future__ import annotations

import contextlib
import logging
import os
from pathlib import Path
from typing import Annotated

from memtab import humanize
from memtab.diagnostics.report import Findings
from memtab.fs.atomic import Directory
from memtab.fs.jsonfile import JsonError, parse_json
from memtab.fs.locking.lease_lock import lock_state
from memtab.fs.locking.locks import LockUnavailableError, interprocess_lock
from memtab.fs.records import OmitNone, Record
from memtab.humanize import plural
from memtab.store.catch_up.recording import (
    RecordingState,
    not_recorded_words,
    recording_state,
)
from memtab.store.history.blobs import BlobError, BlobStore
from memtab.store.history.recorder import history_problem
from memtab.store.history.runs import parse_run
from memtab.store.history.versions import parse_version
from memtab.store.home import Home
from memtab.store.xum_locks import lock_files, lock_leftovers, lock_subjects, xum_locks_dir

logger = logging.getLogger(__name__)

_PROBE = "doctor-probe"
_LINES_NAMED = 3  # bad lines of an index named by number; the rest are counted


class IndexFacts(Record, write_only=True):
    """One of `history.indexes`: an index (or the runs log), its records and bad lines."""

    path: str
    records: int
    bad_lines: tuple[int, ...]


class HistoryFacts(Record, write_only=True):
    """`history`: whether it can keep copies, what it stored, and its indexes."""

    path: str
    exists: bool
    writable: bool | None = None
    contents: int = 0
    unreadable_contents: int = 0
    indexes: tuple[IndexFacts, ...] = ()
    recording: RecordingState | None = None
    """What the last recording pass said (`recording.json`), None when none has."""


class XumLockFacts(Record, write_only=True):
    """One of `locks.xum.locks`: a lock file, what it guards, who holds it since when."""

    path: str
    guards: str | None
    reclaim_guard: bool
    pid: int | None
    alive: bool | None
    since: int
    stale: bool


class LeftoverFacts(Record, write_only=True):
    """One of `locks.xum.leftovers`: a temp file or moved-aside lock, and its mtime."""

    path: str
    since: int


class XumLocksFacts(Record, write_only=True):
    """`locks.xum`: xum's lock files in the home, and what killed processes left."""

    locks: tuple[XumLockFacts, ...]
    leftovers: tuple[LeftoverFacts, ...]


class LocksFacts(Record, write_only=True):
    """`locks`: whether a lock can be taken, and the lock files that are not files."""

    path: str
    lockable: bool | None = None
    not_lock_files: Annotated[tuple[str, ...] | None, OmitNone] = None
    xum: Annotated[XumLocksFacts | None, OmitNone] = None


def check_history(home: Home) -> tuple[HistoryFacts, Findings]:
    """Whether history can keep copies, read back what it stored, and parse its indexes and runs
    log."""
    found = Findings("history")
    root = home.history_dir
    facts = HistoryFacts(path=str(root), exists=root.exists())
    if not os.path.lexists(root):
        return facts, found  # made by the first change
    if not root.is_dir():
        found.broken(
            f"{root} is not a directory: history cannot keep a copy of what a change "
            "replaces, so deletes and overwrites are refused"
        )
        return facts, found
    problem = _write_problem(root, [root, home.history_blobs_dir, home.history_index_dir])
    if problem is not None:
        found.broken(
            f"History cannot keep copies ({problem}): deletes and overwrites are refused "
            "until it can"
        )
    contents, unreadable = _check_contents(home, found)
    recording = recording_state(home)
    if recording is not None and not recording.recording:
        since = humanize.absolute_time(recording.since_ms)[:16] if recording.since_ms else "a while"
        words = not_recorded_words(recording, since)
        if problem is None:
            found.warning(f"{words} (it can be written now: the next recording pass catches up)")
        else:
            found.broken(words)
    return facts.replaced(
        writable=problem is None,
        contents=contents,
        unreadable_contents=unreadable,
        indexes=_check_indexes(home, found),
        recording=recording,
    ), found


def _write_problem(history_dir: Path, directories: list[Path]) -> str | None:
    """Why a probe cannot be written in one of `directories` (those that exist), or None."""
    for directory in directories:
        if not directory.exists():
            continue
        try:
            with Directory.open(directory) as opened:
                opened.discard(opened.write_temp(_PROBE, b"probe"))
        except OSError as error:
            return history_problem(error, history_dir)
    return None


def _check_contents(home: Home, found: Findings) -> tuple[int, int]:
    """Read back every stored content and check its sha: how many, and how many unreadable."""
    blobs = BlobStore(home.history_blobs_dir)
    try:
        os.scandir(blobs.directory).close()
    except FileNotFoundError:
        return 0, 0
    except OSError as error:
        found.broken(f"{blobs.directory} cannot be read: {error.strerror or error}")
        return 0, 0
    stored = unreadable = 0
    for info in blobs.all():
        stored += 1
        try:
            blobs.get(info.sha256)
        except BlobError:
            unreadable += 1
    if unreadable:
        found.broken(
            f"{plural(unreadable, 'stored content')} in {blobs.directory} cannot be read "
            "(damaged or unreadable): the versions that hold them cannot be restored"
        )
    return stored, unreadable


def _check_indexes(home: Home, found: Findings) -> tuple[IndexFacts, ...]:
    """Parse every line of each scope's index and of the runs log, as their readers do."""
    try:
        names = sorted(n for n in os.listdir(home.history_index_dir) if n.endswith(".jsonl"))
    except FileNotFoundError:
        names = []
    except OSError as error:
        found.broken(f"{home.history_index_dir} cannot be read: {error.strerror or error}")
        names = []
    files = [(home.history_index_dir / name, "version") for name in names]
    indexes: list[IndexFacts] = []
    if home.runs_log_path.exists():
        files.append((home.runs_log_path, "run"))
    for path, kind in files:
        try:
            data = path.read_bytes()
        except OSError as error:
            found.broken(f"{path} cannot be read: {error.strerror or error}")
            continue
        records, bad = _parse_lines(data, kind)
        indexes.append(IndexFacts(path=str(path), records=records, bad_lines=tuple(bad)))
        if bad:
            named = ", ".join(str(number) for number in bad[:_LINES_NAMED])
            more = f" and {len(bad) - _LINES_NAMED} more" if len(bad) > _LINES_NAMED else ""
            found.broken(
                f"{path}: {plural(len(bad), 'line')} cannot be read (line {named}{more}): "
                f"the {kind}s they held are not shown; they are kept as they are"
            )
    return tuple(indexes)


def _parse_lines(data: bytes, kind: str) -> tuple[int, list[int]]:
    """How many lines parse as records of `kind`, and the numbers of those that do not."""
    parse = parse_version if kind == "version" else parse_run
    records, bad = 0, []
    for number, line in enumerate(data.split(b"\n"), start=1):
        if not line.strip():
            continue
        try:
            value = parse_json(line)
            record = parse(value) if isinstance(value, dict) else None
        except (JsonError, TypeError, ValueError, KeyError):
            record = None
        if record is None:
            bad.append(number)
        else:
            records += 1
    return records, bad


def check_locks(home: Home) -> tuple[LocksFacts, Findings]:
    """Whether a lock can be taken and released in the locks directory."""
    found = Findings("locks")
    probe = home.lock_path(_PROBE)
    facts = LocksFacts(path=str(probe.parent))
    if not home.root.is_dir():
        return facts, found  # no home yet: the home check says so
    try:
        with interprocess_lock(probe, timeout_s=0):
            pass
    except LockUnavailableError:
        return facts.replaced(lockable=True), found  # another doctor holds it: locks work
    except OSError as error:
        where = f" ({error.filename})" if error.filename else ""
        found.broken(
            f"No lock can be taken in {probe.parent}: {error.strerror or error}{where}; "
            "every change to memory fails until it can"
        )
        return facts.replaced(lockable=False), found
    with contextlib.suppress(OSError):
        probe.unlink()
    # A lock file that is not a file fails every change taking that lock.
    blocked = _not_lock_files((probe.parent, xum_locks_dir(home)))
    for path in blocked:
        found.broken(
            f"{path} is not a lock file (a directory or another kind of entry): every "
            "change that takes this lock fails until it is removed"
        )
    return facts.replaced(
        lockable=not blocked, not_lock_files=tuple(str(path) for path in blocked)
    ), found


def _not_lock_files(directories: tuple[Path, ...]) -> list[Path]:
    """The `*.lock` entries of these directories that are not regular files."""
    blocked: list[Path] = []
    for directory in directories:
        try:
            with os.scandir(directory) as iterator:
                entries = list(iterator)
        except OSError:
            continue  # missing: made with the first lock
        for entry in entries:
            if entry.name.endswith(".lock") and not entry.is_file(follow_symlinks=False):
                blocked.append(Path(entry.path))
    return sorted(blocked)


def check_xum_locks(home: Home, found: Findings) -> XumLocksFacts:
    """The `locks.xum` section of the doctor's report; warnings go to `found`."""
    subjects = lock_subjects(home)
    locks: list[XumLockFacts] = []
    for path in lock_files(home):
        state = lock_state(path)
        if state is None:
            continue  # released while we looked
        guards = subjects.get(path.name.removesuffix(".reclaim"))
        locks.append(
            XumLockFacts(
                path=str(path),
                guards=guards,
                reclaim_guard=path.name.endswith(".reclaim"),
                pid=state.pid,
                alive=state.alive,
                since=int(state.since * 1000),
                stale=state.stale,
            )
        )
        if state.alive is False:
            found.warning(
                f"xum's lock {path}{f' ({guards})' if guards else ''} is held by process "
                f"{state.pid}, which is gone: the next change of that memory takes it over"
            )
    leftovers: list[LeftoverFacts] = []
    for path in lock_leftovers(home):
        try:
            since = int(os.stat(path).st_mtime * 1000)
        except OSError:
            continue
        leftovers.append(LeftoverFacts(path=str(path), since=since))
    return XumLocksFacts(locks=tuple(locks), leftovers=tuple(leftovers))
