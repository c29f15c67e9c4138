"""`memtab mcp` driven over stdio by the MCP SDK's own client on a scope of 1,000 files and a
file at the cap, in multi-byte text: no answer the client receives passes the budget (its
text as the frame carries it), and every page is reached by the cursor each answer gives
(docs/formats.md §22.10). Before, `list` with its defaults answered every row at once and
`view` a whole 100 KiB file, past what Claude Code and Codex show whole."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from mcp import Client

from memtab.agent_server.pages.paging import framed_size
from memtab.store.files import MAX_FILE_BYTES
from memtab.store.home import Home

from .raw_stdio import raw_server
from .stdio_client import drive, ok_json, text

pytestmark = pytest.mark.slow  # slow: a server process started for each test

BUDGET = 24_000
KOREAN = "메모리는 에이전트가 함께 쓰는 기억이다"


def a_big_home(root: Path) -> Home:
    """1,000 files in the global scope, each with a multi-byte description, and one file
    at the cap whose lines are Korean, quoted and escaped."""
    home = Home(root)
    home.global_root.mkdir(parents=True)
    for number in range(999):
        text = f'---\ndescription: "{KOREAN} \\"{number}\\" 🧠"\n---\n{KOREAN} alpha {number}\n'
        (home.global_root / f"노트-{number:04d}.md").write_text(text, encoding="utf-8")
    lines, size = [], 0
    while size < MAX_FILE_BYTES - 200:
        line = f'{KOREAN} "{len(lines)}" C:\\dir\\file\t{"🧠" * 3}'
        lines.append(line)
        size += len(line.encode()) + 1
    (home.global_root / "big.md").write_text("\n".join(lines[:-1]) + "\n", encoding="utf-8")
    return home


async def call(client: Client, tool: str, arguments: dict[str, Any]) -> str:
    result = await client.call_tool(tool, arguments)
    answered = text(result)
    assert framed_size(answered) <= BUDGET, (tool, arguments, framed_size(answered))
    assert not result.is_error, answered
    return answered


def test_every_answer_fits_and_every_page_is_reached(tmp_path: Path) -> None:
    home = a_big_home(tmp_path / "home")

    async def session(client: Client) -> None:
        listed: list[str] = []
        arguments: dict[str, Any] = {}
        while True:
            page = json.loads(await call(client, "list", arguments))
            listed += [row["path"] for row in page["files"]]
            if "next" not in page:
                break
            arguments = {"cursor": page["next"]}
        assert len(listed) == len(set(listed)) == 1000

        found: list[str] = []
        arguments = {"query": "alpha", "limit": 100}
        while True:
            page = json.loads(await call(client, "search", arguments))
            found += [hit["path"] for hit in page["results"]]
            if "next" not in page:
                break
            arguments = {"query": "alpha", "cursor": page["next"]}
        assert len(found) == len(set(found)) == 100

        lines: dict[int, str] = {}
        arguments = {"path": "/memories/global/big.md"}
        while True:
            answered = await call(client, "view", arguments)
            body, _, rest = answered.partition("\n\n(")
            for line in body.split("\n"):
                number, _, content = line.partition("\t")
                lines[int(number)] = lines.get(int(number), "") + content
            if 'cursor "' not in rest:
                break
            cursor = rest.split('cursor "', 1)[1].split('"', 1)[0]
            arguments = {"path": "/memories/global/big.md", "cursor": cursor}
        whole = "\n".join(lines[number] for number in sorted(lines)) + "\n"
        assert whole == (home.global_root / "big.md").read_text(encoding="utf-8")

    drive(home.root, session, "--writes", "off")


def test_the_frame_carries_what_the_budget_counts(tmp_path: Path) -> None:
    """What `framed_size` counts is what the answer's text takes on the wire."""
    home = a_big_home(tmp_path / "home")
    with raw_server(home.root, "--writes", "off") as server:
        call_view = {"name": "view", "arguments": {"path": "/memories/global/big.md"}}
        frame = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": call_view}
        server.send(json.dumps(frame).encode() + b"\n")
        line = server.answer_line(within_s=60)
        (content,) = json.loads(line)["result"]["content"]
        escaped = json.dumps(content["text"], ensure_ascii=False)[1:-1].encode()
        assert escaped in line and len(escaped) == framed_size(content["text"]) <= BUDGET


def test_a_larger_budget_is_declared_for_view_alone(tmp_path: Path) -> None:
    home = a_big_home(tmp_path / "home")

    async def session(client: Client) -> None:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        assert (tools["view"].meta or {})["anthropic/maxResultSizeChars"] == 120_000
        assert not {"anthropic/maxResultSizeChars"} & set(tools["list"].meta or {})
        assert not {"anthropic/maxResultSizeChars"} & set(tools["search"].meta or {})
        page = ok_json(await client.call_tool("list", {}))
        assert BUDGET < framed_size(json.dumps(page, ensure_ascii=False, indent=1)) <= 120_000

    drive(home.root, session, "--writes", "off", "--answer-budget", "120000")
