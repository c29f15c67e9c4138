"""Each session of `memtab mcp` serves the memory of the project its agent works in, driven
over stdio by the MCP SDK's own client (docs/formats.md §22.9): from the directory the
agent started it in, or the client's roots when it offers them; that project's memory and
no other's, its tools, instructions and `list` saying which; a directory Memtab does not
know told what it would take. Before, a server without `--workspace` served global memory
only, wherever it ran, and listed every project's Claude Code memory."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp_types import RootsListChangedNotification

from memtab.store.sidecars.registry import add_project

from .session_homes import WORKSPACE_ID, two_projects
from .stdio_client import drive, every_row, ok_json, text

# slow: a server process started for each test. Each runs twice (`served`): the session
# in its own process, and through the bridge by a warm host (docs/formats.md §22.8), whose
# own directory is not the agent's: the project comes from the session's origin.
pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("served")]


async def listed(client: Client) -> tuple[set[str], dict[str, Any]]:
    """Every file the session lists, and what it says it serves."""
    paths = {row["path"] for row in await every_row(client, "list", {}, "files")}
    session = ok_json(await client.call_tool("list", {"limit": 1})).get("session", {})
    return paths, session


async def found(client: Client, query: str) -> set[str]:
    return {
        hit["path"]
        for hit in ok_json(await client.call_tool("search", {"query": query}))["results"]
    }


def test_a_session_in_a_projects_checkout_serves_that_project_and_no_other(
    tmp_path: Path,
) -> None:
    layout = two_projects(tmp_path)

    async def session(client: Client) -> None:
        paths, served = await listed(client)
        assert {"/memories/global/g.md", "/memories/project/s.md"} <= paths
        assert "claude-code:user:CLAUDE.md" in paths
        assert any(path.endswith(":memory/MEMORY.md") for path in paths)  # shop's, from Claude Code
        assert not any("oscar" in path or "/o.md" in path for path in paths)
        assert served["scopes"] == ["global", "project"]
        assert served["project"] == str(layout.shop)
        assert served["directories"] == [str(layout.shop / "sub")]
        assert "Workspace memory is unavailable: this checkout is the project's" in served["words"]
        assert await found(client, "oscar") == set()  # other's memory, its and Claude Code's
        assert await found(client, "charlie") and await found(client, "sierra")

        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        assert f"/memories/project/... (Shop: {layout.shop})" in (tools["view"].description or "")
        assert f"/memories/project/... (Shop: {layout.shop})" in (tools["list"].description or "")
        assert f"the project memory of Shop: {layout.shop}" in (client.instructions or "")

        refused = await client.call_tool("view", {"path": "/memories/workspace"})
        assert refused.is_error and "Workspace memory is unavailable" in text(refused)
        refused = await client.call_tool("list", {"scope": "workspace"})
        assert refused.is_error and "Workspace memory is unavailable" in text(refused)
        others = [p for p in paths if p.startswith("claude-code:memory-")]
        other_id = others[0].replace("shop", "other")
        refused = await client.call_tool("view", {"path": other_id})
        assert refused.is_error and "not of this session's" in text(refused)

    drive(layout.home.root, session, "--writes", "off", cwd=layout.shop / "sub")


def test_a_session_in_a_directory_memtab_does_not_know_says_what_it_would_take(
    tmp_path: Path,
) -> None:
    layout = two_projects(tmp_path)

    async def session(client: Client) -> None:
        paths, served = await listed(client)
        assert served["scopes"] == ["global"] and "project" not in served
        assert paths == {"/memories/global/g.md", "claude-code:user:CLAUDE.md"}
        refused = await client.call_tool(
            "create", {"path": "/memories/project/n.md", "file_text": "x\n"}
        )
        assert refused.is_error
        assert text(refused).startswith(
            f"Project memory is unavailable: {layout.elsewhere} is in no project Memtab knows"
        )
        assert f"`memtab project add {layout.elsewhere}`" in text(refused)

        add_project(layout.home, str(layout.elsewhere))  # what it would take
        created = await client.call_tool(
            "create", {"path": "/memories/project/n.md", "file_text": "noted\n"}
        )
        assert not created.is_error, text(created)
        written = layout.home.project_root(str(layout.elsewhere)) / "n.md"
        assert written.read_text() == "noted\n"
        _, served = await listed(client)
        assert served["scopes"] == ["global", "project"]

    drive(layout.home.root, session, "--writes", "direct", cwd=layout.elsewhere)


def test_the_clients_roots_decide_and_follow_its_changes(tmp_path: Path) -> None:
    layout = two_projects(tmp_path)
    roots = [layout.checkout]

    async def session(client: Client) -> None:
        paths, served = await listed(client)
        assert served["decidedBy"] == "the client's roots"
        assert served["scopes"] == ["global", "project", "workspace"]
        assert served["workspace"] == WORKSPACE_ID and served["project"] == str(layout.shop)
        assert {"/memories/workspace/w.md", "/memories/project/s.md"} <= paths
        assert f"(xum workspace fix-cart ({WORKSPACE_ID}))" in json.dumps(
            [tool.description for tool in (await client.list_tools()).tools]
        )

        roots[:] = [layout.other]
        await client.session.send_notification(RootsListChangedNotification())
        paths, served = await listed(client)
        assert served["project"] == str(layout.other) and served["scopes"] == ["global", "project"]
        assert "/memories/project/o.md" in paths and "/memories/project/s.md" not in paths
        assert await found(client, "oscar") and not await found(client, "charlie")

    drive(layout.home.root, session, "--writes", "off", cwd=layout.elsewhere, roots=lambda: roots)


def test_a_pinned_workspace_is_not_served_in_another_projects_checkout(tmp_path: Path) -> None:
    layout = two_projects(tmp_path)

    async def session(client: Client) -> None:
        paths, served = await listed(client)
        assert served["project"] == str(layout.other) and "workspace" not in served
        assert "/memories/project/o.md" in paths
        assert not {"/memories/workspace/w.md", "/memories/project/s.md"} & paths
        assert f"--workspace {WORKSPACE_ID} is a workspace of {layout.shop}" in served["words"]

    drive(
        layout.home.root, session, "--writes", "off", "--workspace", WORKSPACE_ID, cwd=layout.other
    )
