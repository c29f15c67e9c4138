"""What `memtab mcp`'s `list` and `search` answer, key by key and in order (docs/formats.md
§22.2: the rows are `memtab list --json`'s), written as the records `FilePage` and
`SearchResults`; pinned while they were dicts built by hand."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from memtab.agent_server.service import MemoryService
from memtab.demo import MAIN_ID
from memtab.store.sidecars.registry import load_registry
from support.demo_homes import copied_demo_home

FILE_ROW = [
    "path", "scope", "description", "pinned", "accessCount", "lastAccessedAt", "sizeBytes",
    "modifiedAt", "conflictOf", "notEditable", "adoptedFrom",
]  # fmt: skip
SOURCE_ROW_MORE = ["kind", "writable", "readOnlyReason", "type", "warning", "physicalPath"]


def _answer(service: MemoryService, tool: str, arguments: dict[str, Any]) -> Any:
    answer = service.call(tool, arguments, "test")
    assert answer.error is None
    found = json.loads(answer.text)
    assert answer.text == json.dumps(found, ensure_ascii=False, indent=1)
    return found


def test_list_and_search_answer_their_keys_in_order(tmp_path: Path) -> None:
    home = copied_demo_home(tmp_path / "demo")
    service = MemoryService(home, load_registry(home).workspace(MAIN_ID), writes="off")
    try:
        assert _answer(service, "list", {"offset": 1, "limit": 2})["offset"] == 1
        page = _answer(service, "list", {"limit": 10})
        assert list(page) == ["files", "total", "offset", "next", "more", "session"]
        assert page["offset"] == 0
        assert list(page["session"]) == [
            "scopes", "directories", "decidedBy", "project", "workspace", "words"
        ]  # fmt: skip
        last = _answer(service, "list", {"offset": page["total"] - 2})
        assert list(last) == ["files", "total", "offset", "session"]  # nothing more to get
        rows = {
            row["path"]: list(row)
            for scope in ("global", "claude-code:user")
            for row in _answer(service, "list", {"scope": scope})["files"]
        }
        assert rows["/memories/global/environment.md"] == FILE_ROW
        assert rows["claude-code:user:CLAUDE.md"] == FILE_ROW + SOURCE_ROW_MORE
        found = _answer(service, "search", {"query": "pnpm npm"})
        assert list(found) == ["results"]
        assert list(found["results"][0]) == [
            "path", "scope", "description", "score", "line", "snippet"
        ]  # fmt: skip
    finally:
        service.catalog.close()
