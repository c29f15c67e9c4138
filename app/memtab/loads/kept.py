"""What `memtab loads` and `memtab recall` read of each memory file to judge it, kept by the
file's stamp for the next ask (docs/formats.md §17.8); one thread's."""

from __future__ import annotations

import os
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from pathlib import Path

from memtab.loads.topics import TopicHeads
from memtab.store.description_cache import KnownEntry, KnownFiles
from memtab.store.files import FileEntry

IndexKey = tuple[object, ...]
"""Which notes an index lists: its scopes' roots, and whether the workspace was removed."""

KEPT_ROOTS = 16
"""How many scope roots' notes are kept (the most recent: a workspace switch lists others)."""


class KeptHeads:
    """Topic heads and note descriptions kept by stamp (see the module docstring)."""

    def __init__(self, clock: Callable[[], int] = time.time_ns) -> None:
        """`clock`: the time in ns (a read within the racy margin is not kept)."""
        self._clock = clock
        self.topics = TopicHeads(clock)
        self._notes: OrderedDict[str, Mapping[str, KnownEntry]] = OrderedDict()
        self._indexes: dict[IndexKey, list[FileEntry]] = {}

    def begin(self) -> None:
        """A new computation begins: each folder is listed again, once."""
        self.topics.begin()
        self._indexes.clear()

    def index(self, key: IndexKey) -> list[FileEntry] | None:
        """The notes xum's index lists, if this computation listed them already."""
        return self._indexes.get(key)

    def keep_index(self, key: IndexKey, notes: list[FileEntry]) -> None:
        self._indexes[key] = notes

    def notes(self, root: Path) -> KnownFiles:
        """The notes of the scope root `root` as last read, to list it with."""
        return KnownFiles(self._notes.get(os.fspath(root), {}), read_at_ns=self._clock())

    def keep_notes(self, root: Path, known: KnownFiles) -> None:
        """Keep what a listing of `root` with `known` saw, for the next."""
        key = os.fspath(root)
        self._notes.pop(key, None)
        self._notes[key] = known.seen
        while len(self._notes) > KEPT_ROOTS:
            self._notes.popitem(last=False)
