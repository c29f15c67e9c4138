"""A tool call a model wrote as text is taken when it parses and checks against the tool's
schema exactly; anything else stays text. The shapes are those Qwen2.5-Coder 0.5B and
1.5B wrote on llama.cpp's server (docs/formats.md §10.2)."""

from __future__ import annotations

import pytest

from memtab.llm.types import ToolSpec
from memtab.llm.written.calls import calls_in_text, schema_problem

WRITE = ToolSpec(
    "memory_write",
    "Write.",
    {
        "type": "object",
        "properties": {
            "old_string": {"type": "string"},
            "new_string": {"type": "string"},
            "replace_count": {"type": "integer"},
        },
        "required": ["old_string", "new_string"],
        "additionalProperties": False,
    },
)
NOTHING = ToolSpec(
    "no_new_memories",
    "Nothing new.",
    {"type": "object", "properties": {}, "additionalProperties": False},
)
TOOLS = [WRITE, NOTHING]
ARGS = '{"old_string": "", "new_string": "- Tests: `bun test`"}'


@pytest.mark.parametrize(
    "text",
    [
        '```json\n{"name": "memory_write", "arguments": ' + ARGS + "}\n```",
        '{"name": "memory_write", "arguments": ' + ARGS + "}",
        '  \n{"name": "memory_write", "parameters": ' + ARGS + "}\n",
        '{{"name": "memory_write", "arguments": ' + ARGS + "}}",
        '{{"name": "memory_write", "arguments": {{"old_string": "", '
        '"new_string": "- Tests: `bun test`"}}}}',
        '<tool_call>\n{"name": "memory_write", "arguments": ' + ARGS + "}\n</tool_call>",
        '```\n{"name": "memory_write", "arguments": '
        + ARGS.replace('"', '\\"').join('""')
        + "}\n```",
        '[{"name": "memory_write", "arguments": ' + ARGS + "}]",
    ],
)
def test_a_written_call_is_taken(text: str) -> None:
    [call] = calls_in_text(text, TOOLS)
    assert call.name == "memory_write" and call.parse_error is None
    assert call.arguments == {"old_string": "", "new_string": "- Tests: `bun test`"}
    assert call.id.startswith("call_0_")


@pytest.mark.parametrize("text", ["no_new_memories", "`no_new_memories`", " no_new_memories()\n"])
def test_a_bare_tool_name_is_its_call_without_arguments(text: str) -> None:
    [call] = calls_in_text(text, TOOLS)
    assert (call.name, call.arguments, call.parse_error) == ("no_new_memories", {}, None)


def test_several_calls_one_after_another() -> None:
    text = (
        '```json\n{"name": "memory_write", "arguments": ' + ARGS + "}\n```\n"
        '```json\n{"name": "no_new_memories", "arguments": {}}\n```'
    )
    calls = calls_in_text(text, TOOLS)
    assert [call.name for call in calls] == ["memory_write", "no_new_memories"]
    assert len({call.id for call in calls}) == 2


@pytest.mark.parametrize(
    "text",
    [
        "",
        "I have nothing to add.",
        "Here is the call:\n```json\n" + '{"name": "memory_write", "arguments": ' + ARGS + "}\n```",
        '{"name": "memory_delete", "arguments": {}}',  # not a tool offered
        '{"name": "memory_write", "arguments": ' + ARGS + ', "id": 3}',  # not the shape
        '{"name": "memory_write", "arguments": ' + ARGS,  # not whole
        '{"tool": "memory_write"}',
        "memory_read",  # not offered
        "```python\nprint('no_new_memories')\n```",
    ],
)
def test_anything_else_stays_text(text: str) -> None:
    assert calls_in_text(text, TOOLS) == ()


@pytest.mark.parametrize(
    ("arguments", "problem"),
    [
        ('{"old_string": ""}', "arguments lack 'new_string'"),
        ('{"old_string": "", "new_string": 3}', "arguments.new_string must be a string"),
        (
            '{"old_string": "", "new_string": "x", "path": "/memories/a.md"}',
            "arguments hold 'path', which the tool does not take",
        ),
        ('{"old_string": "", "new_string": "x", "replace_count": true}', "must be an integer"),
    ],
)
def test_a_call_whose_arguments_do_not_check_is_refused_with_why(
    arguments: str, problem: str
) -> None:
    [call] = calls_in_text('{"name": "memory_write", "arguments": ' + arguments + "}", TOOLS)
    assert call.arguments is None and call.parse_error is not None
    assert problem in call.parse_error


def test_a_bare_name_of_a_tool_that_needs_arguments_is_refused() -> None:
    [call] = calls_in_text("memory_write", TOOLS)
    assert call.arguments is None
    assert call.parse_error == "arguments lack 'old_string', 'new_string'"


def test_identical_calls_in_different_replies_get_different_ids() -> None:
    text = "no_new_memories"
    [first] = calls_in_text(text, TOOLS, "reply-1")
    [second] = calls_in_text(text, TOOLS, "reply-2")
    assert first.id != second.id


@pytest.mark.parametrize(
    ("value", "schema", "problem"),
    [
        ("view", {"type": "string", "enum": ["view", "create"]}, None),
        ("drop", {"type": "string", "enum": ["view", "create"]}, "must be one of 'view', 'create'"),
        (0, {"type": "integer", "minimum": 1}, "must be at least 1"),
        ("", {"type": "string", "minLength": 1}, "at least 1 characters"),
        (1.5, {"type": "integer"}, "must be an integer"),
        (2, {"type": "number"}, None),
        (["a", 2], {"type": "array", "items": {"type": "string"}}, "[1] must be a string"),
        ([1, 2, 3], {"type": "array", "maxItems": 2}, "must hold at most 2 items"),
        ([1, 2], {"type": "array", "maxItems": 2}, None),
        ("x", {"type": "string", "pattern": "^x$"}, "uses pattern, which Memtab cannot check"),
        ({"a": 1}, {"type": "object"}, "hold 'a', which the tool does not take"),
        (None, {"type": ["string", "null"]}, None),
    ],
)
def test_the_schema_is_checked_exactly(value: object, schema: dict, problem: str | None) -> None:
    found = schema_problem(value, schema)
    if problem is None:
        assert found is None
    else:
        assert found is not None and problem in found
