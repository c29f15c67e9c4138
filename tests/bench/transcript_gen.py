"""Generated transcripts for the benchmarks: mux `chat.jsonl` and Claude Code sessions.

Deterministic (seeded) and written line by line, so a 200 MB file never sits in memory.
Files go where the caller says (a pytest tmp dir), never into the repository.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

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


def mux_lines(rng: random.Random) -> Iterator[dict[str, Any]]:
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


def claude_lines(rng: random.Random) -> Iterator[dict[str, Any]]:
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


Lines = Callable[[random.Random], Iterator[dict[str, Any]]]


def huge_log(megabytes: float, seed: int = 11) -> str:
    """A build log of about `megabytes` MB, as a tool output that was not truncated."""
    rng = random.Random(seed)
    pool = [_prose(rng, rng.randint(4, 14)) for _ in range(997)]
    lines: list[str] = []
    size = 0
    while size < megabytes * 2**20:
        line = f"[{len(lines):07d}] {pool[len(lines) % len(pool)]}"
        lines.append(line)
        size += len(line) + 1
    return "\n".join(lines)


def _replace_tool_output(record: dict[str, Any], text: str) -> bool:
    """Put `text` in the first tool output of a mux message or Claude Code result line."""
    for part in record.get("parts", ()):
        if part.get("type") == "dynamic-tool" and isinstance(part.get("output"), dict):
            part["output"]["output"] = text
            return True
    content = record.get("message", {}).get("content")
    for block in content if isinstance(content, list) else ():
        if block.get("type") == "tool_result":
            block["content"] = text
            return True
    return False


def write_transcript(
    path: Path,
    lines: Lines,
    target_bytes: int,
    *,
    huge_at: tuple[float, ...] = (),
    huge_output: str = "",
) -> int:
    """Write records of `lines` (seeded) until the file holds `target_bytes`; returns its
    size. Once the file reaches each fraction of `huge_at`, the next tool output is
    replaced by `huge_output` (and lines go on after the last one)."""
    size = 0
    pending = sorted(huge_at)
    with path.open("w", encoding="utf-8") as handle:
        for record in lines(random.Random(7)):
            due = pending and size >= pending[0] * target_bytes
            if due and _replace_tool_output(record, huge_output):
                pending.pop(0)
            line = json.dumps(record, separators=(",", ":")) + "\n"
            handle.write(line)
            size += len(line.encode())
            if size >= target_bytes and not pending:
                return size
    return size
