"""Transcript events built directly, as the offline writer receives them (structured data)."""

from __future__ import annotations

from itertools import count
from typing import Any

from memtab.transcripts.events import TranscriptEvent, TranscriptToolCall

_ids = count()


def user(text: str, *, sidechain: bool = False) -> TranscriptEvent:
    return TranscriptEvent(
        id=f"u{next(_ids)}", role="user", source="claude", text=text, sidechain=sidechain
    )


def answer(text: str) -> TranscriptEvent:
    """The assistant's final answer of a turn."""
    return TranscriptEvent(
        id=f"a{next(_ids)}", role="assistant", source="claude", text=text, completed_turn=True
    )


def calls(*tool_calls: TranscriptToolCall, sidechain: bool = False) -> TranscriptEvent:
    return TranscriptEvent(
        id=f"a{next(_ids)}",
        role="assistant",
        source="claude",
        tool_calls=list(tool_calls),
        sidechain=sidechain,
    )


def shell(command: str, *, ok: bool = True, output: str = "ok") -> TranscriptToolCall:
    """A Bash call and its result (exit code 0, or 1 with `output` as the error)."""
    return TranscriptToolCall(
        id=f"c{next(_ids)}",
        name="Bash",
        input={"command": command},
        output=output,
        is_error=not ok,
        exit_code=0 if ok else 1,
    )


def tool(
    name: str, arguments: dict[str, Any] | str, *, output: str = "ok", ok: bool = True
) -> TranscriptToolCall:
    return TranscriptToolCall(
        id=f"c{next(_ids)}", name=name, input=arguments, output=output, is_error=not ok
    )


def bash(command: str, *, ok: bool = True, output: str = "ok") -> TranscriptEvent:
    """One assistant event running one shell command."""
    return calls(shell(command, ok=ok, output=output))
