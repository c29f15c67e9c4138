"""The memory tool's argument models: the schema they generate and the errors models see."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memtab.store.errors import ToolArgumentError
from memtab.store.scopes.tool import MemoryTool, parse_tool_request
from memtab.store.scopes.tool_args import COMMANDS, input_schema
from support.memory_paths import vpath

from .helpers import TOOL_PROPERTIES, G, err, ok

_PROPERTIES = frozenset(TOOL_PROPERTIES)
_COMBINATORS = ("oneOf", "anyOf", "allOf", "not", "$ref", "$defs", "definitions")


def _walk(schema: Any) -> list[dict[str, Any]]:
    if isinstance(schema, dict):
        return [schema, *(node for value in schema.values() for node in _walk(value))]
    if isinstance(schema, list):
        return [node for value in schema for node in _walk(value)]
    return []


def test_the_schema_is_one_flat_object_with_a_command_enum() -> None:
    schema = input_schema()
    # Anthropic refuses oneOf/anyOf/allOf at the top of input_schema, and several
    # OpenAI-compatible servers (llama.cpp, vLLM's guided decoding) choke on them anywhere.
    assert schema["type"] == "object" and schema["required"] == ["command"]
    assert not [key for node in _walk(schema) for key in node if key in _COMBINATORS]
    assert set(schema["properties"]) == _PROPERTIES
    assert schema["properties"]["command"] == {
        "type": "string",
        "enum": list(COMMANDS),
        "description": "The memory operation to perform.",
    }
    for name, prop in schema["properties"].items():
        assert prop["type"] in ("string", "integer"), name
        assert "title" not in prop and prop.get("description"), name
    assert schema["properties"]["insert_line"]["minimum"] == 0
    assert schema["properties"]["offset"]["minimum"] == 1


def test_callers_cannot_change_the_schema_for_others() -> None:
    input_schema()["properties"]["path"]["type"] = "number"
    assert input_schema()["properties"]["path"]["type"] == "string"


def _schema_accepts(call: dict[str, Any]) -> bool:
    """A small validator for the keywords the schema uses (type, enum, minimum, minLength)."""
    properties = input_schema()["properties"]
    if "command" not in call:
        return False
    for name, value in call.items():
        prop = properties.get(name)
        if prop is None:
            continue
        if prop["type"] == "string":
            if not isinstance(value, str) or len(value) < prop.get("minLength", 0):
                return False
            if "enum" in prop and value not in prop["enum"]:
                return False
        elif isinstance(value, bool) or not isinstance(value, int):
            return False
        if isinstance(value, int) and value < prop.get("minimum", value):
            return False
    return True


_VALUES = st.none() | st.booleans() | st.integers(-3, 3) | st.floats() | st.text(max_size=4)


@given(
    command=st.sampled_from(COMMANDS),
    args=st.dictionaries(st.sampled_from(sorted(_PROPERTIES - {"command"})), _VALUES),
)
def test_every_call_accepted_is_allowed_by_the_schema(command: str, args: dict[str, Any]) -> None:
    call = {key: value for key, value in args.items() if value is not None}
    call["command"] = command
    try:
        request = parse_tool_request(call)
    except ToolArgumentError:
        return
    # The flat schema types every property; a command ignores those it does not take.
    taken = {declared.key for declared in type(request.args).fields()}
    used = {key: value for key, value in call.items() if key in taken}
    assert _schema_accepts(used), call


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        ({"command": "view"}, "`path` is required and must be a string"),
        ({"command": "view", "path": G, "offset": "2"}, "`offset` must be an integer ≥ 1"),
        ({"command": "view", "path": G, "limit": 1.5}, "`limit` must be an integer ≥ 1"),
        ({"command": "create", "path": G + "/a.md", "content": 5}, "`file_text` must be a string"),
        (
            {"command": "str_replace", "path": G + "/a.md", "old_string": ""},
            "`old_str` must not be empty",
        ),
        (
            {"command": "insert", "path": G + "/a.md", "insert_text": "x"},
            "`insert_line` is required (0 inserts at the top)",
        ),
        (
            {"command": "insert", "path": G + "/a.md", "insert_line": True, "insert_text": "x"},
            "`insert_line` must be an integer ≥ 0",
        ),
        # Every bad argument is named at once, in one line.
        (
            {"command": "rename"},
            "`old_path` is required and must be a string; "
            "`new_path` is required and must be a string",
        ),
        (
            {"command": "Delete", "path": G},
            "Unknown command 'Delete'; expected one of: view, "
            "create, str_replace, insert, delete, rename",
        ),
        (
            {"command": {"view": 1}},
            "Unknown command {'view': 1}; expected one of: view, create, "
            "str_replace, insert, delete, rename",
        ),
    ],
)
def test_refusals_are_one_line_in_the_tool_s_words(call: dict[str, Any], expected: str) -> None:
    with pytest.raises(ToolArgumentError) as caught:
        parse_tool_request(call)
    assert str(caught.value) == expected


def test_null_counts_as_absent_as_in_mux_s_schema(tool: MemoryTool) -> None:
    ok(tool.execute({"command": "create", "path": f"{G}/a.md", "file_text": None}))
    assert tool.store.read(vpath(f"{G}/a.md")).content == ""
    ok(
        tool.execute(
            {"command": "create", "path": None, "file_path": f"{G}/b.md", "content": "b c"}
        )
    )
    ok(
        tool.execute(
            {"command": "str_replace", "path": f"{G}/b.md", "old_str": " c", "new_str": None}
        )
    )
    assert tool.store.read(vpath(f"{G}/b.md")).content == "b"
    assert ok(tool.execute({"command": "view", "path": f"{G}/b.md", "offset": None})) == "1\tb"
    assert "`path` is required" in err(tool.execute({"command": "delete", "path": None}))


def test_unknown_keys_are_ignored(tool: MemoryTool) -> None:
    ok(tool.execute({"command": "create", "path": f"{G}/a.md", "file_text": "x", "mode": 7}))


def test_arguments_are_checked_before_the_store_is_touched(tool: MemoryTool) -> None:
    # A bad offset is reported even where the file is missing: nothing is read first.
    assert err(tool.execute({"command": "view", "path": f"{G}/nope.md", "offset": 0})) == (
        "`offset` must be an integer ≥ 1"
    )
