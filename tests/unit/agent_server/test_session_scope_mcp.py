"""The MCP server shows xum's session scope for a session whose workspace keeps one
(docs/formats.md §3.1, §22.2): `list` and `search` give its files under the scope
`session`, `view` reads them, and a direct write lands in the acting workspace's
`session-memory/` — the sub-agent's own, beside its owner's notebook."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from memtab.agent_server.service import MemoryService
from memtab.agent_server.session_scope import SessionScope
from memtab.store.home import Home
from memtab.store.sidecars.registry import load_registry

OWNER, CHILD = "a1b2c3d4e5", "c0c0c0c0c0"
CHECKPOINT = "/memories/session/checkpoint.md"


@pytest.fixture
def service(tmp_path: Path) -> Iterator[MemoryService]:
    home = Home(tmp_path / "home")
    home.root.mkdir(parents=True)
    workspaces = [
        {"id": OWNER, "name": "main", "path": "/w/main"},
        {"id": CHILD, "name": "task", "path": "/w/main", "parentWorkspaceId": OWNER},
    ]
    home.config_path.write_text(json.dumps({"projects": [["/p", {"workspaces": workspaces}]]}))
    session = home.root / "sessions" / CHILD / "session-memory"
    session.mkdir(parents=True)
    (session / "checkpoint.md").write_text("# Checkpoint\n- the parser is half done\n")
    served = MemoryService(
        home, load_registry(home).workspace(CHILD), writes="direct", other_agents=False
    )
    yield served
    served.catalog.close()


def test_list_search_and_view_give_the_session_scope(service: MemoryService) -> None:
    listed = service.call("list", {"scope": "session"}, "test")
    assert listed.error is None, listed.error
    assert [(row["path"], row["scope"]) for row in json.loads(listed.text)["files"]] == [
        (CHECKPOINT, "session")
    ]
    found = service.call("search", {"query": "parser"}, "test")
    assert [hit["path"] for hit in json.loads(found.text)["results"]] == [CHECKPOINT]
    viewed = service.call("view", {"path": CHECKPOINT}, "test")
    assert viewed.error is None and "the parser is half done" in viewed.text


def test_a_write_lands_in_the_acting_workspaces_session_memory(service: MemoryService) -> None:
    answer = service.call(
        "create", {"path": "/memories/session/next.md", "file_text": "- lexer\n"}, "claude"
    )
    assert answer.error is None, answer.error
    home = service.home
    assert (
        home.root / "sessions" / CHILD / "session-memory" / "next.md"
    ).read_text() == "- lexer\n"
    assert not (home.workspace_root(OWNER) / "next.md").exists()


def test_a_session_never_says_it_lacks_xums_session_scope(service: MemoryService) -> None:
    """The session scope is served where the workspace keeps one; a session serving its
    workspace's three scopes is told it lacks none (§22.9)."""
    workspace = load_registry(service.home).workspace(OWNER)
    words = SessionScope.of_workspace(workspace).paths_words()
    assert "This session has no" not in words, words
    assert "/memories/session/... (the session memory of xum workspace" in words, words
    alone = SessionScope.of_workspace(None).paths_words()
    assert alone.endswith("This session has no project or workspace memory: `list` says why.")
    assert "/memories/session/" not in alone
