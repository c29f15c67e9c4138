"""Memory paths as the store takes them, for tests: parsed once, as the edges parse them
(the CLI, the MCP server, the memory tool and the window), before a store method is called."""

from __future__ import annotations

from memtab.store.paths import VirtualPath, parse_file_path


def vpath(path: str | VirtualPath) -> VirtualPath:
    """`path` parsed as a path inside a scope (`parse_file_path`); a `VirtualPath` as it is."""
    return path if isinstance(path, VirtualPath) else parse_file_path(path)
