"""Builders of mux transcripts and constants shared by the writer's tests."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

PROJECT = "/src/acme"
WORKSPACE_ID = "a1b2c3d4e5"
ANTHROPIC_KEY = "sk-ant-writer-SECRET-0123456789abcdefghij"
OPENAI_KEY = "sk-writer-SECRET-0123456789abcdefghijklmn"


def mux_message(
    message_id: str,
    role: str,
    text: str = "",
    *,
    sequence: int = 0,
    tools: Iterable[dict[str, Any]] = (),
    timestamp: int = 1_700_000_000_000,
) -> dict[str, Any]:
    """One mux chat.jsonl message."""
    parts: list[dict[str, Any]] = [*tools]
    if text:
        parts.append({"type": "text", "text": text})
    return {
        "id": message_id,
        "role": role,
        "metadata": {"timestamp": timestamp + sequence, "historySequence": sequence},
        "parts": parts,
        "workspaceId": WORKSPACE_ID,
    }


def bash_part(call_id: str, script: str, *, ok: bool, output: str) -> dict[str, Any]:
    """A mux `bash` tool part with its result."""
    result: dict[str, Any] = {"success": ok, "output": output, "exitCode": 0 if ok else 1}
    if not ok:
        result["error"] = "Command exited with code 1"
    return {
        "type": "dynamic-tool",
        "toolCallId": call_id,
        "toolName": "bash",
        "state": "output-available",
        "input": {"script": script},
        "output": result,
    }


def write_chat(path: Path, messages: Iterable[dict[str, Any]], *, append: bool = False) -> None:
    """Write (or append) mux messages as chat.jsonl lines."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a" if append else "w", encoding="utf-8") as handle:
        for message in messages:
            handle.write(json.dumps(message) + "\n")


def conversation(count: int = 2) -> list[dict[str, Any]]:
    """A user/assistant exchange of `count` turns."""
    messages: list[dict[str, Any]] = []
    for turn in range(count):
        messages.append(mux_message(f"u{turn}", "user", f"question {turn}", sequence=2 * turn))
        messages.append(
            mux_message(f"a{turn}", "assistant", f"answer {turn}", sequence=2 * turn + 1)
        )
    return messages
