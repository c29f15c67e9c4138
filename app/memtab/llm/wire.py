"""Small helpers both wire formats share: tool-argument parsing, stable call ids, loose numbers, the
message inside an error body. Model servers differ in how strictly they follow their own format
(local servers send `content: null`, omit ids, send arguments as a dict or an empty string)."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from memtab.fs.jsonfile import MAX_DEPTH, JsonError, nesting_exceeds, parse_json
from memtab.llm.types import ToolCall

_SNIPPET_CHARS = 200
_TOO_DEEP = f"arguments are nested more than {MAX_DEPTH} levels deep"


def parse_tool_arguments(raw: object) -> tuple[dict[str, Any] | None, str, str | None]:
    """Read a tool call's arguments as sent by the model."""
    if isinstance(raw, dict):
        if nesting_exceeds(raw, MAX_DEPTH):
            return None, "", _TOO_DEEP
        return raw, json.dumps(raw, ensure_ascii=False), None
    if raw is None:
        return {}, "", None
    if not isinstance(raw, str):
        if isinstance(raw, list) and nesting_exceeds(raw, MAX_DEPTH):
            return None, "", _TOO_DEEP
        text = json.dumps(raw, ensure_ascii=False)
        return None, text, f"arguments must be a JSON object, got {type(raw).__name__}"
    if not raw.strip():
        return {}, raw, None
    try:
        value = parse_json(raw, nan_as_null=True)
    except JsonError as exc:
        return None, raw, f"arguments are {exc}"
    if not isinstance(value, dict):
        kind = "array" if isinstance(value, list) else type(value).__name__
        return None, raw, f"arguments must be a JSON object, got {kind}"
    return value, raw, None


def make_tool_call(
    call_id: object, name: object, raw_arguments: object, index: int, salt: str = ""
) -> ToolCall:
    """A ToolCall from loosely-typed wire fields; a missing id gets a stable synthetic one. `salt`
    (the reply's id, when the server sends one) keeps synthetic ids of identical calls in different
    replies apart."""
    arguments, raw_text, parse_error = parse_tool_arguments(raw_arguments)
    tool_name = name if isinstance(name, str) else ""
    if not isinstance(call_id, str) or not call_id:
        call_id = synthesize_call_id(index, tool_name, raw_text, salt)
    return ToolCall(
        id=call_id,
        name=tool_name,
        arguments=arguments,
        raw_arguments=raw_text,
        parse_error=parse_error,
    )


def synthesize_call_id(index: int, name: str, raw_arguments: str, salt: str = "") -> str:
    """A deterministic id for a tool call the server sent without one."""
    digest = hashlib.sha256(f"{salt}\0{index}\0{name}\0{raw_arguments}".encode()).hexdigest()
    return f"call_{index}_{digest[:16]}"


def as_token_count(value: object) -> int:
    """A usage counter as a non-negative int; anything else (absent, null, text) is 0."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return 0
    return max(int(value), 0)


def as_text(value: object) -> str:
    """A wire field as a string; anything that is not a string is ''."""
    return value if isinstance(value, str) else ""


def snippet(text: str) -> str:
    """The start of a long text, on one line, for error messages."""
    flat = " ".join(text.split())
    return flat if len(flat) <= _SNIPPET_CHARS else flat[:_SNIPPET_CHARS] + "…"


def server_error_text(data: object) -> str | None:
    """The human message inside an error body (Anthropic, OpenAI, Ollama, FastAPI shapes)."""
    if not isinstance(data, dict):
        return None
    error = data.get("error")
    if isinstance(error, dict) and isinstance(error.get("message"), str):
        return str(error["message"])
    if isinstance(error, str):
        return error
    for key in ("message", "detail"):
        value = data.get(key)
        if isinstance(value, str):
            return value
        if isinstance(value, list | dict):
            return json.dumps(value, ensure_ascii=False)
    return None
