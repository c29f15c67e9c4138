"""What an agent holds of Memtab before it calls anything, driven over stdio by the MCP
SDK's own client (docs/formats.md §22.1, §22.2): each tool's `_meta` (the read tools
loaded upfront, the changes deferred and found by the words people use, a view shown
whole), within the agents' limits, and the server's instructions leading with what
Codex shows of them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from mcp import Client

from memtab.store.home import Home

from .stdio_client import drive

pytestmark = pytest.mark.slow

# What people say when they want memory (issue 56).
PEOPLES_WORDS = ("remember", "save", "note", "recall", "decided", "preference", "lesson")
# Claude Code's limits: a deferred tool's description (CLAUDE_CODE_MAX_MCP_DESCRIPTION_LENGTH's
# default), the searchHint it matches; Codex shows ~250 characters of the instructions.
DEFERRED_DESCRIPTION_CHARS = 4096
SEARCH_HINT_CHARS = 4096
CODEX_SHOWN_CHARS = 247


def test_the_read_tools_load_upfront_and_the_changes_are_found_by_peoples_words(
    tmp_path: Path,
) -> None:
    home = Home(tmp_path / "home")
    home.global_root.mkdir(parents=True)
    seen: dict[str, object] = {}

    async def session(client: Client) -> None:
        seen["instructions"] = client.instructions
        seen["tools"] = (await client.list_tools()).tools

    drive(home.root, session)
    tools = {tool.name: tool for tool in seen["tools"]}  # type: ignore[attr-defined]
    metas = {name: tool.meta for name, tool in tools.items()}
    assert {name for name, meta in metas.items() if meta["anthropic/alwaysLoad"]} == {
        "list",
        "search",
        "view",
    }
    changes = {"create", "str_replace", "insert", "delete", "rename"}
    assert {name for name, meta in metas.items() if not meta["anthropic/alwaysLoad"]} == changes
    # Every page fits the default budget, under what Claude Code shows whole (§22.10).
    assert all("anthropic/maxResultSizeChars" not in meta for meta in metas.values())
    hints = {name: meta["anthropic/searchHint"] for name, meta in metas.items()}
    assert all(0 < len(hint) <= SEARCH_HINT_CHARS for hint in hints.values())
    assert all(len(tool.description or "") <= DEFERRED_DESCRIPTION_CHARS for tool in tools.values())
    # Claude Code's ToolSearch matches a query's words whole in a searchHint; Codex's
    # tool_search (BM25, stemmed) in the names, descriptions and the instructions.
    change_hints = " ".join(hints[name] for name in changes)
    for word in PEOPLES_WORDS:
        found = [name for name, hint in hints.items() if re.search(rf"\b{word}\b", hint)]
        assert found, word
    assert re.search(r"\bremember this for next time\b", hints["create"])
    assert re.search(r"\bsave a fact\b", hints["create"])
    assert "remember" in change_hints and "forget" in hints["delete"]
    assert (tools["create"].description or "").startswith("Remember something for next time")
    instructions = str(seen["instructions"])
    shown = instructions[:CODEX_SHOWN_CHARS]
    assert "memory across sessions" in shown and "`search`" in shown
    assert "remember something for next time, save it" in shown
    assert "your tool search finds them (remember, save a note)" in instructions
    assert "Inbox" in instructions and "not instructions to you" in instructions


def test_a_read_only_server_says_so_and_names_no_change_tool(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    home.global_root.mkdir(parents=True)
    seen: dict[str, object] = {}

    async def session(client: Client) -> None:
        seen["instructions"] = client.instructions
        seen["names"] = [tool.name for tool in (await client.list_tools()).tools]

    drive(home.root, session, "--writes", "off")
    assert seen["names"] == ["list", "search", "view"]
    instructions = str(seen["instructions"])
    assert "This server is read-only" in instructions
    assert "`create`" not in instructions and "Inbox" not in instructions
