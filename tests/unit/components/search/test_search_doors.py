"""One search, three doors: the MCP server's `search`, `memtab search` and the window's
search box answer a query on the demo home with the same files in the same order — ranked
by the one BM25 ranking over the home's index (docs/formats.md §22.3, §22.11); the window
then adds the files only part of a word finds, and keeps to those holding every term."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from memtab.agent_server.service import MemoryService
from memtab.cli.main import main
from memtab.components.search import search as search_module
from memtab.components.search.indexed import IndexedTexts
from memtab.components.search.search import SearchQuery, find_matches
from memtab.components.tree.full_scan import scan_home
from memtab.components.tree.scan import HomeScan, ScanRequest
from memtab.store.home import Home
from memtab.store.sidecars.registry import load_registry
from support.demo_homes import copied_demo_home

WORKSPACE = "a1b2c3d4e5"  # the demo's first workspace


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Home:
    home = Home(tmp_path_factory.mktemp("doors") / "demo")
    copied_demo_home(home.root)
    return home


@pytest.fixture(scope="module")
def mcp(demo: Home) -> Iterator[MemoryService]:
    service = MemoryService(demo, load_registry(demo).workspace(WORKSPACE), writes="off")
    yield service
    service.close()


@pytest.fixture(scope="module")
def window(demo: Home) -> Iterator[tuple[HomeScan, IndexedTexts]]:
    texts = IndexedTexts()
    yield scan_home(ScanRequest(demo, WORKSPACE, with_sources=True)), texts
    texts.close()


def by_mcp(service: MemoryService, query: str) -> list[str]:
    answer = service.call("search", {"query": query, "limit": 100}, "test")
    assert answer.error is None, answer.error
    return [hit["path"] for hit in json.loads(answer.text)["results"]]


def by_cli(home: Home, query: str, capsys: pytest.CaptureFixture[str]) -> list[str]:
    capsys.readouterr()
    argv = ["search", "--home", str(home.root), "--workspace", WORKSPACE, "--limit", "100"]
    assert main([*argv, "--json", query]) == 0
    return [hit["path"] for hit in json.loads(capsys.readouterr().out)["results"]]


def by_window(window: tuple[HomeScan, IndexedTexts], query: str, served: set[str]) -> list[str]:
    """The window's matches, best first, of the files the session's server serves too (the
    window also shows a gone project's files)."""
    scan, texts = window
    files = texts.files(scan)
    found = find_matches(scan, SearchQuery.parse(query), texts)
    rows = [files.items[files.by_key[key]].row for key in found]
    return [row for row in rows if row in served]


@pytest.mark.parametrize("query", ["token", "test", "postgres", "redis", "auth", "gemini"])
def test_the_three_doors_answer_a_word_alike(
    query: str,
    demo: Home,
    mcp: MemoryService,
    window: tuple[HomeScan, IndexedTexts],
    capsys: pytest.CaptureFixture[str],
) -> None:
    agents = by_mcp(mcp, query)
    assert len(agents) > 3
    assert by_cli(demo, query, capsys) == agents
    shown = by_window(window, query, {row.path for row in mcp.catalog.rows()})
    assert shown[: len(agents)] == agents  # then those only part of a word finds


def test_the_window_keeps_the_ranked_order_of_the_files_holding_every_word(
    mcp: MemoryService, window: tuple[HomeScan, IndexedTexts]
) -> None:
    agents = by_mcp(mcp, "deploy staging")  # any word counts for the agents
    served = {row.path for row in mcp.catalog.rows()}
    shown = by_window(window, "deploy staging", served)
    assert len(shown) >= 2 and shown == [path for path in agents if path in shown]


def test_the_ranking_read_in_two_parts_is_the_whole_ranking(
    mcp: MemoryService, window: tuple[HomeScan, IndexedTexts], monkeypatch: pytest.MonkeyPatch
) -> None:
    served = {row.path for row in mcp.catalog.rows()}
    whole = by_window(window, "test", served)
    monkeypatch.setattr(search_module, "RANKED_FIRST", 3)  # the rest read once those are
    assert by_window(window, "test", served) == whole and len(whole) > 3
