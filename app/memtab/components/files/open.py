"""A tree row's file, opened to read and change: the window's way from a `MemoryFileRef`
to its `MemoryFile` as the last scan shows it."""

from __future__ import annotations

import os
from pathlib import Path

from memtab.components.tree.scan import HomeScan
from memtab.file_protocol.file_ref import MemoryFileRef
from memtab.file_protocol.memory_file import MemoryFile
from memtab.sources.open_file import open_memory_file
from memtab.store.scopes.memory import MemoryStore


def open_file(scan: HomeScan, ref: MemoryFileRef) -> MemoryFile | None:
    """The memory file `ref` names as `scan` shows it — a mux file of the scanned
    workspace, another agent's file as its source is listed — or None
    (`memtab.sources.open_file.open_memory_file`; touches no disk)."""
    sources = scan.sources
    return open_memory_file(
        ref,
        scan.home,
        store=MemoryStore.of(scan.view()),
        find_agent_file=sources.find if sources is not None else None,
    )


def ref_on_disk(scan: HomeScan, physical: Path) -> MemoryFileRef | None:
    """The memory file of another agent's that `scan` lists at `physical` (an `@`-import
    followed), or None: a file Memtab does not show."""
    if scan.sources is None:
        return None
    wanted = os.path.normpath(physical)
    for listing in scan.sources.listings:
        for file in listing.files:
            if os.path.normpath(file.physical) == wanted:
                return file.ref
    return None
