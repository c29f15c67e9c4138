"""The check's findings per memory file, in one private file per home (docs/formats.md §19.8); an
entry holds only while its file's text and checkout's stamp are as checked: its text is unchanged by
its stat stamp (`fs.memo`), or by its digest where checked within the racy margin."""

from __future__ import annotations

import hashlib
import json
import logging
import os
import stat
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

from memtab.fs.atomic import encode_utf8
from memtab.fs.jsonfile import JsonError, parse_json
from memtab.fs.memo import Memo, Stamp, memo_path, stamp_of
from memtab.fs.records import OmitEmpty, OmitNone, Record, ValidEntries, field
from memtab.store.files import read_file_content
from memtab.store.home import Home

logger = logging.getLogger(__name__)

CACHE_VERSION = 2
MAX_CACHE_BYTES = 256 * 1024 * 1024  # bigger than any real cache: not read


class LineMark(Record):
    """What the check found on one line: its kind (§19.3) and the evidence in words."""

    line: int
    kind: str
    says: str


class FileCheck(Record):
    """One memory file as the check last read it (see the module doc)."""

    sha256: str
    size: int
    mtime_ns: int
    ctime_ns: int
    inode: int
    racy: bool
    """Modified within the racy margin of its check: a same-size write in the same clock
    tick keeps its stat, so its digest says whether it is as checked."""
    at: int  # when it was checked (ms)
    checkout: Annotated[str | None, OmitNone] = None
    """The checkout it was checked against (None: memory of no project on this disk)."""
    stamp: str = ""  # `checkout_stamp` of that checkout when it was checked
    marks: Annotated[tuple[LineMark, ...], OmitEmpty] = ()
    note: Annotated[str | None, OmitNone] = None
    """What the check says of the file as a whole, or None."""


class CheckedFiles(Record):
    """The cache file (see the module doc)."""

    version: int
    files: ValidEntries[dict[str, FileCheck]] = field(default_factory=dict)


def checkout_stamp(root: str | Path) -> str:
    """The stat of a checkout's root and of git's index and HEAD, as 16 hex digits."""
    parts = [_stat_key(root)]
    git = os.path.join(root, ".git")
    if os.path.isdir(git):
        parts += [_stat_key(os.path.join(git, "index")), _stat_key(os.path.join(git, "HEAD"))]
    elif os.path.isfile(git):
        parts.append(_stat_key(git))
        git_dir = _worktree_git_dir(git)
        if git_dir is not None:
            parts += [_stat_key(git_dir / "index"), _stat_key(git_dir / "HEAD")]
    return hashlib.blake2b(repr(parts).encode(), digest_size=8).hexdigest()


def _worktree_git_dir(pointer: str) -> Path | None:
    try:
        with open(pointer, encoding="utf-8", errors="replace") as handle:
            text = handle.read(4096)
    except OSError:
        return None
    if not text.startswith("gitdir:"):
        return None
    found = Path(text[len("gitdir:") :].strip().splitlines()[0])
    return found if found.is_absolute() else Path(pointer).parent / found


def _stat_key(path: str | Path) -> tuple[int, ...] | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return (*stamp_of(info), stat.S_IFMT(info.st_mode))


def _file_stamp(path: Path) -> Stamp | None:
    """The cache file's stat stamp: a rewrite replaces it (a new inode) whatever its size."""
    try:
        return stamp_of(os.stat(path))
    except OSError:
        return None


@dataclass(frozen=True)
class CheckState:
    """What an answer says of a file: checked as it is now (its marks, its note), or not
    (`known`: the cache has it of another text or checkout)."""

    checked: bool
    marks: tuple[LineMark, ...] = ()
    note: str | None = None
    at: int | None = None
    known: bool = True

    @property
    def flagged(self) -> bool:
        """Whether the check found something false or stale in it as it is now."""
        return self.checked and bool(self.marks or self.note)


NOT_READ = CheckState(checked=False, known=False)  # the cache has nothing of the file
OUTDATED = CheckState(checked=False)
"""The cache has the file as it was, or against its checkout as it was."""


