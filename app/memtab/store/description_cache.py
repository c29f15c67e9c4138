"""What each memory file said when last read, so a start shows every description without
reading 3,000 files again (docs/formats.md §15.4).

The window's scans list each scope with a `KnownFiles` (`store.files.list_scope`): a file
whose size, mtime, ctime and inode are what they were when it was last read gives its
description, heading and binary flag from here, with no open; any other is read as
always and learnt. `DescriptionCache` keeps them in one small JSON file per home in
Memtab's cache dir, loaded by a scan that lists scopes and written (atomically, only when
it learnt something) by that scan, on the scan's worker thread.

Never trusted blindly: every entry is checked against a fresh `lstat` of its file, so a
file mux, an agent or an editor changed between two starts is read again (a write changes
the mtime or the ctime, and a rename over it the inode); a file modified within
`RACY_MARGIN_NS` of its reading is not remembered, as its next write could keep the same
mtime on a coarse clock (git's "racily clean" entries). A file that cannot be parsed, or
an entry of the wrong shape, is ignored, and the next save replaces the file.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any, Final, Literal

from memtab.fs.atomic import Directory
from memtab.fs.config.config_dir import cache_dir
from memtab.fs.records import PlainJson, Record, ValidEntries
from memtab.fs.user_files import read_regular_file

logger = logging.getLogger(__name__)

CACHE_VERSION: Final = 1
# A file modified this close to its reading may change again with the same mtime.
RACY_MARGIN_NS = 2_000_000_000
# The scope roots one cache remembers (a workspace switch lists other roots): the most
# recently listed are kept.
MAX_ROOTS = 16
# Bigger than any real cache (20,000 files take ~2.5 MB): not read.
MAX_CACHE_BYTES = 64 * 1024 * 1024

Described = tuple[str, str, bool]
"""What a listing shows of a file it did not read: (description, heading, binary)."""

# One file as the cache file holds it, kept in memory as parsed (no copy: 20,000 files
# parse into ~8 MB of objects): [size, mtime_ns, ctime_ns, inode, description, heading,
# binary], the first four what any write to the file or over it changes.
RootFiles = Annotated[dict[str, Any], PlainJson]


class DescriptionCacheFile(Record):
    """The cache file (docs/formats.md §15.4): its version, its home's path, and each scope
    root's files by relative path. A root's entries are kept as parsed and written as they
    are (`PlainJson`: no walk of 20,000 entries either way); each is checked as a listing
    recalls it (`KnownFiles.recall`). A root that is no object is dropped."""

    version: Literal[1]
    home: str
    roots: ValidEntries[dict[str, RootFiles]]


class KnownFiles:
    """One scope root's files as last read, by relative path (`/`-joined), and what a
    listing learns reading the others."""

    def __init__(self, known: Mapping[str, object], *, read_at_ns: int | None = None) -> None:
        """`known`: the root's entries as parsed (any of another shape is not used);
        `read_at_ns`: when the listing started (`time.time_ns()` by default)."""
        self._known = known
        self._racy_after_ns = (read_at_ns or time.time_ns()) - RACY_MARGIN_NS
        self.seen: dict[str, object] = {}
        """Every file listed so far, remembered or read (the next cache of this root)."""
        self.read_again = 0
        """Files the listing had to read (not remembered, or changed since)."""

    def recall(self, relative: str, info: os.stat_result) -> Described | None:
        """The file at `relative` as last read, if it is still as it was (`info`, never
        through a link) and its entry has the cache's shape."""
        entry = self._known.get(relative)
        if not still_as_read(entry, info, 3):
            return None
        described = (entry[4], entry[5], entry[6])  # type: ignore[index]
        if type(described[0]) is type(described[1]) is str and type(described[2]) is bool:
            self.seen[relative] = entry
            return described
        return None

    def learn(self, relative: str, info: os.stat_result, described: Described) -> None:
        """Remember a file just read (unless it changed too recently to be sure)."""
        self.read_again += 1
        entry = remembered(info, self._racy_after_ns, described)
        if entry is not None:
            self.seen[relative] = entry

    @property
    def changed(self) -> bool:
        """Whether the files seen differ from those remembered."""
        return self.read_again > 0 or len(self.seen) != len(self._known)


