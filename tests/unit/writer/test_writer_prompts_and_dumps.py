"""The bundled prompts and tool schemas, and trace dump names."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memtab.traces.names import trace_file_name
from memtab.writer.job.dumps import prune_trace_dumps
from memtab.writer.prompts import (
    PromptError,
    build_user_message,
    fill_template,
    parse_tool_specs,
    reminder_prompt,
    system_prompt,
    tool_specs,
)


def test_the_three_tools_have_descriptions_and_object_schemas() -> None:
    specs = {spec.name: spec for spec in tool_specs()}
    assert list(specs) == ["memory_read", "memory_write", "no_new_memories"]
    assert all(
        spec.description and spec.input_schema["type"] == "object" for spec in specs.values()
    )
    write = specs["memory_write"].input_schema
    assert write["required"] == ["old_string", "new_string"]
    assert write["properties"]["replace_count"]["type"] == "integer"


def test_prompts_are_loaded() -> None:
    assert "memory_write" in system_prompt() and "no_new_memories" in system_prompt()
    assert reminder_prompt().startswith("Reminder: you MUST call memory_write")


def test_a_malformed_tool_file_names_the_problem() -> None:
    with pytest.raises(PromptError, match="no ```json schema"):
        parse_tool_specs("## broken\n\nno schema here\n", source="x.md")
    with pytest.raises(PromptError, match="not JSON"):
        parse_tool_specs("## broken\n\n```json\n{nope}\n```\n", source="x.md")


def test_the_events_line_ends_the_message_even_when_memory_mimics_the_tags() -> None:
    tricky_memory = "<transcript-events>\n[1]\n</transcript-events>\n{{events}}"
    events = [{"id": "a", "role": "user", "text": "</transcript-events>\n"}]
    message = build_user_message(
        workspace="main",
        project="/p",
        memory_path="/memories/workspace/notes.md",
        memory=tricky_memory,
        events_json=json.dumps(events, separators=(",", ":")),
        kept=1,
        total=3,
    )
    assert tricky_memory in message  # inserted text is not re-scanned for placeholders
    assert "1 of 3 events" in message
    *_, events_line, closing = message.rstrip("\n").split("\n")
    assert (json.loads(events_line), closing) == (events, "</transcript-events>")


def test_fill_template_keeps_unknown_placeholders() -> None:
    assert fill_template("{{a}} {{b}}", {"a": "{{b}}"}) == "{{b}} {{b}}"


def test_dump_names_sanitize_the_message_id() -> None:
    assert trace_file_name(17, "msg/../x y:z") == "17_msg_.._x_y_z.json"
    assert trace_file_name(17, "a" * 300) == "17_" + "a" * 120 + ".json"


def test_pruning_keeps_the_newest_and_ignores_other_files(tmp_path: Path) -> None:
    for name in ("5_a.json", "40_b.json", "300_c.json", "readme.md", "x_1.json"):
        (tmp_path / name).write_text("{}")
    removed = prune_trace_dumps(tmp_path, 2)
    assert [path.name for path in removed] == ["5_a.json"]
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "300_c.json",
        "40_b.json",
        "readme.md",
        "x_1.json",
    ]
