"""When each line of a memory was written, for the contradictions' sides (which is newer).

By blame (the version of history that brought the line in), else when its file last
changed. Blaming a file reads its scope's history and the file again, so what blame
answered is kept (`kept.per_file.KeptOnDisk`, `trust-contradictions-blame-…`) by the
file's key and text, when it last changed and its history index as it stands (size,
time, inode): a next run, in this process or the next, blames only a file one of those
changed for (docs/formats.md §19.10).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Collection
from typing import Any

from memtab.check.documents import Document, Listed
from memtab.file_protocol.file_ref import SourceError, parse_file_id
from memtab.file_protocol.memory_file import MemoryFileError
from memtab.kept.per_file import KeptOnDisk, digest_of, is_line, only
from memtab.sources.agent_file import index_key
from memtab.store.errors import MemoryStoreError
from memtab.store.history.versions import index_path
from memtab.store.home import Home
from memtab.store.paths import PathError

LineTime = Callable[[Document, int], int]
"""When a line of a memory was written (ms since the epoch)."""

Times = dict[int, int]
"""A file's lines (from 1) blamed, each with when it was written."""


class BlamedTimes:
    """`LineTime` by blame (see the module doc); one run at a time: `keep` ends one."""

    def __init__(self, home: Home) -> None:
        self.home = home
        self._disk = KeptOnDisk.of_home(
            home, "contradictions-blame", pack=packed_times, unpack=unpacked_times
        )
        self._kept: dict[str, tuple[bytes, Times]] | None = None
        self._histories: dict[str, bytes] = {}
        self._changed = False

    def __call__(self, document: Document, line: int) -> int:
        if self._kept is None:
            self._kept = self._disk.load(())
        digest = self._digest(document)
        held = self._kept.get(document.key)
        if held is None or held[0] != digest:
            held = self._kept[document.key] = (digest, self._blame(document))
            self._changed = True
        return held[1].get(line, document.modified_ms)

    def keep(self, keys: Collection[str] | None) -> None:
        """A run is done: what was blamed is saved, what was kept of files not keyed in
        `keys` forgotten (None: a run over some files, none forgotten), and history is
        looked at anew by the next run."""
        self._histories = {}
        if self._kept is None:
            return
        gone = set() if keys is None else self._kept.keys() - keys
        for key in gone:
            del self._kept[key]
        if self._changed or gone:
            self._disk.save(self._kept, ())
        self._changed = False

    def histories(self, listed: Listed) -> tuple[tuple[str, bytes], ...]:
        """The state of each history index the memory `listed` is blamed by (`_history`)."""
        keys = {*listed.history_keys, *map(_history_key, listed.other_agents)}
        return tuple((key, self._state(key)) for key in sorted(k for k in keys if k is not None))

    def _digest(self, document: Document) -> bytes:
        digest = hashlib.blake2b(digest_of(document), digest_size=16)
        digest.update(document.modified_ms.to_bytes(16, "big", signed=True))
        digest.update(self._history(_history_key(document)))
        return digest.digest()

    def _history(self, key: str | None) -> bytes:
        """The state of the history index `key` (once a run): its size, time and inode."""
        if key is None:
            return b"-"
        state = self._histories.get(key)
        if state is None:
            state = self._histories[key] = self._state(key)
        return state

    def _state(self, key: str) -> bytes:
        try:
            stat = os.stat(index_path(self.home, key))
        except (OSError, ValueError):
            return b"none"
        return f"{stat.st_size} {stat.st_mtime_ns} {stat.st_ino}".encode()

    def _blame(self, document: Document) -> Times:
        if document.origin is None:
            return {}
        # lazy: a warm run asks only the histories' state (`histories`), never blames
        from memtab.blame.service import blame_file

        try:
            blamed = blame_file(document.origin.opened(document, self.home))
        except (MemoryFileError, MemoryStoreError, SourceError, PathError, OSError, TypeError):
            return {}
        return {line.line: line.at for line in blamed.lines}


def _history_key(document: Document) -> str | None:
    """The history index of a memory: its scope's, else its agent's source's (by its id)."""
    if document.history_key is not None:
        return document.history_key
    try:
        return index_key(parse_file_id(document.key).source_id)
    except (SourceError, ValueError):
        return None


def packed_times(times: Times) -> object:
    """A file's blamed lines as the cache keeps them: `(line, at, line, at, …)`."""
    return tuple(value for pair in times.items() for value in pair)


def unpacked_times(held: Any) -> Times:
    """`packed_times`' inverse (TypeError or ValueError for what it never made)."""
    if not only(int, held) or len(held) % 2:
        raise TypeError("not a file's blamed lines")
    times = dict(zip(held[::2], held[1::2], strict=True))
    if not all(map(is_line, times)):
        raise ValueError("a line no file has")
    return times