class CheckCache:
    """One home's cache, read (again when the file changed) and written (thread-safe)."""

    def __init__(self, home: Home, *, path: Path | None = None) -> None:
        """`path`: the cache file (else the home's in Memtab's cache dir, never a scope)."""
        self.home = home
        self.path = path or memo_path(home.root, "checks-{}.json")
        self._memo = Memo(self.path, "check cache", MAX_CACHE_BYTES, logger)
        self._lock = threading.Lock()
        self._files: dict[str, FileCheck] = {}
        self._read_stamp: Stamp | None = None

    # --- reading -------------------------------------------------------------------------

    def files(self) -> dict[str, FileCheck]:
        """Every file's entry, as the cache file holds them now."""
        with self._lock:
            self._reload()
            return dict(self._files)

    def state(
        self,
        physical: str | Path,
        *,
        sha256: str | None = None,
        stamps: dict[str, str] | None = None,
    ) -> CheckState:
        """What the check says of the file at `physical` as it is now (`sha256`: the text read,
        None: its stat tells, or its digest where that cannot; `stamps`: the checkouts'
        stamps read so far, filled)."""
        key = str(physical)
        with self._lock:
            self._reload()
            entry = self._files.get(key)
        return self._state_of(key, entry, sha256, {} if stamps is None else stamps)

    def states(
        self, physicals: Sequence[str], *, stamps: dict[str, str] | None = None
    ) -> list[CheckState]:
        """`state` of each file (its stat tells), the cache file looked at once for them all: a
        page of results."""
        with self._lock:
            self._reload()
            entries = [self._files.get(key) for key in physicals]
        stamps = {} if stamps is None else stamps
        return [
            self._state_of(key, entry, None, stamps)
            for key, entry in zip(physicals, entries, strict=True)
        ]

    def _state_of(
        self, key: str, entry: FileCheck | None, sha256: str | None, stamps: dict[str, str]
    ) -> CheckState:
        if entry is None:
            return NOT_READ
        if not self._current(key, entry, sha256, stamps):
            return OUTDATED
        return CheckState(True, entry.marks, entry.note, entry.at)

    def _current(
        self, key: str, entry: FileCheck, sha256: str | None, stamps: dict[str, str]
    ) -> bool:
        try:
            if sha256 is None:  # its stat tells, or where it cannot its text read whole
                checked = (entry.size, entry.mtime_ns, entry.ctime_ns, entry.inode)
                if stamp_of(os.stat(key)) != checked:
                    return False
                sha256 = read_file_content(key).sha256 if entry.racy else entry.sha256
        except OSError:
            return False
        if sha256 != entry.sha256:
            return False
        if entry.checkout is None:
            return True
        if entry.checkout not in stamps:
            stamps[entry.checkout] = checkout_stamp(entry.checkout)
        return stamps[entry.checkout] == entry.stamp

    def _reload(self) -> None:
        """Read the cache file again when it changed (under `_lock`)."""
        found = _file_stamp(self.path)
        if found == self._read_stamp:
            return
        self._read_stamp = found
        data = self._memo.read() if found is not None else None
        try:
            record = CheckedFiles.read(parse_json(data) if data is not None else None)
        except JsonError as error:
            logger.info("The check cache %s cannot be read (%s): checked anew", self.path, error)
            record = None
        ok = record is not None and record.version == CACHE_VERSION
        self._files = dict(record.files) if record is not None and ok else {}

    # --- writing -------------------------------------------------------------------------

    def write(self, checked: Mapping[str, FileCheck], *, forget: Callable[[str], bool]) -> None:
        """Keep `checked`'s entries with those of the cache `forget` does not drop. Nothing
        changed (each file checked as the cache has it, when aside): the file is only touched,
        its age saying a check ran (`RecallChecks.warm`), not rewritten — megabytes a warm
        `memtab check` would write for nothing."""
        with self._lock:
            self._reload()
            kept = {key: entry for key, entry in self._files.items() if not forget(key)}
            if len(kept) == len(self._files) and all(
                _as_cached(key, entry, self._files) for key, entry in checked.items()
            ):
                self._touch()
                return
            kept.update(checked)
            document = CheckedFiles(version=CACHE_VERSION, files=kept).to_json()
            # Compact: megabytes on a large home, rewritten by every check.
            text = json.dumps(document, ensure_ascii=False, separators=(",", ":")) + "\n"
            if not self._memo.write(encode_utf8(text)):
                return
            self._files = kept
            self._read_stamp = _file_stamp(self.path)

    def _touch(self) -> None:
        try:
            os.utime(self.path)
        except OSError as error:
            logger.info("Could not touch the check cache %s: %s", self.path, error)
            return
        self._read_stamp = _file_stamp(self.path)


_BUT_WHEN = tuple(name for name in FileCheck._field_names if name != "at")


def _as_cached(key: str, entry: FileCheck, cached: Mapping[str, FileCheck]) -> bool:
    """Whether the cache has `entry` already, but for when it was checked (its fields compared,
    not a copy made: 16,000 copies cost more than the write saved)."""
    held = cached.get(key)
    return held is not None and all(
        getattr(entry, name) == getattr(held, name) for name in _BUT_WHEN
    )