def still_as_read(entry: object, info: os.stat_result, more: int) -> bool:
    """Whether `entry` is a cache entry of a file still as `info` says it is now: a list
    of its size, mtime, ctime and inode when it was read, then `more` values of what it
    held (the caller checks those). Any write to the file changes its mtime and ctime (an
    editor or `touch` can set the mtime back, never the ctime), a rename over it the
    inode."""
    return (
        type(entry) is list
        and len(entry) == 4 + more
        and entry[0] == info.st_size
        and entry[1] == info.st_mtime_ns
        and entry[2] == info.st_ctime_ns
        and entry[3] == info.st_ino
        and type(entry[0]) is type(entry[1]) is type(entry[2]) is type(entry[3]) is int
    )


def remembered(
    info: os.stat_result, racy_after_ns: int, held: Sequence[object]
) -> list[object] | None:
    """The cache entry of a file read as `info` says, holding `held` — None when it was
    modified after `racy_after_ns` (`time.time_ns()` less `RACY_MARGIN_NS` when it was
    read), as a write right after it could keep the same mtime on a coarse clock (git's
    "racily clean" entries)."""
    if max(info.st_mtime_ns, info.st_ctime_ns) >= racy_after_ns:
        return None
    return [info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino, *held]


def cache_file_for(home_root: Path, env: Mapping[str, str] | None = None) -> Path:
    """Where the cache of the home at `home_root` lives (in Memtab's cache dir)."""
    digest = hashlib.sha256(os.fsencode(str(home_root))).hexdigest()[:20]
    return cache_dir(env) / f"descriptions-{digest}.json"


class DescriptionCache:
    """The cache of one home: its roots' `KnownFiles`, loaded from and saved to `path`."""

    def __init__(
        self, home_root: Path, path: Path, *, now_ns: Callable[[], int] = time.time_ns
    ) -> None:
        """`now_ns` tells when a listing starts (tests: a later or an earlier moment)."""
        self._home = str(home_root)
        self._path = path
        self._now_ns = now_ns
        self._roots: dict[str, dict[str, object]] | None = None
        self._listed: dict[str, KnownFiles] = {}

    @classmethod
    def of_home(cls, home_root: Path) -> DescriptionCache:
        return cls(home_root, cache_file_for(home_root))

    def for_root(self, root: Path) -> KnownFiles:
        """The known files of `root` for one listing (loads the cache file on first use)."""
        if self._roots is None:
            self._roots = self._load()
        known = KnownFiles(self._roots.get(str(root), {}), read_at_ns=self._now_ns())
        self._listed[str(root)] = known
        return known

    def save(self) -> None:
        """Write what the listings saw, when it differs from what was loaded (atomically,
        not durably; a failure is logged: the next start only reads more files)."""
        if self._roots is None or not any(known.changed for known in self._listed.values()):
            return
        roots: dict[str, dict[str, object]] = {
            root: known.seen for root, known in self._listed.items()
        }
        for root, files in self._roots.items():
            if root not in roots and len(roots) < MAX_ROOTS:
                roots[root] = files
        document = DescriptionCacheFile(version=CACHE_VERSION, home=self._home, roots=roots)
        data = json.dumps(document.to_json(), ensure_ascii=False, separators=(",", ":")).encode()
        try:  # atomic, not durable: a cache lost with a crash is only read again
            self._path.parent.mkdir(parents=True, exist_ok=True)
            with Directory.open(self._path.parent) as directory:
                directory.replace(self._path.name, data, durable=False)
        except OSError as error:
            logger.warning("Could not write the description cache %s: %s", self._path, error)
            return
        self._roots = roots
        self._listed = {}

    def _load(self) -> dict[str, dict[str, object]]:
        try:
            data = read_regular_file(self._path, limit=MAX_CACHE_BYTES + 1, truncate=True)
        except FileNotFoundError:
            return {}
        except OSError as error:
            logger.info("Description cache %s not read: %s", self._path, error)
            return {}
        if len(data) > MAX_CACHE_BYTES:
            return {}
        try:
            document = json.loads(data)
        except (ValueError, RecursionError):
            logger.info("Description cache %s is not JSON: ignored", self._path)
            return {}
        cache = DescriptionCacheFile.read(document)
        if cache is None or cache.home != self._home:
            return {}
        return cache.roots
