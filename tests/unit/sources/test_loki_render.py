"""loki-mode's JSON rendered as text: every real file, and whatever else may be on disk."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memtab.sources.content import read_source_file
from memtab.sources.discovery import discover
from memtab.sources.listing import list_source
from memtab.sources.loki_render import render_loki
from memtab.store.files import MAX_FILE_BYTES
from support.agent_machine import Machine, real_files

REAL = {
    original.split(".loki/memory/", 1)[1]: path
    for original, path in real_files("loki-mode").items()
}


@pytest.mark.parametrize("relative", sorted(r for r in REAL if r.endswith(".json")))
def test_every_real_loki_json_file_renders(relative: str) -> None:
    text = render_loki(relative, REAL[relative].read_bytes())
    assert text.startswith("# ") and "Cannot render" not in text


def test_every_real_loki_file_reads_as_text(machine: Machine) -> None:
    source = next(s for s in discover(machine.context()).sources if s.agent == "loki")
    files = list_source(source).files
    assert len(files) == len(REAL)
    for file in files:
        content = read_source_file(source, file)
        assert content.text.strip() and "Cannot render" not in content.text
        assert content.rendered is file.relative.endswith(".json")


def test_an_episode_reads_as_goal_actions_outcome_errors() -> None:
    relative = "episodic/2026-03-21/task-ep-2026-03-21-2fef694f.json"
    text = render_loki(relative, REAL[relative].read_bytes())
    for heading in ("## Goal", "## Actions", "## Outcome", "## Errors"):
        assert heading in text
    assert ".loki/openspec-prd-normalized.md" in text
    assert "success · commit b504f89" in text


def test_an_episode_with_actions_and_errors() -> None:
    episode = {
        "id": "ep-1",
        "context": {"goal": "Implement POST /api/todos", "constraints": ["no deps"]},
        "action_log": [
            {"t": 0, "action": "read_file", "target": "openapi.yaml"},
            {"t": 120, "action": "run_test", "result": "fail", "error": "missing type"},
        ],
        "outcome": "success",
        "errors_encountered": [
            {"type": "TypeScript", "message": "Missing return type", "resolution": "Add :void"}
        ],
    }
    text = render_loki("episodic/2026-01-06/task-1.json", json.dumps(episode).encode())
    assert "- t=0 read_file openapi.yaml" in text
    assert "- t=120 run_test — fail: missing type" in text
    assert "- TypeScript: Missing return type → Add :void" in text
    assert "- no deps" in text


def test_a_pattern_reads_as_correct_vs_incorrect_approach() -> None:
    patterns = {
        "patterns": [
            {
                "id": "sem-001",
                "pattern": "Express handlers need return types",
                "correct_approach": "Add `: void`",
                "incorrect_approach": "Omitting the annotation",
                "confidence": 0.9500001,
                "usage_count": 1,
            },
            {"pattern": "Retry flaky fetches", "usage_count": 3},
        ]
    }
    text = render_loki("semantic/patterns.json", json.dumps(patterns).encode())
    assert "## Express handlers need return types (sem-001)" in text
    # Paragraphs apart: Markdown runs lines without a blank one between them together.
    assert (
        "Correct approach: Add `: void`\n\nIncorrect approach: Omitting the annotation\n"
    ) in text
    assert "confidence 0.95 · used 1 time\n" in text
    assert "used 3 times" in text
    anti = {
        "anti_patterns": [
            {"what_fails": "localStorage tokens", "why": "XSS", "prevention": "httpOnly cookie"}
        ]
    }
    text = render_loki("semantic/anti-patterns.json", json.dumps(anti).encode())
    assert "## localStorage tokens" in text
    assert "Why: XSS\n\nInstead: httpOnly cookie\n" in text


def test_a_handoff_lists_questions_decisions_and_blockers() -> None:
    text = render_loki(
        "handoffs/20260201-080000.json", REAL["handoffs/20260201-080000.json"].read_bytes()
    )
    assert "reason rate_limit" in text
    assert "- waiting on prod DB credentials" in text
    assert "Tasks: 7 pending, 8 completed, 2 in_progress" in text


def test_the_failures_log_reads_per_attempt_and_skips_broken_lines() -> None:
    lines = [
        '{"task_id":"fix-auth-test","attempt":1,"ts":"2026-01-29T14:30:00Z",'
        '"error":"Cannot find module","approach":"updated import path"}',
        "{broken",
        '{"task_id":"fix-auth-test","attempt":2,"error":"Cannot find module"}',
        "",
    ]
    text = render_loki("failures.jsonl", "\n".join(lines).encode())
    assert "# Failures (2)" in text
    assert "fix-auth-test · attempt 1: Cannot find module — tried: updated import path" in text
    assert "1 line(s) are not valid JSON" in text


@pytest.mark.parametrize(
    ("relative", "data"),
    [
        ("semantic/patterns.json", b"{not json"),
        ("semantic/patterns.json", b"\xff\xfe not utf-8"),
        ("episodic/x/task.json", b"[" * 300 + b"]" * 300),  # deeper than anyone writes
        ("handoffs/h.json", b""),
    ],
)
def test_malformed_or_absurdly_deep_json_is_said_in_one_line(relative: str, data: bytes) -> None:
    text = render_loki(relative, data)
    assert "Cannot render this file:" in text
    assert len(text.splitlines()[2]) < 200


@pytest.mark.parametrize(
    ("relative", "value"),
    [
        ("episodic/x/task.json", ["an", "episode", "as", "a", "list"]),
        ("episodic/x/task.json", {"context": "not an object", "action_log": 5, "outcome": None}),
        ("semantic/patterns.json", "patterns as a string"),
        ("semantic/patterns.json", {"patterns": [1, None, {"conditions": "one"}]}),
        ("semantic/anti-patterns.json", {"anti_patterns": [["nested"], {"why": {"a": 1}}]}),
        (
            "handoffs/h.json",
            {"task_status": [1, 2], "open_questions": "one", "context": {"k": [1]}},
        ),
        ("index.json", {"a": {"b": {"c": {"d": {"e": {"f": {"g": {"h": {"i": {"j": 1}}}}}}}}}}),
        ("learnings/x.json", 42),
    ],
)
def test_unexpected_shapes_render_without_error(relative: str, value: object) -> None:
    text = render_loki(relative, json.dumps(value).encode())
    assert text.startswith("# ")


def test_a_rendering_never_exceeds_the_cap() -> None:
    huge = {"patterns": [{"pattern": f"p{i}", "conditions": ["x" * 300] * 5} for i in range(400)]}
    text = render_loki("semantic/patterns.json", json.dumps(huge).encode())
    assert len(text) < MAX_FILE_BYTES + 100 and text.endswith("over the size cap)\n")


def test_a_failures_log_over_the_cap_shows_its_newest_entries(machine: Machine) -> None:
    log = machine.project / ".loki" / "memory" / "failures.jsonl"
    entry = '{{"task_id":"t{0}","attempt":1,"error":"boom {0}"}}\n'
    log.write_text("".join(entry.format(i) for i in range(4000)))
    assert log.stat().st_size > MAX_FILE_BYTES
    source = next(s for s in discover(machine.context()).sources if s.agent == "loki")
    file = next(f for f in list_source(source).files if f.relative == "failures.jsonl")
    content = read_source_file(source, file)
    assert content.rendered and content.over_cap
    assert "boom 3999" in content.text and "boom 0\n" not in content.text
    assert "Only the newest entries are shown" in content.text
    assert "not valid JSON" not in content.text  # the line cut by the cap is not "broken"


def test_a_json_file_over_the_cap_is_not_rendered(machine: Machine, tmp_path: Path) -> None:
    big = machine.project / ".loki" / "memory" / "semantic" / "facts.json"
    big.write_text(json.dumps({"facts": ["f" * 1000] * 200}))
    source = next(s for s in discover(machine.context()).sources if s.agent == "loki")
    file = next(f for f in list_source(source).files if f.relative == "semantic/facts.json")
    content = read_source_file(source, file)
    assert content.over_cap and "it is not rendered" in content.text
