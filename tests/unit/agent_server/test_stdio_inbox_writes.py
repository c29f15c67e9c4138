"""`memtab mcp` with its default `--writes inbox`, driven over stdio by the MCP SDK's own
client: a change is a proposal in the Inbox, memory untouched, until the user accepts it
(`memtab inbox accept`) — then written as the client's, which blame names."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from mcp import Client

from memtab.cli.main import main
from memtab.store.home import Home

from .stdio_client import drive, text

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("served")]

NOTE = "/memories/global/deploy.md"
TOKEN = "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789abcdef"


def run(home: Home, capsys: pytest.CaptureFixture[str], *words: str) -> dict[str, object]:
    assert main(["--home", str(home.root), *words, "--json"]) == 0
    result: dict[str, object] = json.loads(capsys.readouterr().out)
    return result


def test_a_change_waits_in_the_inbox_until_the_user_accepts_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home = Home(tmp_path / "home")
    home.global_root.mkdir(parents=True)
    ids: list[str] = []

    async def session(client: Client) -> None:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        assert "Inbox" in (tools["create"].description or "")
        proposed = await client.call_tool(
            "create", {"path": NOTE, "file_text": f"deploy with key {TOKEN}\n"}
        )
        assert not proposed.is_error, text(proposed)
        assert "Proposed to the user's Memtab Inbox as " in text(proposed)
        assert "secret" in text(proposed)
        ids.append(text(proposed).split(" as ")[1].split(":")[0])
        missing = await client.call_tool("view", {"path": NOTE})
        assert missing.is_error and "No memory file" in text(missing)
        elsewhere = await client.call_tool("create", {"path": "/memories/project/a.md"})
        assert elsewhere.is_error and "unavailable" in text(elsewhere)

    drive(home.root, session, client_name="codex-cli")

    assert not (home.global_root / "deploy.md").exists()
    (item,) = run(home, capsys, "inbox")["items"]  # type: ignore[misc]
    assert item["id"] == ids[0] and item["kind"] == "agent" and item["workspaceId"] is None
    assert item["source"] == "mcp:codex-cli" and item["memoryPath"] == NOTE
    assert TOKEN not in item["text"] and "[REDACTED_SECRET]" in item["text"]
    (accepted,) = run(home, capsys, "inbox", "accept", ids[0])["accepted"]  # type: ignore[misc]
    assert accepted["id"] == ids[0]
    assert (home.global_root / "deploy.md").read_text() == "deploy with key [REDACTED_SECRET]\n"
    lines = run(home, capsys, "blame", NOTE)["lines"]
    assert [line["actor"] for line in lines] == ["mcp:codex-cli"]  # type: ignore[attr-defined]
    assert run(home, capsys, "inbox")["items"] == []
