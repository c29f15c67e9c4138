"""Benchmark: the size of `memtab mcp`'s answers on a 1,000-file scope, against the agents'
limits (issue 56: Claude Code saves a result over 50,000 characters to a file and refuses
one over 25,000 tokens; Codex cuts the middle of one over ~48,000).

Run: .venv/bin/python -m pytest --bench tests/bench/test_agent_answer_sizes_bench.py -s

A global scope of 1,000 files written as people and agents write them: English notes,
Korean ones (3 bytes a character), emoji, lines of 2,000 characters, quotes, backslashes
and tabs (2 bytes each once JSON-escaped), descriptions of up to 200 characters, some
folders named in Korean; and one file at the 100 KiB cap. Each answer is measured as the
client receives it — its text as the JSON-RPC frame carries it (`framed_size`, which
tests/unit/agent_server/test_stdio_pages.py checks against the frame's bytes) — with the
default budget, and with the largest budget (1,000,000: what the server answered before
answers were paged). Walks every page of `list` and of a `search` of 100 results by their
cursors, and a `view` of the 100 KiB file to its end.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from bench.table import Row, record
from memtab.agent_server.pages.paging import (
    DEFAULT_ANSWER_BUDGET,
    MAX_ANSWER_BUDGET,
    framed_size,
)
from memtab.agent_server.service import MemoryService
from memtab.store.files import MAX_FILE_BYTES
from memtab.store.home import Home

pytestmark = pytest.mark.bench

FILES = 1000
_KOREAN = "메모리는 에이전트가 공유하는 지식이다 빌드와 테스트 규칙을 기억한다 "
_ESCAPED = 'He said "use \\\\ for paths"\tand\ttabs; '


def _text(index: int) -> str:
    kind = index % 4
    if kind == 0:
        body = "A remembered fact about the build and its tests, kept for next time.\n" * 25
        description = f"Build facts, note {index}"
    elif kind == 1:
        body = (_KOREAN * 3 + "\n") * 20
        description = (_KOREAN * 4)[:200]
    elif kind == 2:
        body = ("Deploy 🚀 notes ✅ " * 110 + "\n") * 2  # lines of ~2,000 characters
        description = "Deploy notes with emoji 🚀✅ " * 7
    else:
        body = (_ESCAPED * 8 + "\n") * 15
        description = _ESCAPED * 5
    return f"---\ndescription: {json.dumps(description[:200], ensure_ascii=False)}\n---\n\n{body}"


def _fill(home: Home) -> Path:
    for index in range(FILES):
        folder = "메모" if index % 4 == 1 else f"area{index % 25:02d}"
        target = home.global_root / folder / f"topic{index % 4}" / f"note{index:04d}.md"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(_text(index), encoding="utf-8")
    big = home.global_root / "big.md"
    line = (_KOREAN * 30)[:600] + "\n"
    text = line * (MAX_FILE_BYTES // len(line.encode()))
    big.write_text(text, encoding="utf-8")
    assert len(text.encode()) <= MAX_FILE_BYTES
    return big


def _walk(service: MemoryService, tool: str, arguments: dict[str, Any]) -> list[int]:
    """The framed size of every page of `tool`'s answer, following its cursors."""
    sizes = []
    while True:
        answer = service.call(tool, arguments, "bench")
        assert answer.error is None, answer.error
        sizes.append(framed_size(answer.text))
        if tool == "view":
            if "cursor " not in answer.text:
                return sizes
            cursor = answer.text.rsplit('cursor "', 1)[1].split('"', 1)[0]
            arguments = {"path": arguments["path"], "cursor": cursor}
            continue
        page = json.loads(answer.text)
        if "next" not in page:
            return sizes
        arguments = {"cursor": page["next"]} | (
            {"query": arguments["query"]} if "query" in arguments else {}
        )


def test_answer_sizes_on_a_1000_file_scope(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    _fill(home)
    calls: list[tuple[str, str, dict[str, Any]]] = [
        ("list", "`list` (limit 200)", {}),
        ("list", "`list` (limit 2000)", {"limit": 2000}),
        ("search", "`search` (limit 100)", {"query": "notes build 메모리는", "limit": 100}),
        ("view", "`view` of a 100 KiB file", {"path": "/memories/global/big.md"}),
    ]
    for budget in (DEFAULT_ANSWER_BUDGET, MAX_ANSWER_BUDGET):
        service = MemoryService(home, writes="off", other_agents=False, budget=budget)
        try:
            service.call("list", {"limit": 1}, "bench")  # list and index once, not timed
            for tool, label, arguments in calls:
                started = time.perf_counter()
                sizes = _walk(service, tool, dict(arguments))
                elapsed_ms = (time.perf_counter() - started) * 1000
                assert max(sizes) <= budget
                first = sizes[0] if budget == MAX_ANSWER_BUDGET else max(sizes)
                what = "first answer, unpaged" if budget == MAX_ANSWER_BUDGET else "largest page"
                record(
                    f"mcp-answer-{tool}-{label}-{budget}",
                    Row(
                        f"{label}, {FILES:,} files, budget {budget:,}: {what} "
                        f"({len(sizes)} pages to the end, {sum(sizes):,} bytes, "
                        f"{elapsed_ms:.0f} ms)",
                        f"{first:,} bytes framed",
                        "< 48,000 (Codex's cut; Claude Code's 50,000 chars, 25,000 tokens)",
                    ),
                )
        finally:
            service.catalog.close()
