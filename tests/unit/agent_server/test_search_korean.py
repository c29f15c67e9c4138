"""The MCP server's `search` finds a Korean user's memory by its words (docs/formats.md
§22.3): the real Claude Code auto memory in tests/fixtures/shared, where 검증 ("verify")
stands as 재검증 and 검증할 and 동기화 ("sync") in the config-sync note's name."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memtab.agent_server.service import MemoryService
from memtab.fs import memo
from support.agent_machine import notes_home


def test_the_server_finds_the_korean_notes_by_their_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(memo, "RACY_MARGIN_NS", 0)  # files written just now
    service = MemoryService(
        notes_home(tmp_path / "home", "claude-code-auto-memory"),
        None,
        writes="off",
        other_agents=False,
    )
    try:
        for query, note in (
            ("검증", "/memories/global/feedback_verify-before-asserting.md"),
            ("동기화", "/memories/global/project_config-sync.md"),
        ):
            answer = service.call("search", {"query": query, "limit": 10}, "test")
            assert answer.error is None, answer.error
            results = json.loads(answer.text)["results"]
            assert note in [hit["path"] for hit in results], query
            assert results[0]["path"] == note  # named and described by it
    finally:
        service.catalog.close()
