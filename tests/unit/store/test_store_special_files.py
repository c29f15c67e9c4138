"""What another program put in a scope that is no regular file — a FIFO, a socket — is
never listed, by a listing or by `view` of its folder, and never waited for
(docs/formats.md §4.2)."""

from __future__ import annotations

import socket

from memtab.store.paths import Scope
from memtab.store.scopes.tool import MemoryTool
from support.hostile_files import answers_within, fifo_at

from .helpers import G, ok, write


def test_view_of_a_folder_leaves_out_fifos_and_sockets(tool: MemoryTool) -> None:
    root = tool.store.root(Scope.GLOBAL)
    write(root / "notes.md", "notes\n")
    fifo = fifo_at(root / "pipe.md")
    fifo_at(root / "sub" / "pipe.md")
    with socket.socket(socket.AF_UNIX) as listening:
        listening.bind(str(root / "sock.md"))

        shown = answers_within(10, lambda: tool.execute({"command": "view", "path": G}), fifo)

    assert ok(shown) == f"Directory: {G}\n- notes.md\n- sub/"
    assert [str(f.path) for f in tool.store.list_scope(Scope.GLOBAL).files] == [f"{G}/notes.md"]
