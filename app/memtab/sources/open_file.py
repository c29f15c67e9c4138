"""The one place that turns a `MemoryFileRef` into its `MemoryFile`.

A mux file's ref (`mux` and a virtual path) opens through the store of the workspace the
caller shows; another agent's through its source as the caller lists it now (the window's
last scan, a discovery for the CLI). Nothing else looks at which kind a file is.
"""

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
"""Another agent's file as its source lists it now (the window's last scan, or a
discovery for the CLI), or None."""


def open_memory_file(
    ref: MemoryFileRef,
    home: Home,
    *,
    store: MemoryStore | None = None,
    find_agent_file: AgentFinder | None = None,
) -> MemoryFile | None:
    """The file `ref` names — a mux file through `store` (its workspace's), another
    agent's as `find_agent_file` lists it — or None when it cannot be reached that way.
    The one place that looks at which kind a file is."""
    if ref.source_id == MUX_SOURCE_ID:
        try:
            return MuxFile(store, parse_file_path(ref.path)) if store is not None else None
        except PathError:
            return None
    found = find_agent_file(ref) if find_agent_file is not None else None
    if found is None:
        return None

    return AgentFile(*found, SourceVersions(home))
