"""Words and JSON for what a dump holds, shared by the reader, the CLI and the Traces tab."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

ERROR_LINE_MAX_CHARS: Final = 300
TOO_DEEP_TO_SHOW: Final = "(nested too deeply to show)"


def compact_json(value: Any) -> str:
    """One-line JSON, non-ASCII kept (unknown objects as their str)."""
    try:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)
    except RecursionError:
        return TOO_DEEP_TO_SHOW


def format_json(value: Any) -> str:
    """Indented JSON for reading; strings are shown as they are, not quoted."""
    if isinstance(value, str):
        return value
    try:
        return json.dumps(value, ensure_ascii=False, indent=2, default=str)
    except RecursionError:  # the indenting encoder is pure Python and recurses per level
        return compact_json(value)


def first_line(text: str, max_chars: int = ERROR_LINE_MAX_CHARS) -> str:
    """The first non-blank line of `text`, stripped, cut to `max_chars` with `…`."""
    line = next((line.strip() for line in text.splitlines() if line.strip()), "")
    return line if len(line) <= max_chars else line[: max_chars - 1] + "…"


def error_text(value: Any) -> str | None:
    """An `error` field as text: strings as they are, `{message}` objects by their message."""
    if value is None or value is False:
        return None
    if isinstance(value, str):
        return value.strip() or None
    if isinstance(value, dict):
        message = value.get("message", value.get("error"))
        if isinstance(message, str) and message.strip():
            return message.strip()
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return ": ".join(value) or None
    return compact_json(value)


def reported_failure(output: Any) -> str | None:
    """A tool result of the form `{success: false, error?}` → its message; else None."""
    if isinstance(output, dict) and output.get("success") is False:
        return error_text(output.get("error")) or "success: false"
    return None


def content_text(content: Any) -> str:
    """Content as text: strings as they are, text parts joined, anything else as JSON."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(
            part["text"]
            if isinstance(part, dict) and isinstance(part.get("text"), str)
            else part
            if isinstance(part, str)
            else compact_json(part)
            for part in content
        )
    return compact_json(content)


def message_text(message: Mapping[str, Any]) -> str:
    """A message's text, then its tool calls (`→`) and tool results (`←`), one per line. Covers
    mux's `{role, content}` (content a string or parts), Memtab's `{role, text, toolCalls}` /
    `{role: "tool", results}`, and shows anything else as JSON."""
    lines: list[str] = []
    key = next((key for key in ("content", "parts", "text") if message.get(key) is not None), None)
    if key is not None and (text := content_text(message[key])):
        lines.append(text)
    calls = message.get("toolCalls")
    for call in calls if isinstance(calls, list) else ():
        if isinstance(call, dict):
            name = call.get("name", call.get("toolName", "?"))
            arguments = call.get("arguments", call.get("input"))
            lines.append(f"→ {name} {compact_json(arguments)}")
    results = message.get("results")
    for result in results if isinstance(results, list) else ():
        if isinstance(result, dict):
            mark = "← error: " if result.get("isError") else "← "
            lines.append(mark + content_text(result.get("content")))
    if not lines:
        rest = {key: value for key, value in message.items() if key != "role"}
        return compact_json(rest) if rest else ""
    return "\n".join(lines)


def describe_value(value: Any) -> str:
    """A value's kind in a few words (`the text "…"`, `a list of 3`), for problem notes."""
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:39] + "…"
        return f"the text {json.dumps(shown, ensure_ascii=False)}"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return f"the number {value}"
    if isinstance(value, list):
        return f"a list of {len(value)}"
    if isinstance(value, dict):
        return "an object"
    return "null"


@dataclass(frozen=True)
class EventView:
    """A transcript event of a dump, as one line of a list."""

    role: str
    text: str
    sequence: int | None = None
    tool_names: tuple[str, ...] = ()
    failed_tools: int = 0


def describe_event(event: Any) -> EventView:
    """Read one `events[]` entry loosely: Memtab's normalized events, mux messages, or else."""
    if not isinstance(event, dict):
        return EventView("?", content_text(event))
    role = event.get("role")
    metadata = event.get("metadata")
    sequence = event.get("historySequence")
    if sequence is None and isinstance(metadata, dict):
        sequence = metadata.get("historySequence")
    calls: list[Any] = []
    texts: list[str] = []
    if isinstance(event.get("text"), str):
        texts.append(event["text"])
    if isinstance(event.get("toolCalls"), list):
        calls.extend(event["toolCalls"])
    parts = event.get("parts")
    if isinstance(parts, list):  # a mux chat.jsonl message
        for part in parts:
            if not isinstance(part, dict):
                continue
            if part.get("type") == "text" and isinstance(part.get("text"), str):
                texts.append(part["text"])
            elif "toolName" in part:
                calls.append(part)
    names = tuple(str(call.get("toolName", "?")) for call in calls if isinstance(call, dict))
    failed = sum(1 for call in calls if isinstance(call, dict) and _call_failed(call))
    return EventView(
        role=role if isinstance(role, str) and role else "?",
        text="\n".join(texts),
        sequence=sequence if isinstance(sequence, int) and not isinstance(sequence, bool) else None,
        tool_names=names,
        failed_tools=failed,
    )


def _call_failed(call: Mapping[str, Any]) -> bool:
    return (
        bool(call.get("isError"))
        or bool(call.get("error"))
        or (reported_failure(call.get("output")) is not None)
    )


def describe_step(step: Any) -> str:
    """One line for a step result of any shape: finish reason, tool calls, tokens, text."""
    if not isinstance(step, dict):
        return first_line(content_text(step)) or "(empty)"
    pieces: list[str] = []
    finish = step.get("finishReason", step.get("stopReason"))
    if isinstance(finish, str) and finish:
        pieces.append(finish)
    calls = step.get("toolCalls")
    if isinstance(calls, list) and calls:
        names = [str(c.get("toolName", c.get("name", "?"))) for c in calls if isinstance(c, dict)]
        pieces.append(f"tools: {', '.join(names)}" if names else f"{len(calls)} tool calls")
    usage = step.get("usage")
    if isinstance(usage, dict):
        tokens_in = usage.get("inputTokens", usage.get("input_tokens"))
        tokens_out = usage.get("outputTokens", usage.get("output_tokens"))
        if isinstance(tokens_in, int) and isinstance(tokens_out, int):
            pieces.append(f"{tokens_in:,} → {tokens_out:,} tokens")
    text = step.get("text")
    if isinstance(text, str) and text.strip():
        pieces.append(f"“{first_line(text)[:80]}”")
    if not pieces:
        return first_line(compact_json(step))[:120]
    return " · ".join(pieces)
