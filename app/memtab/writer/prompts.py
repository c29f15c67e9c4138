"""The writer's prompts and tool schemas, read from `resources/prompts/writer*.md`."""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from memtab.llm.types import ToolSpec
from memtab.resources import resource_path

_PLACEHOLDER = re.compile(r"\{\{(\w+)\}\}")
_TOOL_SECTION = re.compile(r"^## +(\S+)[ \t]*$", re.MULTILINE)
# The first ```json block (held by an atomic group: after one without an end, no later
# opening is tried again — none of them has an end either).
_JSON_FENCE = re.compile(r"\A(?>.*?(?P<fence>```json[ \t]*\n))(?P<schema>.*?)\n```", re.DOTALL)


class PromptError(Exception):
    """A bundled prompt file is missing or malformed (a packaging bug, named in the message)."""


def _read(name: str) -> str:
    path = resource_path("prompts", name)
    try:
        return path.read_text(encoding="utf-8")
    except OSError as error:
        raise PromptError(f"Cannot read the prompt {path}: {error.strerror or error}") from None


@functools.cache
def system_prompt() -> str:
    """The writer's system prompt."""
    return _read("writer.md").strip()


@functools.cache
def reminder_prompt() -> str:
    """The reminder added as a second user message on the second attempt."""
    return " ".join(_read("writer-reminder.md").split())


@functools.cache
def user_template() -> str:
    """The user message's template, its `{{name}}` placeholders unfilled."""
    return _read("writer-user.md").rstrip("\n")


@functools.cache
def tool_specs() -> tuple[ToolSpec, ...]:
    """The three tools, parsed from `writer-tools.md`."""
    return parse_tool_specs(_read("writer-tools.md"), source="writer-tools.md")


@functools.cache
def lessons_prompt() -> str:
    """The lessons task's system prompt."""
    return _read("writer-lessons.md").strip()


def lessons_instructions() -> str:
    """The lessons prompt without its example: made-up lessons are no instructions (a
    note saying what the example's does, "`bun test` runs the test suite", is one)."""
    return lessons_prompt().split("\n## Example", 1)[0]


@functools.cache
def lessons_reminder() -> str:
    """The lessons task's reminder."""
    return " ".join(_read("writer-lessons-reminder.md").split())


@functools.cache
def lessons_template() -> str:
    """The lessons task's user message template."""
    return _read("writer-lessons-user.md").rstrip("\n")


@functools.cache
def lessons_tool_specs() -> tuple[ToolSpec, ...]:
    """`record_lessons` and the writer's `no_new_memories`."""
    record = parse_tool_specs(_read("writer-lessons-tools.md"), source="writer-lessons-tools.md")
    return (*record, *(spec for spec in tool_specs() if spec.name == "no_new_memories"))


def build_lessons_message(*, workspace: str, project: str, digest: str) -> str:
    """The first user message of a lessons run."""
    return fill_template(
        lessons_template(), {"workspace": workspace, "project": project, "digest": digest}
    )


def judge_prompt() -> str:
    """The judging task's system prompt: code proposes notes, the model keeps some."""
    return _read("writer-judge.md").strip()


def judge_reminder() -> str:
    """The judging task's reminder."""
    return " ".join(_read("writer-judge-reminder.md").split())


@functools.cache
def judge_tool_specs() -> tuple[ToolSpec, ...]:
    """`keep_notes`, the judging task's one tool."""
    return parse_tool_specs(_read("writer-judge-tools.md"), source="writer-judge-tools.md")


USER_WROTE = "What the user wrote (keep only a sentence that states a standing rule)"


def build_judge_message(
    *,
    workspace: str,
    project: str,
    notes: Sequence[tuple[str, str]],
    sentences: Sequence[str] = (),
) -> str:
    """The first user message of a judging run: `notes` ((section, text), in order) numbered
    from 1 under their headings, then the user's `sentences` numbered on under `USER_WROTE`."""
    lines: list[str] = []
    for number, (section, text) in enumerate(notes, start=1):
        if number == 1 or notes[number - 2][0] != section:
            lines.append(f"## {section}")
        lines.append(f"{number}. {text}")
    if sentences:
        lines.append(f"## {USER_WROTE}")
    lines += [f"{number}. {text}" for number, text in enumerate(sentences, start=len(notes) + 1)]
    return fill_template(
        _read("writer-judge-user.md").rstrip("\n"),
        {"workspace": workspace, "project": project, "notes": "\n".join(lines)},
    )


def parse_tool_specs(text: str, *, source: str) -> tuple[ToolSpec, ...]:
    """Tool specs from Markdown: `## name`, a description, a ```json input schema."""
    headings = list(_TOOL_SECTION.finditer(text))
    specs: list[ToolSpec] = []
    for index, heading in enumerate(headings):
        end = headings[index + 1].start() if index + 1 < len(headings) else len(text)
        body = text[heading.end() : end]
        fence = _JSON_FENCE.search(body)
        if fence is None:
            raise PromptError(f"{source}: tool {heading.group(1)} has no ```json schema")
        try:
            schema: Any = json.loads(fence["schema"])
        except ValueError as error:
            raise PromptError(
                f"{source}: the schema of {heading.group(1)} is not JSON: {error}"
            ) from None
        if not isinstance(schema, dict):
            raise PromptError(f"{source}: the schema of {heading.group(1)} is not an object")
        description = " ".join(body[: fence.start("fence")].split())
        specs.append(ToolSpec(heading.group(1), description, schema))
    if not specs:
        raise PromptError(f"{source}: no tool sections")
    return tuple(specs)


def fill_template(template: str, values: Mapping[str, str]) -> str:
    """Replace each `{{name}}` with `values[name]` in one pass (unknown names stay)."""
    return _PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), template)


def build_user_message(
    *,
    workspace: str,
    project: str,
    memory_path: str,
    memory: str,
    events_json: str,
    kept: int,
    total: int,
) -> str:
    """The first user message of a run. `events_json` must be one line (compact JSON)."""
    if "\n" in events_json:
        raise ValueError("events_json must be compact, single-line JSON")
    return fill_template(
        user_template(),
        {
            "workspace": workspace,
            "project": project,
            "memory_path": memory_path,
            "memory": memory,
            "events": events_json,
            "kept": str(kept),
            "total": str(total),
        },
    )
