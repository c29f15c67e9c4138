"""Benchmark: read a 20 MB transcript and select the writer's event budget (target < 2 s).

Run: .venv/bin/python -m pytest --bench tests/bench/test_transcript_bench.py -s
"""

from __future__ import annotations

import json
import random
import time
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from memtab.transcripts import TranscriptTail, read_transcript, select_event_budget

TARGET_BYTES = 20 * 1024 * 1024
_WORDS = [
    "the",
    "build",
    "failed",
    "because",
    "header",
    "was",
    "missing",
    "so",
    "I",
    "reran",
    "make",
    "with",
    "flag",
    "and",
    "tests",
    "passed",
    "after",
    "installing",
    "dependency",
    "please",
    "always",
    "use",
    "pnpm",
    "never",
    "npm",
]


def _prose(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(_WORDS) for _ in range(words))


def _log(rng: random.Random, lines: int) -> str:
    return "\n".join(f"[{i:05d}] {_prose(rng, rng.randint(4, 14))}" for i in range(lines))


def _mux_lines(rng: random.Random) -> Iterator[dict[str, Any]]:
    """mux chat.jsonl messages: prompts, then long agent turns with reasoning and bash."""
    sequence = 0
    while True:
        stamp = 1_760_000_000_000 + sequence * 1000
        yield {
            "id": f"user-{sequence}",
            "role": "user",
            "metadata": {"timestamp": stamp, "historySequence": sequence},
            "parts": [{"type": "text", "text": _prose(rng, rng.randint(5, 60)), "state": "done"}],
            "workspaceId": "bench",
        }
        sequence += 1
        parts: list[dict[str, Any]] = []
        for step in range(rng.randint(1, 8)):
            parts.extend(
                {"type": "reasoning", "text": rng.choice(_WORDS) + " "}
                for _ in range(rng.randint(20, 200))
            )
            failed = rng.random() < 0.15
            parts.append(
                {
                    "type": "dynamic-tool",
                    "toolCallId": f"call-{sequence}-{step}",
                    "toolName": "bash",
                    "state": "output-available",
                    "input": {"script": f"make test-{step}", "timeout_secs": 120},
                    "output": {
                        "success": not failed,
                        "output": _log(rng, rng.choice((2, 10, 40, 200))),
                        "exitCode": 1 if failed else 0,
                        **({"error": "Command exited with code 1"} if failed else {}),
                        "wall_duration_ms": rng.randint(5, 5000),
                    },
                }
            )
        parts.append({"type": "text", "text": _prose(rng, rng.randint(20, 300))})
        yield {
            "id": f"assistant-{sequence}",
            "role": "assistant",
            "metadata": {"timestamp": stamp + 500, "historySequence": sequence, "model": "m"},
            "parts": parts,
            "workspaceId": "bench",
        }
        sequence += 1


def _claude_lines(rng: random.Random) -> Iterator[dict[str, Any]]:
    """Claude Code lines: one per content block, tool results in user lines."""
    turn = 0
    base = {"sessionId": "bench", "cwd": "/repo", "version": "2.0.0", "isSidechain": False}
    while True:
        yield {
            **base,
            "type": "user",
            "uuid": f"u-{turn}",
            "timestamp": "2026-01-01T00:00:00.000Z",
            "message": {"role": "user", "content": _prose(rng, rng.randint(5, 60))},
        }
        for step in range(rng.randint(1, 8)):
            message_id = f"msg-{turn}-{step}"
            for kind in ("thinking", "text", "tool_use"):
                block: dict[str, Any] = {"type": kind}
                if kind == "thinking":
                    block["thinking"] = _prose(rng, 80)
                elif kind == "text":
                    block["text"] = _prose(rng, rng.randint(5, 80))
                else:
                    block.update(
                        id=f"toolu-{turn}-{step}", name="Bash", input={"command": "make test"}
                    )
                yield {
                    **base,
                    "type": "assistant",
                    "uuid": f"a-{turn}-{step}-{kind}",
                    "timestamp": "2026-01-01T00:00:01.000Z",
                    "message": {
                        "id": message_id,
                        "role": "assistant",
                        "content": [block],
                        "stop_reason": None,
                    },
                }
            failed = rng.random() < 0.15
            yield {
                **base,
                "type": "user",
                "uuid": f"r-{turn}-{step}",
                "timestamp": "2026-01-01T00:00:02.000Z",
                "message": {
                    "role": "user",
                    "content": [
                        {
                            "type": "tool_result",
                            "tool_use_id": f"toolu-{turn}-{step}",
                            "content": ("Exit code 1\n" if failed else "")
                            + _log(rng, rng.choice((2, 10, 40, 200))),
                            "is_error": failed,
                        }
                    ],
                },
            }
        turn += 1


def _write(path: Path, lines: Callable[[random.Random], Iterator[dict[str, Any]]]) -> None:
    size = 0
    with path.open("w", encoding="utf-8") as handle:
        for record in lines(random.Random(7)):
            line = json.dumps(record, separators=(",", ":")) + "\n"
            handle.write(line)
            size += len(line.encode())
            if size >= TARGET_BYTES:
                break


def _measure(path: Path) -> None:
    started = time.perf_counter()
    transcript = read_transcript(path)
    parsed = time.perf_counter()
    budget = select_event_budget(transcript.events, 80_000, redact=True)
    selected = time.perf_counter()

    tracemalloc.start()
    select_event_budget(read_transcript(path).events, 80_000)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()

    tail = TranscriptTail(path)
    tail_started = time.perf_counter()
    tail.read_new()
    tail_first = time.perf_counter() - tail_started
    with path.open("a", encoding="utf-8") as handle:
        handle.write(path.read_text(encoding="utf-8").splitlines()[0].replace('"u', '"v', 1) + "\n")
    tail_started = time.perf_counter()
    tail.read_new()
    tail_next = time.perf_counter() - tail_started

    calls = sum(len(event.tool_calls) for event in transcript.events)
    size_mb = path.stat().st_size / 2**20
    report = [
        f"{transcript.format}: {size_mb:.1f} MB, {len(transcript.events)} events, {calls} calls",
        f"  read_transcript       {parsed - started:6.3f} s",
        f"  select_event_budget   {selected - parsed:6.3f} s  (redacted; kept "
        f"{budget.trimmed_count}, {budget.json_chars} chars, clamped={budget.clamped})",
        f"  total                 {selected - started:6.3f} s  (target < 2 s)",
        f"  peak traced memory    {peak / 2**20:6.1f} MB",
        f"  tail: first read_new  {tail_first:6.3f} s; one appended line {tail_next * 1000:.2f} ms",
    ]
    print("\n" + "\n".join(report))
    assert transcript.skipped_lines == 0 and budget.json_chars <= 80_000


@pytest.mark.bench
def test_bench_mux_chat_jsonl_20mb(tmp_path: Path) -> None:
    path = tmp_path / "chat.jsonl"
    _write(path, _mux_lines)
    _measure(path)


@pytest.mark.bench
def test_bench_claude_session_20mb(tmp_path: Path) -> None:
    path = tmp_path / "session.jsonl"
    _write(path, _claude_lines)
    _measure(path)
