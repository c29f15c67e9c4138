"""A reply whose text is a tool call: taken as the call when it parses and names a tool offered."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from memtab.fs.jsonfile import MAX_DEPTH, JsonError, nesting_exceeds, parse_json
from memtab.llm.types import ToolCall, ToolSpec
from memtab.llm.wire import synthesize_call_id
from memtab.llm.written.answers import FENCE
from memtab.llm.written.schema import schema_problem

_MAX_TEXT_CHARS = 1_000_000
_BARE_NAME = re.compile(r"`?([A-Za-z_][A-Za-z0-9_.-]*)(?:\(\))?`?\.?")
_TAGS = ("<tool_call>", "</tool_call>")
_LANGUAGE = re.compile(r"[A-Za-z0-9_-]*")
_ARGUMENT_KEYS = ("arguments", "parameters")


def calls_in_text(text: str, tools: Sequence[ToolSpec], salt: str = "") -> tuple[ToolCall, ...]:
    """The tool calls `text` is made of (see the module doc), or () when it is not only
    calls of offered tools. `salt` keeps the ids of identical calls in different replies
    apart (the reply's id)."""
    stripped = text.strip()
    if not stripped or not tools or len(stripped) > _MAX_TEXT_CHARS:
        return ()
    by_name = {tool.name: tool for tool in tools}
    bare = _BARE_NAME.fullmatch(stripped)
    if bare is not None:
        tool = by_name.get(bare.group(1))
        return (_call(tool, {}, "", 0, salt),) if tool is not None else ()
    wanted: list[tuple[str, Any]] = []
    for block in _blocks(stripped):
        found = _calls_of(block)
        if found is None:
            return ()
        wanted.extend(found)
    if not wanted or any(name not in by_name for name, _ in wanted):
        return ()
    return tuple(
        _call(by_name[name], arguments, _raw(arguments), index, salt)
        for index, (name, arguments) in enumerate(wanted)
    )


def _blocks(text: str) -> list[str]:
    """The pieces of `text` that may each hold calls: its fenced or tagged blocks when the
    text is nothing but those, else the whole text."""
    for opening, closing in ((FENCE, FENCE), _TAGS):
        blocks = _enclosed(text, opening, closing)
        if blocks:
            return blocks
    return [text]


def _enclosed(text: str, opening: str, closing: str) -> list[str] | None:
    """The insides of the `opening`…`closing` blocks `text` is made of (whitespace between
    them), a fence's language word left out; None when it is anything else. One pass:
    each block is searched for once from where the last one ended."""
    blocks: list[str] = []
    position = 0
    while True:
        while position < len(text) and text[position].isspace():
            position += 1
        if position == len(text):
            return blocks or None
        if not text.startswith(opening, position):
            return None
        start = position + len(opening)
        end = text.find(closing, start)
        if end < 0:
            return None
        inside = text[start:end]
        if opening == FENCE:
            first, newline, rest = inside.partition("\n")
            if newline and _LANGUAGE.fullmatch(first.strip()):
                inside = rest
        blocks.append(inside.strip())
        position = end + len(closing)


def _calls_of(block: str) -> list[tuple[str, Any]] | None:
    """The (name, arguments) of each call one block holds, or None when it is not calls:
    a call object, a list of them, or several objects one after another; doubled braces
    read as single ones when the block does not parse as it is."""
    for candidate in _undoubled(block):
        values = _json_values(candidate)
        if values is None:
            continue
        calls: list[tuple[str, Any]] = []
        for value in values:
            for item in value if isinstance(value, list) else [value]:
                call = _call_shape(item)
                if call is None:
                    return None
                calls.append(call)
        return calls or None
    return None


def _undoubled(block: str) -> list[str]:
    candidates = [block]
    if block.startswith("{{") and block.endswith("}}"):
        candidates.append(block[1:-1])
        candidates.append(block.replace("{{", "{").replace("}}", "}"))
    return candidates


def _json_values(text: str) -> list[Any] | None:
    """The JSON values `text` is made of, one after another, or None when it is not that."""
    decoder = json.JSONDecoder()
    values: list[Any] = []
    position = 0
    while position < len(text):
        if text[position].isspace():
            position += 1
            continue
        try:
            value, end = decoder.raw_decode(text, position)
        except (json.JSONDecodeError, RecursionError):
            return None
        values.append(value)
        position = end
    if not values or any(nesting_exceeds(value, MAX_DEPTH) for value in values):
        return None
    return values


def _call_shape(value: Any) -> tuple[str, Any] | None:
    """(name, arguments) of `{"name": …, "arguments": …}` (or `parameters`), nothing else."""
    if not isinstance(value, dict) or not isinstance(value.get("name"), str):
        return None
    argument_keys = [key for key in _ARGUMENT_KEYS if key in value]
    if set(value) - {"name", *argument_keys} or len(argument_keys) > 1:
        return None
    arguments = value[argument_keys[0]] if argument_keys else {}
    if isinstance(arguments, str):  # OpenAI's own form: the arguments as a JSON string
        try:
            arguments = parse_json(arguments) if arguments.strip() else {}
        except JsonError:
            return None
    return value["name"], arguments


def _call(tool: ToolSpec, arguments: Any, raw: str, index: int, salt: str) -> ToolCall:
    problem = schema_problem(arguments, tool.input_schema)
    return ToolCall(
        id=synthesize_call_id(index, tool.name, raw, f"text\0{salt}"),
        name=tool.name,
        arguments=arguments if problem is None else None,
        raw_arguments=raw,
        parse_error=problem,
    )


def _raw(arguments: Any) -> str:
    return json.dumps(arguments, ensure_ascii=False)
