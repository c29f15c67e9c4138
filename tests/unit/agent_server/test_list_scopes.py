"""`list` and `search` keep the scope they are given — one of the store's, an agent, or a
source found — and refuse, in words, one that names nothing (each used to answer an empty
list, as if the scope held no file)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from memtab.agent_server.service import MemoryService
from memtab.demo import MAIN_ID
from memtab.store.sidecars.registry import load_registry
from support.demo_homes import copied_demo_home


@pytest.fixture
def service(tmp_path: Path) -> Iterator[MemoryService]:
    home = copied_demo_home(tmp_path / "demo")
    served = MemoryService(home, load_registry(home).workspace(MAIN_ID), writes="off")
    yield served
    served.catalog.close()


def listed_scopes(service: MemoryService, scope: str) -> set[str]:
    answer = service.call("list", {"scope": scope}, "test")
    assert answer.error is None, answer.error
    return {row["scope"] for row in json.loads(answer.text)["files"]}


UNKNOWN = [
    ("nope", "Unknown scope 'nope': `scope` is global, project, workspace or session, an "
     "agent (claude-code, codex, loki, gemini) or one of its sources (e.g. claude-code:user)"),
    ("Global", "Unknown scope 'Global'"),
    ("mux", "Unknown scope 'mux'"),
    ("codex:", "Unknown scope 'codex:'"),
    ("claude-code:nowhere", "No source 'claude-code:nowhere' (see `memtab sources`; "
     "found: claude-code:user"),
]  # fmt: skip


def test_an_unknown_scope_is_refused_in_words_and_a_known_one_lists_its_files(
    service: MemoryService,
) -> None:
    for scope, says in UNKNOWN:
        for tool in ("list", "search"):
            answer = service.call(tool, {"scope": scope, "query": "memory"}, "test")
            assert answer.error is not None and answer.error.startswith(says), (tool, scope)
    assert listed_scopes(service, "global") == {"global"}
    assert listed_scopes(service, "claude-code:user") == {"claude-code:user"}
    assert {scope.split(":")[0] for scope in listed_scopes(service, "codex")} == {"codex"}


def test_search_in_a_known_scope_finds_only_its_files(service: MemoryService) -> None:
    answer = service.call("search", {"query": "diffs", "scope": "claude-code:user"}, "test")
    assert answer.error is None, answer.error
    found = {hit["scope"] for hit in json.loads(answer.text)["results"]}
    assert found == {"claude-code:user"}
