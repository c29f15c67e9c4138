"""Memtab's own files in the home: whether history can keep copies, and locks be taken.

History must be able to keep a copy of what a change destroys, or the change is refused
(docs/formats.md §14.2): a history directory that cannot be written (read-only, a full
disk, a file where the directory should be) stops every delete and overwrite, so it is
broken. So are stored contents that cannot be read back (their versions cannot be
restored) and index lines that do not parse (their versions are not shown). Every change
to memory takes a lock in the locks directory (§14.1): one that cannot be taken is broken
too. Each check writes only a hidden probe of Memtab's temp pattern, removed at once.
History not being recorded (a recording pass could not write it: `memtab watch`'s, or a
window's) is said with why and since when, as the home says it (`store.catch_up.recording`):
broken while history still cannot be written, a warning once it can again.
"""

from __future__ import annotations

import contextlib
import logging
import os
from pathlib import Path
from typing import Annotated

from memtab import humanize
from memtab.diagnostics.report import Findings
from memtab.diagnostics.xum_locks import XumLocksFacts
from memtab.fs.atomic import Directory
from memtab.fs.jsonfile import JsonError, parse_json
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
from memtab.store.xum_locks import xum_locks_dir

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


class LocksFacts(Record, write_only=True):
    """`locks`: whether a lock can be taken; the lock files that are not files (when
    the directory was probed), and xum's locks (`xum_locks.py`)."""

    path: str
    lockable: bool | None = None
    not_lock_files: Annotated[tuple[str, ...] | None, OmitNone] = None
    xum: Annotated[XumLocksFacts | None, OmitNone] = None


def check_history(home: Home) -> tuple[HistoryFacts, Findings]:
    """Whether history can keep copies (every directory it writes), read back what it
    stored, and parse every line of its indexes and runs log."""
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
    """Read back every stored content (loose blobs and packs) and check its sha: how many
    there are, and how many cannot be read."""
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
    """How many lines parse as records of `kind`, and the numbers of those that do not
    (a last line without its newline, left by a crash, counts)."""
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
    """Whether a lock can be taken (and released) in the locks directory, as every change
    to memory does (xum's locks are `xum_locks.py`'s)."""
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
    # The probe proves the directory; a lock file that is a directory (or a FIFO…) fails
    # every change that takes that lock, as surely.
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
