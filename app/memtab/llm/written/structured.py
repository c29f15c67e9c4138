"""What asks a server for tool calls when its model writes them as text."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from memtab.fs.jsonfile import JsonError, parse_json
from memtab.llm.types import ToolSpec

FINAL_ANSWER = "final_answer"
_ANSWER_ARGUMENTS = {
    "type": "object",
    "properties": {"text": {"type": "string"}},
    "required": ["text"],
    "additionalProperties": False,
}


def call_schema(tool: ToolSpec) -> dict[str, Any]:
    """The JSON schema of one call of `tool`."""
    return {
        "type": "object",
        "properties": {"name": {"const": tool.name}, "arguments": tool.input_schema},
        "required": ["name", "arguments"],
        "additionalProperties": False,
    }


def calls_response_format(tools: Sequence[ToolSpec], *, answer: bool = False) -> dict[str, Any]:
    """A `response_format` asking for one call of one of `tools` (at least one), or with
    `answer` a final answer."""
    schemas = [call_schema(tool) for tool in tools]
    if answer:
        schemas.append(call_schema(ToolSpec(FINAL_ANSWER, "", _ANSWER_ARGUMENTS)))
    schema = schemas[0] if len(schemas) == 1 else {"anyOf": schemas}
    return {"type": "json_schema", "json_schema": {"name": "tool_call", "schema": schema}}


def tools_prompt(tools: Sequence[ToolSpec]) -> str:
    """The tools described for the system prompt, and how to call one in the reply."""
    lines = [
        "# Tools",
        "",
        "Call a tool by answering with one JSON object and nothing else: "
        '{"name": "<tool name>", "arguments": {<arguments>}}. The result comes back '
        "in the next message. The tools:",
    ]
    for tool in tools:
        schema = json.dumps(tool.input_schema, ensure_ascii=False, separators=(",", ":"))
        lines.append(f"- {tool.name}: {' '.join(tool.description.split())} Arguments: {schema}")
    return "\n".join(lines)


def structured_prompt(*, answer: bool) -> str:
    """What the system prompt says of a reply asked by schema."""
    text = (
        "Each reply is one JSON object and nothing else: a tool call, "
        '{"name": "<tool name>", "arguments": {<arguments>}}'
    )
    if answer:
        text += (
            f', or, when you are done, {{"name": "{FINAL_ANSWER}", "arguments": '
            '{"text": "<your final answer>"}}'
        )
    return text + "."


def answer_in_text(text: str) -> str | None:
    """The final answer a reply asked by schema holds, or None when it is not one."""
    try:
        value = parse_json(text.strip())
    except JsonError:
        return None
    if (
        not isinstance(value, dict)
        or value.get("name") != FINAL_ANSWER
        or set(value)
        != {
            "name",
            "arguments",
        }
    ):
        return None
    arguments = value["arguments"]
    if not isinstance(arguments, dict) or set(arguments) != {"text"}:
        return None
    answer = arguments["text"]
    return answer if isinstance(answer, str) else None
