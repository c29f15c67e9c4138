"""What asks a server for tool calls when its model writes them as text.

`calls_response_format(tools)`: an OpenAI-compatible `response_format` whose JSON schema is
one call of one of `tools` (`{"name": …, "arguments": {…}}`); servers that constrain their
output to a schema (llama.cpp's, Ollama, vLLM, LM Studio) then make the model write
nothing else, and `text.calls_in_text` reads it back. `tools_prompt(tools)`: the tools in
words, for a server that takes no `tools` (llama.cpp's without `--jinja`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from memtab.llm.types import ToolSpec


def call_schema(tool: ToolSpec) -> dict[str, Any]:
    """The JSON schema of one call of `tool`."""
    return {
        "type": "object",
        "properties": {"name": {"const": tool.name}, "arguments": tool.input_schema},
        "required": ["name", "arguments"],
        "additionalProperties": False,
    }


def calls_response_format(tools: Sequence[ToolSpec]) -> dict[str, Any]:
    """A `response_format` asking for one call of one of `tools` (at least one)."""
    schemas = [call_schema(tool) for tool in tools]
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
