"""What each memory file said when last read, so a start shows every description without reading the
files again (docs/formats.md §15.4): one private JSON file per home, each entry trusted only while a
fresh `lstat` still matches and past `RACY_MARGIN_NS` of its reading (git's "racily clean")."""

from __future__ import annotations

import binascii
import json
import logging
import os
import struct
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Annotated, Any, Final, Literal

from memtab.fs import memo
from memtab.fs.memo import Memo, Stamp, changed_since, memo_path, stamp_of
from memtab.fs.records import PlainJson, Record, ValidEntries

logger = logging.getLogger(__name__)

CACHE_VERSION: Final = 2
MAX_ROOTS = 16  # the scope roots one cache remembers, the most recently listed
MAX_CACHE_BYTES = 64 * 1024 * 1024  # bigger than any real cache: not read

Described = tuple[str, str, bool]
"""What a listing shows of a file it did not read: (description, heading, binary)."""

# Three signed and one unsigned 64-bit little-endian integers.
_PACKED_STAMP = struct.Struct("<qqqQ")

KnownEntry = tuple[Stamp, str, str, bool]
"""One file as remembered: its stamp when read, then what it held (`Described`)."""


class CachedRoot(Record):
    """One scope root's files (docs/formats.md §15.4), a list per field in one order, kept as parsed
    and checked as recalled."""

    paths: Annotated[list[Any], PlainJson]  # each file's path below the root, `/`-joined
    stamps: str
    """Base64 of each file's `Stamp` packed in 32 bytes (`_PACKED_STAMP`), one after another."""
    descriptions: Annotated[list[Any], PlainJson]
    headings: Annotated[list[Any], PlainJson]
    binary: Annotated[list[Any], PlainJson]


class DescriptionCacheFile(Record):
    """The cache file (docs/formats.md §15.4): version, home, and each scope root's files."""

    version: Literal[2]
    home: str
    roots: ValidEntries[dict[str, CachedRoot]]


def known_entries(cached: CachedRoot) -> dict[str, KnownEntry]:
    """A root's files by path, as parsed; none when its lists do not line up."""
    paths = cached.paths
    try:
        packed = binascii.a2b_base64(cached.stamps, strict_mode=True)
        stamps = _PACKED_STAMP.iter_unpack(packed)
        files = zip(stamps, cached.descriptions, cached.headings, cached.binary, strict=True)
        return dict(zip(paths, files, strict=True))
    except (ValueError, TypeError, struct.error):
        # Not base64 or ASCII, lists of other lengths, a path no key, stamps not 32 bytes a file.
        return {}


def cached_root(entries: Mapping[str, KnownEntry]) -> CachedRoot:
    """The record of a root's remembered files (`known_entries`'s inverse)."""
    values = entries.values()
    packed = b"".join([_PACKED_STAMP.pack(*entry[0]) for entry in values])
    return CachedRoot(
        paths=list(entries),
        stamps=binascii.b2a_base64(packed, newline=False).decode("ascii"),
        descriptions=[entry[1] for entry in values],
        headings=[entry[2] for entry in values],
        binary=[entry[3] for entry in values],
    )


class KnownFiles:
    """One scope root's files as last read, by `/`-joined relative path; what a listing learns."""

    def __init__(self, known: Mapping[str, KnownEntry], *, read_at_ns: int | None = None) -> None:
        """`known`: the root's entries; `read_at_ns`: when the listing started."""
        self._known = known
        self._racy_after_ns = (read_at_ns or time.time_ns()) - memo.RACY_MARGIN_NS
        self.seen: dict[str, KnownEntry] = {}
        """Every file listed so far, remembered or read (the next cache of this root)."""
        self.read_again = 0  # files the listing had to read (not remembered, or changed since)

    def recall(self, relative: str, info: os.stat_result) -> Described | None:
        """The file at `relative` as last read, if still as `info` says."""
        entry = self._known.get(relative)
        # Built here, not by `stamp_of`: a call more per file costs.
        if entry is None or entry[0] != (
            info.st_size,
            info.st_mtime_ns,
            info.st_ctime_ns,
            info.st_ino,
        ):
            return None
        described = entry[1:]
        if type(described[0]) is type(described[1]) is str and type(described[2]) is bool:
            self.seen[relative] = entry
            return described
        return None

    def learn(self, relative: str, info: os.stat_result, described: Described) -> None:
        """Remember a file just read (unless changed too recently to be sure)."""
        self.read_again += 1
        if changed_since(info, self._racy_after_ns):
            return
        stamp = stamp_of(info)
        try:
            _PACKED_STAMP.pack(*stamp)
        except struct.error:  # a time past 2262, or before 1678
            return
        self.seen[relative] = (stamp, *described)

    @property
    def changed(self) -> bool:
        """Whether the files seen differ from those remembered."""
        return self.read_again > 0 or len(self.seen) != len(self._known)


def cache_file_for(home_root: Path, env: Mapping[str, str] | None = None) -> Path:
    """Where the home's cache lives in Memtab's cache dir; its name holds the format's version, so
    another version's Memtab keeps its own."""
    return memo_path(home_root, f"descriptions-v{CACHE_VERSION}-{{}}.json", env)


class DescriptionCache:
    """The cache of one home: its roots' `KnownFiles`, loaded from and saved to `path`."""

    def __init__(
        self, home_root: Path, path: Path, *, now_ns: Callable[[], int] = time.time_ns
    ) -> None:
        """`now_ns` tells when a listing starts (tests: a later or an earlier moment)."""
        self._home = str(home_root)
        self._memo = Memo(path, "description cache", MAX_CACHE_BYTES, logger)
        self._now_ns = now_ns
        self._roots: dict[str, CachedRoot] | None = None
        self._listed: dict[str, KnownFiles] = {}

    @classmethod
    def of_home(cls, home_root: Path) -> DescriptionCache:
        return cls(home_root, cache_file_for(home_root))

    def for_root(self, root: Path) -> KnownFiles:
        """The known files of `root` for one listing (loads the cache file on first use)."""
        if self._roots is None:
            self._roots = self._load()
        cached = self._roots.get(str(root))
        entries = known_entries(cached) if cached is not None else {}
        known = KnownFiles(entries, read_at_ns=self._now_ns())
        self._listed[str(root)] = known
        return known

    def save(self) -> None:
        """Write what the listings saw when it differs from what was loaded (atomically, not
        durably; a failure is logged)."""
        if self._roots is None or not any(known.changed for known in self._listed.values()):
            return
        roots = {root: cached_root(known.seen) for root, known in self._listed.items()}
        for root, files in self._roots.items():
            if root not in roots and len(roots) < MAX_ROOTS:
                roots[root] = files
        document = DescriptionCacheFile(version=CACHE_VERSION, home=self._home, roots=roots)
        data = json.dumps(document.to_json(), ensure_ascii=False, separators=(",", ":")).encode()
        # Private (docs/formats.md §15.5): it holds the memory's descriptions.
        if self._memo.write(data, failure=logging.WARNING):
            self._roots = roots
            self._listed = {}

    def _load(self) -> dict[str, CachedRoot]:
        data = self._memo.read()
        try:
            document = json.loads(data) if data is not None else None
        except (ValueError, RecursionError):
            return {}  # not JSON
        cache = DescriptionCacheFile.read(document)
        if cache is None or cache.home != self._home:
            return {}
        return cache.roots
