"""The memory files' texts as the check and trust commands last read them (docs/formats.md §19.10):
a file whose `lstat` still gives its stamp when read, past the racy margin (`fs.memo`), is taken as
its text then, unopened; a link is read, and refused, as always. One sealed memo per home."""

from __future__ import annotations

import os
import time
import zlib
from collections.abc import Callable
from typing import Any

from memtab.fs.memo import RACY_MARGIN_NS, changed_since, stamp_of
from memtab.kept.per_file import CACHE_VERSION, MAGIC, memo_of, only
from memtab.store.files import MAX_FILE_BYTES
from memtab.store.home import Home

ENGINE = "texts"

_MOST = 3 * MAX_FILE_BYTES
"""The most a text read can be: the cap, each byte of it made U+FFFD where not UTF-8."""
Entry = tuple[tuple[int, int, int, int], bytes, bool]
"""A file as read: its stamp (`stamp_of`), its text packed, whether it was over the cap."""


class KeptTexts:
    """One home's files as last read (see the module doc): `check.documents.KnownTexts`
    for the runs of one engine, one at a time."""

    def __init__(
        self, home: Home, *, now_ns: Callable[[], int] = time.time_ns, hold: bool = True
    ) -> None:
        """`now_ns`: when a file is read (tests: a later or an earlier moment); `hold`:
        the texts stay in memory between runs (else read from the cache file again: a
        long-lived engine holds no copy of the memory)."""
        self.memo = memo_of(home, ENGINE)
        self._home = str(home.root)
        self._now_ns = now_ns
        self._hold = hold
        self._known: dict[str, Entry] | None = None
        self._seen: dict[str, Entry] = {}
        self.read_again = 0  # files of the run so far that were read (not kept, or changed since)
        self.last_read = 0  # files the last run read

    def recall(self, physical: str, info: os.stat_result) -> tuple[bytes, bool] | None:
        if self._known is None:
            self._known = self.memo.read_sealed(MAGIC, self._entries) or {}
        entry = self._known.get(physical)
        if entry is None or entry[0] != stamp_of(info) or not _as_read(entry):
            return None
        self._seen[physical] = entry
        return entry[1], entry[2]

    def learn(self, physical: str, info: os.stat_result, packed: bytes, over_cap: bool) -> None:
        self.read_again += 1
        entry = (stamp_of(info), packed, over_cap)
        if not changed_since(info, self._now_ns() - RACY_MARGIN_NS) and _as_read(entry):
            self._seen[physical] = entry

    def finish(self, *, everything: bool) -> None:
        """The run ended: keep what it saw (and, unless it read `everything`, what was
        kept of the files it did not read), written when it differs."""
        known = self._known or {}
        kept = self._seen if everything else {**known, **self._seen}
        if self.read_again or kept.keys() != known.keys():
            columns = (tuple(entry[i] for entry in kept.values()) for i in range(3))
            held = (CACHE_VERSION, self._home, ENGINE, tuple(kept), *columns)
            self.memo.write_sealed(MAGIC, held)
        self._known, self._seen = (kept if self._hold else None), {}
        self.last_read, self.read_again = self.read_again, 0

    def _entries(self, held: tuple[Any, ...]) -> dict[str, Entry]:
        if len(held) != 7:
            raise ValueError("not the shape written")
        version, home, engine, keys, stamps, texts, over_cap = held
        if (version, home, engine) != (CACHE_VERSION, self._home, ENGINE):
            return {}
        if not len(keys) == len(stamps) == len(texts) == len(over_cap):
            raise ValueError("its lists do not line up")
        if not (only(str, keys) and only(tuple, stamps) and only(bytes, texts)):
            raise TypeError("not the types written")
        if not only(bool, over_cap) or not all(len(s) == 4 and only(int, s) for s in stamps):
            raise TypeError("not the types written")
        return dict(zip(keys, zip(stamps, texts, over_cap, strict=True), strict=True))


def _as_read(entry: Entry) -> bool:
    """Whether a file's entry holds a text its file could have been read as: packed text
    of the file's size (valid UTF-8 reads as its bytes), or at most the cap over it."""
    (size, _, _, _), packed, over_cap = entry
    unpacking = zlib.decompressobj()
    try:
        text = unpacking.decompress(packed, _MOST)
        text.decode("utf-8", "surrogatepass")
    except (zlib.error, UnicodeDecodeError):
        return False
    if unpacking.unconsumed_tail or not unpacking.eof:
        return False
    return len(text) <= _MOST if over_cap else len(text) == size
