"""Memtab's own files in the home: whether history can keep copies, and locks be taken.

History must be able to keep a copy of what a change destroys, or the change is refused
(docs/formats.md §14.2): a history directory that cannot be written (read-only, a full
disk, a file where the directory should be) stops every delete and overwrite, so it is
broken. So are stored contents that cannot be read back (their versions cannot be
restored) and index lines that do not parse (their versions are not shown). Every change
to memory takes a lock in the locks directory (§14.1): one that cannot be taken is broken
too. Each check writes only a hidden probe of Memtab's temp pattern, removed at once.
"""

from __future__ import annotations

import contextlib
import logging
import os
from pathlib import Path
from typing import Any

from memtab.diagnostics.report import Findings
from memtab.fs.atomic import Directory
from memtab.fs.jsonfile import JsonError, parse_json
from memtab.fs.locking.locks import LockUnavailableError, interprocess_lock
from memtab.humanize import plural
from memtab.store.history.blobs import BlobError, BlobStore
from memtab.store.history.recorder import history_problem
from memtab.store.history.runs import parse_run
from memtab.store.history.versions import parse_version
from memtab.store.home import Home
from memtab.store.xum_locks import xum_locks_dir

logger = logging.getLogger(__name__)

_PROBE = "doctor-probe"
_LINES_NAMED = 3  # bad lines of an index named by number; the rest are counted


def check_history(home: Home) -> tuple[dict[str, Any], Findings]:
    """Whether history can keep copies (every directory it writes), read back what it
    stored, and parse every line of its indexes and runs log."""
    found = Findings("history")
    root = home.history_dir
    section: dict[str, Any] = {
        "path": str(root),
        "exists": root.exists(),
        "writable": None,
        "contents": 0,
        "unreadableContents": 0,
        "indexes": [],
    }
    if not os.path.lexists(root):
        return section, found  # made by the first change
    if not root.is_dir():
        found.broken(
            f"{root} is not a directory: history cannot keep a copy of what a change "
            "replaces, so deletes and overwrites are refused"
        )
        return section, found
    problem = _write_problem(root, [root, home.history_blobs_dir, home.history_index_dir])
    section["writable"] = problem is None
    if problem is not None:
        found.broken(
            f"History cannot keep copies ({problem}): deletes and overwrites are refused "
            "until it can"
        )
    _check_contents(home, section, found)
    _check_indexes(home, section, found)
    return section, found


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


def _check_contents(home: Home, section: dict[str, Any], found: Findings) -> None:
    """Read back every stored content (loose blobs and packs) and check its sha."""
    blobs = BlobStore(home.history_blobs_dir)
    try:
        os.scandir(blobs.directory).close()
    except FileNotFoundError:
        return
    except OSError as error:
        found.broken(f"{blobs.directory} cannot be read: {error.strerror or error}")
        return
    stored = unreadable = 0
    for info in blobs.all():
        stored += 1
        try:
            blobs.get(info.sha256)
        except BlobError:
            unreadable += 1
    section["contents"], section["unreadableContents"] = stored, unreadable
    if unreadable:
        found.broken(
            f"{plural(unreadable, 'stored content')} in {blobs.directory} cannot be read "
            "(damaged or unreadable): the versions that hold them cannot be restored"
        )


def _check_indexes(home: Home, section: dict[str, Any], found: Findings) -> None:
    """Parse every line of each scope's index and of the runs log, as their readers do."""
    try:
        names = sorted(n for n in os.listdir(home.history_index_dir) if n.endswith(".jsonl"))
    except FileNotFoundError:
        names = []
    except OSError as error:
        found.broken(f"{home.history_index_dir} cannot be read: {error.strerror or error}")
        names = []
    files = [(home.history_index_dir / name, "version") for name in names]
    if home.runs_log_path.exists():
        files.append((home.runs_log_path, "run"))
    for path, kind in files:
        try:
            data = path.read_bytes()
        except OSError as error:
            found.broken(f"{path} cannot be read: {error.strerror or error}")
            continue
        records, bad = _parse_lines(data, kind)
        section["indexes"].append({"path": str(path), "records": records, "badLines": bad})
        if bad:
            named = ", ".join(str(number) for number in bad[:_LINES_NAMED])
            more = f" and {len(bad) - _LINES_NAMED} more" if len(bad) > _LINES_NAMED else ""
            found.broken(
                f"{path}: {plural(len(bad), 'line')} cannot be read (line {named}{more}): "
                f"the {kind}s they held are not shown; they are kept as they are"
            )


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


def check_locks(home: Home) -> tuple[dict[str, Any], Findings]:
    """Whether a lock can be taken (and released) in the locks directory, as every change
    to memory does."""
    found = Findings("locks")
    probe = home.lock_path(_PROBE)
    section: dict[str, Any] = {"path": str(probe.parent), "lockable": None}
    if not home.root.is_dir():
        return section, found  # no home yet: the home check says so
    try:
        with interprocess_lock(probe, timeout_s=0):
            pass
    except LockUnavailableError:
        section["lockable"] = True  # another doctor holds the probe: locks work
        return section, found
    except OSError as error:
        section["lockable"] = False
        where = f" ({error.filename})" if error.filename else ""
        found.broken(
            f"No lock can be taken in {probe.parent}: {error.strerror or error}{where}; "
            "every change to memory fails until it can"
        )
        return section, found
    with contextlib.suppress(OSError):
        probe.unlink()
    # The probe proves the directory; a lock file that is a directory (or a FIFO…) fails
    # every change that takes that lock, as surely.
    blocked = _not_lock_files((probe.parent, xum_locks_dir(home)))
    section["lockable"] = not blocked
    section["notLockFiles"] = [str(path) for path in blocked]
    for path in blocked:
        found.broken(
            f"{path} is not a lock file (a directory or another kind of entry): every "
            "change that takes this lock fails until it is removed"
        )
    return section, found


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
