"""A reply whose text is a tool call: taken as the call when it parses and names a tool offered;
and the JSON a model was asked to answer with, read from the text it wrote."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from memtab.fs.jsonfile import MAX_DEPTH, JsonError, nesting_exceeds, parse_json
from memtab.llm.types import ToolCall, ToolSpec
from memtab.llm.wire import synthesize_call_id

FENCE = "```"


def json_values_in(text: str) -> Iterator[Any]:
    """Each JSON value `text` holds, in the order a reader should try them."""
    stripped = text.strip()
    tries = [_unfenced(stripped)]
    start, end = stripped.find("{"), stripped.rfind("}")
    if 0 <= start < end:
        tries.append(stripped[start : end + 1])
    for attempt in tries:
        try:
            yield parse_json(attempt)
        except JsonError:
            continue


def _unfenced(text: str) -> str:
    """`text` without the Markdown code fence around it, if it has one."""
    if not (text.startswith(FENCE) and text.endswith(FENCE) and len(text) > 2 * len(FENCE)):
        return text
    first_line_end = text.find("\n")
    if first_line_end < 0:
        return text[len(FENCE) : -len(FENCE)]
    return text[first_line_end + 1 : -len(FENCE)]


_ANNOTATIONS = frozenset({"description", "title", "default", "examples", "$schema"})
_CHECKED = frozenset(
    {"type", "properties", "required", "additionalProperties", "enum", "const", "items"}
    | {"minimum", "maximum", "minLength", "maxLength", "maxItems"}
)
_TYPES: dict[str, tuple[type, ...]] = {
    "object": (dict,),
    "array": (list,),
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "null": (type(None),),
}


def schema_problem(value: Any, schema: Mapping[str, Any], where: str = "arguments") -> str | None:
    """Why `value` does not satisfy `schema` (one line naming where), or None when it does."""
    unknown = set(schema) - _CHECKED - _ANNOTATIONS
    if unknown:
        return f"the tool's schema uses {', '.join(sorted(unknown))}, which Memtab cannot check"
    problem = _type_problem(value, schema.get("type"), where)
    if problem is not None:
        return problem
    if "const" in schema and not _same(value, schema["const"]):
        return f"{where} must be {schema['const']!r}"
    if "enum" in schema and not any(_same(value, choice) for choice in schema["enum"]):
        choices = ", ".join(repr(choice) for choice in schema["enum"])
        return f"{where} must be one of {choices}"
    if isinstance(value, str):
        return _length_problem(value, schema, where)
    if isinstance(value, int | float) and not isinstance(value, bool):
        return _range_problem(value, schema, where)
    if isinstance(value, dict):
        return _object_problem(value, schema, where)
    if isinstance(value, list) and len(value) > schema.get("maxItems", len(value)):
        return f"{where} must hold at most {schema['maxItems']} items"
    if isinstance(value, list) and isinstance(schema.get("items"), Mapping):
        for index, item in enumerate(value):
            problem = schema_problem(item, schema["items"], f"{where}[{index}]")
            if problem is not None:
                return problem
    return None


def _type_problem(value: Any, declared: Any, where: str) -> str | None:
    if declared is None:
        return None
    names = [declared] if isinstance(declared, str) else list(declared)
    for name in names:
        kinds = _TYPES.get(name)
        if kinds is None:
            return f"the tool's schema names an unknown type {name!r}"
        if isinstance(value, bool) and name not in ("boolean",):
            continue
        if isinstance(value, kinds):
            return None
    return f"{where} must be {' or '.join(_article(name) for name in names)}"


def _object_problem(value: dict[str, Any], schema: Mapping[str, Any], where: str) -> str | None:
    properties = schema.get("properties") or {}
    missing = [name for name in schema.get("required") or () if name not in value]
    if missing:
        return f"{where} lack {', '.join(repr(name) for name in missing)}"
    extra = [name for name in value if name not in properties]
    if extra:
        names = ", ".join(repr(name) for name in extra)
        return f"{where} hold {names}, which the tool does not take"
    for name, item in value.items():
        problem = schema_problem(item, properties[name], f"{where}.{name}")
        if problem is not None:
            return problem
    return None


def _length_problem(value: str, schema: Mapping[str, Any], where: str) -> str | None:
    if "minLength" in schema and len(value) < schema["minLength"]:
        return f"{where} must hold at least {schema['minLength']} characters"
    if "maxLength" in schema and len(value) > schema["maxLength"]:
        return f"{where} must hold at most {schema['maxLength']} characters"
    return None


def _range_problem(value: float, schema: Mapping[str, Any], where: str) -> str | None:
    if "minimum" in schema and value < schema["minimum"]:
        return f"{where} must be at least {schema['minimum']}"
    if "maximum" in schema and value > schema["maximum"]:
        return f"{where} must be at most {schema['maximum']}"
    return None


def _same(value: Any, expected: Any) -> bool:
    """JSON equality: `true` is not `1`."""
    return (type(value) is type(expected) and value == expected) or (
        isinstance(value, int | float)
        and isinstance(expected, int | float)
        and not isinstance(value, bool)
        and not isinstance(expected, bool)
        and value == expected
    )


def _article(name: str) -> str:
    return {"integer": "an integer", "array": "an array", "object": "an object"}.get(
        name, f"a {name}" if name != "null" else "null"
    )


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
        candidates += [block[1:-1], block.replace("{{", "{").replace("}}", "}")]
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
