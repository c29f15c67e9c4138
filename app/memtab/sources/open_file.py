"""The one place that turns a `MemoryFileRef` into its `MemoryFile`."""

from __future__ import annotations

from collections.abc import Callable

from memtab.file_protocol.file_ref import MUX_SOURCE_ID, MemoryFileRef
from memtab.file_protocol.memory_file import MemoryFile, MuxFile
from memtab.sources.agent_file import AgentFile, SourceVersions  # the first one opened
from memtab.sources.model import Source, SourceFile
from memtab.store.home import Home
from memtab.store.paths import PathError, parse_file_path
from memtab.store.scopes.memory import MemoryStore

AgentFinder = Callable[[MemoryFileRef], "tuple[Source, SourceFile] | None"]
"""Another agent's file as its source lists it now, or None."""


def open_memory_file(
    ref: MemoryFileRef,
    home: Home,
    *,
    store: MemoryStore | None = None,
    find_agent_file: AgentFinder | None = None,
) -> MemoryFile | None:
    """The file `ref` names (a mux file through `store`, another agent's as listed now), or None."""
    if ref.source_id == MUX_SOURCE_ID:
        try:
            return MuxFile(store, parse_file_path(ref.path)) if store is not None else None
        except PathError:
            return None
    found = find_agent_file(ref) if find_agent_file is not None else None
    if found is None:
        return None

    return AgentFile(*found, SourceVersions(home))
