"""`memtab mcp` read-only, driven over stdio by the MCP SDK's own client: the tools it
offers, `list`, ranked `search`, `view`, and refusals as tool errors (never a crash)."""

from __future__ import annotations

from pathlib import Path

import pytest
from mcp import Client

from memtab.demo import MAIN_ID
from support.demo_homes import copied_demo_home

from .stdio_client import drive, every_row, ok_json, text

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("served")]


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    return copied_demo_home(tmp_path / "demo").root


def test_a_read_only_server_offers_the_read_tools_and_lists_every_agents_memory(
    demo: Path,
) -> None:
    async def session(client: Client) -> None:
        assert client.protocol_version == "2025-11-25"
        assert client.server_info is not None and client.server_info.name == "memtab"
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        assert list(tools) == ["list", "search", "view"]
        for tool in tools.values():
            assert tool.annotations is not None and tool.annotations.read_only_hint is True
            assert tool.description is not None and "not instructions" in tool.description
        files = await every_row(client, "list", {}, "files")
        paths = [row["path"] for row in files]
        assert "/memories/workspace/notes.md" in paths  # the workspace's own scopes
        assert "claude-code:user:CLAUDE.md" in paths  # and other agents' memory
        row = files[paths.index("/memories/global/environment.md")]
        assert row["scope"] == "global" and row["description"].startswith("Machine")
        assert {"pinned", "accessCount", "sizeBytes", "modifiedAt"} <= set(row)
        global_only = ok_json(await client.call_tool("list", {"scope": "global"}))["files"]
        assert {row["scope"] for row in global_only} == {"global"}
        page = ok_json(await client.call_tool("list", {"offset": 2, "limit": 3}))
        # `check` may have come meanwhile: the session checks its memory in the background.
        assert _unchecked(page["files"]) == _unchecked(files[2:5])
        assert page["total"] == len(files) > 5

    drive(demo, session, "--workspace", MAIN_ID, "--writes", "off")


def _unchecked(rows: list[dict[str, object]]) -> list[dict[str, object]]:
    return [{key: value for key, value in row.items() if key != "check"} for row in rows]


def test_search_ranks_scopes_and_limits_and_view_reads_lines(demo: Path) -> None:
    async def session(client: Client) -> None:
        found = ok_json(await client.call_tool("search", {"query": "pnpm npm"}))["results"]
        best = found[0]
        assert best["path"] == "/memories/global/environment.md"
        assert best["line"] == 8 and "pnpm" in best["snippet"]
        assert [r["score"] for r in found] == sorted((r["score"] for r in found), reverse=True)
        one = ok_json(await client.call_tool("search", {"query": "memory", "limit": 1}))
        assert len(one["results"]) == 1
        claude = ok_json(
            await client.call_tool("search", {"query": "memory", "scope": "claude-code"})
        )["results"]
        assert claude and all(r["scope"].startswith("claude-code:") for r in claude)

        viewed = await client.call_tool(
            "view", {"path": "/memories/global/environment.md", "offset": 8, "limit": 1}
        )
        assert not viewed.is_error
        lines = text(viewed).split("\n")
        assert lines[0] == "8\t- Node via fnm; pnpm is the package manager, not npm."
        assert lines[-1].startswith("(sha256 of /memories/global/environment.md: ")
        assert "- global/\n" in text(await client.call_tool("view", {"path": "/memories"}))
        claude = text(await client.call_tool("view", {"path": "claude-code:user:CLAUDE.md"}))
        assert claude.startswith("1\t") and "read-only here" in claude
        missing = await client.call_tool("view", {"path": "codex:user:nothing.md"})
        assert missing.is_error and "No file 'nothing.md' in codex:user" in text(missing)

    drive(demo, session, "--workspace", MAIN_ID, "--writes", "off", mode="2026-07-28")


REFUSALS = [
    ("view", {"path": "/memories/global/missing.md"}, "No memory file or directory at"),
    ("view", {"path": "/etc/passwd"}, "Invalid memory path"),
    ("view", {"path": "/memories/global/../../x.md"}, "Invalid memory path"),
    ("view", {"path": "/memories/global/environment.md", "offset": 0}, "`offset`"),
    ("view", {}, "`path` is required"),
    ("search", {"query": "x" * 1001}, "at most 1000 characters"),
    ("search", {"query": "pnpm", "limit": 0}, "`limit` must be an integer from 1 to 100"),
    ("list", {"offset": -1}, "`offset` must be an integer ≥ 0"),
    ("create", {"path": "/memories/global/a.md", "file_text": "x"}, "read-only"),
    ("nonesuch", {}, "Unknown tool"),
]


def test_refusals_are_tool_errors_and_the_server_goes_on(demo: Path) -> None:
    async def session(client: Client) -> None:
        for tool, arguments, message in REFUSALS:
            refused = await client.call_tool(tool, arguments)
            assert refused.is_error and message in text(refused), (tool, text(refused))
        assert ok_json(await client.call_tool("list", {"scope": "global"}))["files"]

    drive(demo, session, "--writes", "off")
