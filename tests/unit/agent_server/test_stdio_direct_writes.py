"""`memtab mcp --writes direct`, driven over stdio by the MCP SDK's own client: changes go
through the store with the memory tool's rules and messages, `expected_sha256` guards them,
secrets are redacted, oversized text is a tool error, and blame names the client."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from mcp import Client

from memtab.cli.main import main
from memtab.store.home import Home

from .stdio_client import drive, text

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("served")]

NOTE = "/memories/global/deploy.md"
TOKEN = "ghp_abcdefghijklmnopqrstuvwxyz0123456789AB"


def test_changes_are_the_memory_tools_recorded_as_the_client(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home = Home(tmp_path / "home")
    home.global_root.mkdir(parents=True)

    async def session(client: Client) -> None:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        assert list(tools) == ["list", "search", "view", *CHANGES]
        assert tools["delete"].annotations and tools["delete"].annotations.read_only_hint is False
        assert "expected_sha256" in tools["str_replace"].input_schema["properties"]

        created = await client.call_tool(
            "create", {"path": NOTE, "file_text": f"# Deploy\nuse token {TOKEN}\n"}
        )
        assert not created.is_error
        assert text(created).startswith(f"Created {NOTE}") and "secret" in text(created)
        viewed = text(await client.call_tool("view", {"path": NOTE}))
        assert TOKEN not in viewed and "[REDACTED_SECRET]" in viewed
        sha = re.findall(r"sha256 of \S+: ([0-9a-f]{64})", viewed)[0]

        stale = await client.call_tool(
            "str_replace",
            {"path": NOTE, "old_str": "# Deploy", "new_str": "# Ship", "expected_sha256": "0" * 64},
        )
        assert stale.is_error and "changed since it was read" in text(stale)
        edited = await client.call_tool(
            "str_replace",
            {"path": NOTE, "old_str": "# Deploy", "new_str": "# Ship", "expected_sha256": sha},
        )
        assert text(edited) == f"Edited {NOTE}"
        twice = await client.call_tool("str_replace", {"path": NOTE, "old_str": "zzz"})
        assert twice.is_error and text(twice).startswith("No replacement was performed")

        huge = await client.call_tool(
            "create", {"path": "/memories/global/huge.md", "file_text": "x" * 200_000}
        )
        assert huge.is_error and "limited to 102400 bytes" in text(huge)
        outside = await client.call_tool("create", {"path": "/memories/../x.md"})
        assert outside.is_error and "Invalid memory path" in text(outside)
        found = json.loads(text(await client.call_tool("search", {"query": "ship"})))
        # The whole answer on failure: its notes say what the search left out and why.
        assert [result["path"] for result in found["results"]] == [NOTE], found

    drive(home.root, session, "--writes", "direct", client_name="Claude Code")

    assert (home.global_root / "deploy.md").read_text() == "# Ship\nuse token [REDACTED_SECRET]\n"
    assert main(["--home", str(home.root), "blame", NOTE, "--json"]) == 0
    lines = json.loads(capsys.readouterr().out)["lines"]
    assert [line["actor"] for line in lines] == ["mcp:Claude-Code", "mcp:Claude-Code"]


CHANGES = ["create", "str_replace", "insert", "delete", "rename"]
