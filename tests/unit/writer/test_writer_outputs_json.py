"""`memtab write --json` and `memtab inbox --json`: the outputs' JSON, key by key and in
order (a stable contract: fields are added, never renamed or removed)."""

from __future__ import annotations

import json
from pathlib import Path

from memtab.llm.types import Usage
from memtab.writer.inbox.inbox import Evidence, InboxItem
from memtab.writer.job.result import WriterRunResult


def test_a_writer_run_result_keeps_its_keys_in_order() -> None:
    result = WriterRunResult(
        workspace_id="ws1",
        workspace_name="main",
        outcome="wrote",
        memory_path="/memories/workspace/notes.md",
        trigger_message_id="m1",
        run_started_at=5,
        model_string="openai:gpt",
        before="a\n",
        after="a\nb\n",
        timed_out=True,
        error="e",
        trace_path=Path("/tmp/trace.json"),
        attempts=2,
        duration_ms=30,
        usage=Usage(input_tokens=7, output_tokens=8),
        run_id="run-1",
        suggested_count=3,
        left_out_count=4,
        refused=(("- Always run it", "why"),),
    )
    assert json.dumps(result.to_json()) == (
        '{"workspaceId": "ws1", "workspaceName": "main", "outcome": "wrote", "ok": true, '
        '"memoryPath": "/memories/workspace/notes.md", "triggerMessageId": "m1", '
        '"runStartedAt": 5, "modelString": "openai:gpt", "timedOut": true, "error": "e", '
        '"tracePath": "/tmp/trace.json", "attempts": 2, "durationMs": 30, '
        '"usage": {"inputTokens": 7, "outputTokens": 8}, "diff": ["@@ -1 +1,2 @@", " a", "+b"], '
        '"summary": "Updated /memories/workspace/notes.md (+1 \\u22120 lines) '
        '(4 less sure left out); 1 line refused: \\u201c- Always run it\\u201d (why)", '
        '"runId": "run-1", "leftOut": 4, "refused": [{"line": "- Always run it", "why": "why"}]}'
    )
    failed = WriterRunResult(
        workspace_id="ws1",
        workspace_name="main",
        outcome="failed",
        memory_path="/m.md",
        trigger_message_id="m1",
        run_started_at=5,
        model_string="x",
        before="",
        after="",
    ).to_json()
    assert failed["ok"] is False and failed["tracePath"] is None and failed["diff"] == []
    assert failed["usage"] == {"inputTokens": 0, "outputTokens": 0}
    assert failed["summary"] == "Memory writer failed: unknown error"
    assert "suggested" not in failed  # `memtab write --json` adds the suggestions, last
    listed = result.replaced(suggested=(Evidence(id="e1"),)).to_json()
    assert list(listed)[-3:] == ["leftOut", "refused", "suggested"]
    assert listed["suggested"] == [{"id": "e1", "role": None, "text": None}]


def test_an_inbox_item_keeps_its_keys_in_order() -> None:
    item = InboxItem(
        id="h1",
        kind="harvest",
        workspace_id="ws1",
        text="Use uv",
        section="Preferences",
        memory_path="/memories/global/notes.md",
        source="/memories/workspace/harvest/s1.md",
        category="preference",
        evidence=(Evidence(id="e1", role="user", text="use uv"), Evidence(id="e2")),
        confidence=0.5,
        rationale="said twice",
        created_at=9,
        target_reason="a preference",
    )
    assert json.dumps(item.to_json()) == (
        '{"id": "h1", "kind": "harvest", "workspaceId": "ws1", "text": "Use uv", '
        '"section": "Preferences", "memoryPath": "/memories/global/notes.md", '
        '"source": "/memories/workspace/harvest/s1.md", "category": "preference", '
        '"evidence": [{"id": "e1", "role": "user", "text": "use uv"}, '
        '{"id": "e2", "role": null, "text": null}], "confidence": 0.5, '
        '"rationale": "said twice", "createdAt": 9, "targetReason": "a preference", '
        '"retargetable": true, "sourceName": "mux harvest"}'
    )
    agent = InboxItem(
        id="a1",
        kind="agent",
        workspace_id=None,
        text="t",
        section="",
        memory_path="/m.md",
        source="mcp:x",
    )
    assert agent.to_json()["retargetable"] is False and agent.to_json()["evidence"] == []
    assert "problem" not in agent.to_json()  # written only when there is one


def test_an_invalid_gemini_patch_says_why_after_the_target_reason() -> None:
    patch = InboxItem(
        id="g1",
        kind="gemini",
        workspace_id=None,
        text="--- /m/x.md\n",
        section="",
        memory_path="",
        source="/m/.inbox/private/extraction.patch",
        category="private",
        problem="no hunks found in patch",
    )
    written = patch.to_json()
    assert list(written)[-4:] == ["targetReason", "problem", "retargetable", "sourceName"]
    assert (written["problem"], written["retargetable"]) == ("no hunks found in patch", False)
    assert written["sourceName"] == "Gemini CLI auto memory"
