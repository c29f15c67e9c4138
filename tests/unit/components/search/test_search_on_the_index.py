"""The window's search answers from the home's search index on disk, the file the MCP
servers and `memtab search` share (docs/formats.md §22.11): rows a server indexed are not
read again, a file another program wrote a moment ago is found and a deleted one is not,
a damaged file is rebuilt and the search still answers, and a server writing the file
while the window reads it costs neither an error nor a row."""

from __future__ import annotations

import os
from typing import Any

import pytest

from memtab.agent_server.service import MemoryService
from memtab.components.jobs import JobContext
from memtab.components.search import search
from memtab.components.search.search import SearchQuery
from memtab.components.tree.nodes import NodeKind, file_key
from memtab.components.tree.scan import HomeScan
from memtab.fs import memo
from memtab.search_index import documents as documents_module
from memtab.search_index.index import SearchIndex, index_file_for
from memtab.store.home import Home
from memtab.store.paths import parse_file_path
from memtab.store.sidecars.registry import load_registry
from support import memory_home
from support.indexed import indexed_text
from support.memory_home import MAIN, memory, scanned
from support.processes import python_child

home = memory_home.home


def key(raw: str) -> str:
    return file_key(parse_file_path(raw))


def matched(searcher: search.Searcher, scan: HomeScan, text: str) -> set[str]:
    """The tree keys of the files the window shows for `text`."""
    outcome = searcher.search(scan, SearchQuery.parse(text), JobContext.standalone())
    keys: set[str] = set()
    stack = [outcome.tree]
    while stack:
        node = stack.pop()
        if node.kind is NodeKind.FILE:
            keys.add(node.key)
        stack.extend(node.children)
    return keys


def test_the_window_reads_no_file_a_server_indexed_and_follows_other_programs(
    home: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(memo, "RACY_MARGIN_NS", 0)  # files written just now
    workspace = load_registry(home).workspace(MAIN)
    server = MemoryService(home, workspace, writes="off", other_agents=False)
    try:
        answer = server.call("search", {"query": "ruff"}, "test")
        assert answer.error is None and "python.md" in answer.text
    finally:
        server.catalog.close()
    scan = scanned(home)
    reads: list[str] = []
    original = documents_module.read_readable_path

    def counting(path: str, **how: Any) -> Any:
        reads.append(path.rsplit("/", 1)[-1])
        return original(path, **how)

    monkeypatch.setattr(documents_module, "read_readable_path", counting)
    searcher = search.Searcher()
    python = key("/memories/global/tools/python.md")
    assert matched(searcher, scan, "ruff") == {python}
    assert reads == ["old.md"]  # the orphaned project dir's, which no server lists
    # Another program writes a file and deletes one; the next scan shows it.
    (home.global_root / "birds.md").write_text(memory("Birds", "The kestrel hovers.\n"))
    (home.global_root / "tools" / "python.md").unlink()
    rescan = scanned(home)
    assert matched(searcher, rescan, "estre") == {key("/memories/global/birds.md")}
    assert matched(searcher, rescan, "ruff") == set()
    assert reads == ["old.md", "birds.md"]
    searcher.close()
    index = SearchIndex.of_home(home.root)
    try:  # the rows are the shared file's
        global_root = os.fspath(home.global_root)
        assert "kestrel" in indexed_text(index, global_root, "/memories/global/birds.md")
        assert indexed_text(index, global_root, "/memories/global/tools/python.md") == ""
    finally:
        index.close()


@pytest.mark.expect_log("memtab.search_index.index", "WARNING", r"^Search index .* is damaged")
def test_a_damaged_index_is_rebuilt_and_the_search_still_answers(home: Home) -> None:
    searcher = search.Searcher()
    python = key("/memories/global/tools/python.md")
    assert matched(searcher, scanned(home), "ruff") == {python}
    path = index_file_for(home.root)
    for part in path.iterdir():  # every file of the index: another program's bytes
        # Renamed in whole, as a file is replaced on disk: overwriting the pages tantivy has
        # mapped would crash this process on their reader thread (SIGBUS), not test Memtab.
        damaged = part.with_name(part.name + ".damaged")
        damaged.write_bytes(b"\x13 not an index \x37" * (part.stat().st_size // 20 + 1))
        damaged.replace(part)
    (home.global_root / "tools" / "python.md").write_text(memory("Python", "ruff, again\n"))
    assert matched(searcher, scanned(home), "ruff") == {python}
    assert matched(searcher, scanned(home), "rebase") == {key("/memories/global/tools/git.md")}
    searcher.close()


_SERVER = """
import sys
from pathlib import Path
from memtab.agent_server.service import MemoryService
from memtab.store.home import Home
from memtab.store.sidecars.registry import load_registry

home = Home(Path(sys.argv[1]))
server = MemoryService(home, None, writes="off", other_agents=False)
print("held", flush=True)
for number in range(int(sys.argv[2])):
    aside = home.root / "aside.tmp"  # written whole, then renamed in: never seen half-written
    aside.write_text(f"written {number}: kestrel\\n")
    aside.replace(home.global_root / f"w{number:03d}.md")
    server.catalog.invalidate()
    answer = server.call("search", {"query": "kestrel", "limit": 100}, "child")
    assert answer.error is None, answer.error
server.catalog.close()
print("done", flush=True)
sys.stdin.read()
"""


@pytest.mark.slow  # slow: a second process imports the MCP server (~1 s of CPU)
def test_a_server_writing_the_index_while_the_window_searches_costs_no_row(home: Home) -> None:
    searcher = search.Searcher()
    written = 40
    with python_child(_SERVER, os.fspath(home.root), str(written)) as server:
        searches = 0
        while server.poll() is None and searches < 400:
            scan = scanned(home)
            listed = {
                key(f"/memories/global/{entry.path.relative}")
                for item in scan.scopes
                for entry in item.listing.files
                if entry.path.name.startswith("w")
            }
            # Every file listed holds the word: a row the server took out meanwhile is
            # found all the same.
            assert matched(searcher, scan, "kestrel") == listed
            searches += 1
            if len(listed) == written:
                break
        assert server.stdout is not None
        assert server.stdout.readline().strip() == "done"
    scan = scanned(home)
    assert len(matched(searcher, scan, "kestrel")) == written
    searcher.close()
    index = SearchIndex.of_home(home.root)
    try:  # every file's row is there, with its text: the server's and the window's
        global_root = os.fspath(home.global_root)
        for number in range(written):
            row = f"/memories/global/w{number:03d}.md"
            assert indexed_text(index, global_root, row) == f"written {number}: kestrel\n"
        project_root = os.fspath(home.project_root(memory_home.PROJECT))
        assert "Body text" in indexed_text(index, project_root, "/memories/project/architecture.md")
    finally:
        index.close()
