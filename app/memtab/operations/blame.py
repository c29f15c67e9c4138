"""Blame's operations in the window: who wrote each line of the open file, and the lines
matched again to the text being typed (`components.blame.gutter.entries`)."""

from __future__ import annotations

from memtab.blame.records import Blame
from memtab.components.blame.gutter import GutterEntry, entries
from memtab.components.jobs import JobContext
from memtab.file_protocol.file_ref import MemoryFileRef, SourceError
from memtab.file_protocol.memory_file import MemoryFile
from memtab.fs.clock import now_ms
from memtab.store.errors import MemoryStoreError
from memtab.store.paths import PathError

Blamed = tuple[MemoryFileRef, Blame, list[GutterEntry]]
"""A file's blame and its gutter's entries for the text shown."""


def blame_text(file: MemoryFile, text: str, _ctx: JobContext) -> Blamed | str:
    """`file` blamed (`blame.service.blame_file`: history read and compared, cached per
    file and newest version), its lines matched to `text`; why not, in words, when the
    file is gone or unreadable now."""
    # lazy: blame's engine (~0.2 MiB, 8 modules) loads on the lane with the first blame
    from memtab.blame.service import blame_file

    try:
        blame = blame_file(file)
    except (MemoryStoreError, PathError, SourceError, OSError) as error:
        return str(error)  # gone or unreadable now: the gutter says so, not a defect
    return file.ref, blame, entries(blame, text, now_ms())


def align(ref: MemoryFileRef, blame: Blame, text: str, _ctx: JobContext) -> Blamed:
    """The blame's lines matched again to `text` (typed since it was read)."""
    return ref, blame, entries(blame, text, now_ms())
