"""The writer's rails (issue 82): what a model's `memory_write` adds is checked in code, after the
model and before the notes file, against what the model was told and what the conversation says
(`trust.rails`), and against the commands the conversation ran."""

from __future__ import annotations

import difflib
import functools
import json
import re
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from memtab.markdown import Line, LineKind, classify, text_lines
from memtab.redact import lines_redacted, redact_outgoing
from memtab.transcripts.events import TranscriptEvent
from memtab.trust.rails import (
    CODE_SPAN,
    HOLDS_A_SECRET,
    SAYS_NOTHING,
    Rails,
    Refused,
    squeezed,
    with_what_goes_with_them,
)
from memtab.writer.offline.directives import human_text, standing_rules
from memtab.writer.prompts import (
    lessons_instructions,
    lessons_reminder,
    lessons_template,
    lessons_tool_specs,
    reminder_prompt,
    system_prompt,
    tool_specs,
    user_template,
)
from memtab.writer.tools import TOOL_ANSWERS

UNSTATED_RULE = "it is a standing rule the conversation does not state"
UNHEARD = "it says what the conversation does not"
NEVER_RAN = "it names a command the conversation never ran"
COPIES_OUTPUT = "it copies a tool's output"
COPIES_DOCUMENT = "it copies a file the agent wrote"
IS_DATA = "it is a tool's data (JSON), not a note"

_COMMAND_KEYS = ("command", "cmd", "script", "commands")
_COMMANDS_HEADING = re.compile(r"\bcommands?\b", re.IGNORECASE)
_MARKER = re.compile(r"^\s*(?:[-*+]|\d{1,9}[.)])\s+")
_EXPLANATION = re.compile(r"(?<!\s)\s++(?:(?:—|–|-|:)\s|\()")


@functools.cache
def writer_instructions() -> str:
    """Everything the writer's model is told but the run's data: the prompts (the lessons
    task's, but its example), the tools' descriptions and what the tools answer."""
    specs = (*tool_specs(), *lessons_tool_specs())
    tools = "\n".join(f"{spec.name}: {spec.description}" for spec in specs)
    answers = "\n".join(TOOL_ANSWERS)
    lessons = (lessons_instructions(), lessons_reminder(), lessons_template())
    return "\n\n".join(
        (system_prompt(), reminder_prompt(), tools, user_template(), answers, *lessons)
    )


class WriterRails:
    """The rails of one run over the events it was shown."""

    def __init__(self, events: Sequence[TranscriptEvent], told: str = "") -> None:
        """`told`: what the run's own message says besides its data (its workspace,
        project and memory file), part of what a note may not restate."""
        said = [human_text(e.text) for e in events if e.role == "user" and not e.sidechain]
        rules = standing_rules(e.text for e in events if e.role == "user").kept
        # As the model saw it (a command it copies holds the redactions it was shown), each
        # text alone: a private key cut short is redacted to the end of its own text.
        heard = "\n".join(map(redact_outgoing, _texts_of(events)))
        self.rails = Rails(
            f"{writer_instructions()}\n\n{told}",
            rules,
            said,
            unstated_rule=UNSTATED_RULE,
            heard=heard,
            unheard=UNHEARD,
        )
        self._ran = squeezed("\n".join(map(redact_outgoing, _commands_of(events))))
        self._output_lines = {
            squeezed(_MARKER.sub("", line))
            for event in events
            for call in event.tool_calls
            for line in redact_outgoing(call.output or "").splitlines()
            if line.strip()
        }
        self._document_lines = {
            squeezed(_MARKER.sub("", line))
            for event in events
            for call in event.tool_calls
            for text in _strings(call.input)
            if "\n" in text.strip()  # a file's content, a patch: not a command
            for line in redact_outgoing(text).splitlines()
            if line.strip()
        }

    def apply(self, before: str, after: str) -> tuple[str, list[tuple[str, str]]]:
        """`after` with what the rails refuse of what it adds to `before` taken out, and
        the (line, why) of each refused line."""
        old, new = text_lines(before), text_lines(after)
        matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
        opcodes = matcher.get_opcodes()
        existing = set(old)
        added = [
            index
            for tag, _, _, first, last in opcodes
            if tag in ("insert", "replace")
            for index in range(first, last)
            if new[index] not in existing
        ]
        kinds = classify(new)
        checked = self.rails.refusals(after, added, before)
        refused = {**checked, **self._copied(new, added), **self._unrun(new, added)}
        # a line refused twice is named by its plainest reason, but a secret as a secret
        refused |= {n: found for n, found in checked.items() if found.why == HOLDS_A_SECRET}
        refused = with_what_goes_with_them(new, set(added), refused)
        # a heading written with nothing under it says nothing; one its refused lines
        # leave empty goes with them
        numbered = [(line, number) for number, line in enumerate(new)]
        _, empty = _without_empty_headings(numbered, kinds, set(added))
        refused |= {number: Refused(new[number], SAYS_NOTHING) for number in empty}
        kept: list[tuple[str, int | None]] = []  # each line, and its number if it was added
        for tag, start, end, first, last in opcodes:
            if tag == "equal" or (tag == "replace" and refused.keys() & range(first, last)):
                kept += [(line, None) for line in old[start:end]]
            elif tag != "delete":
                kept += [(new[n], n) for n in range(first, last) if n not in refused]
        if not refused:
            return after, []
        lines, _ = _without_empty_headings(kept, kinds, set(added))
        text = "\n".join(lines) + ("\n" if lines and after.endswith("\n") else "")
        # named redacted as the whole text is: a refused secret is still one, though its
        # lines (a private key's) are none alone
        shown = lines_redacted(new)
        return text, [(shown[number], found.why) for number, found in sorted(refused.items())]

    def _copied(self, lines: Sequence[str], added: Iterable[int]) -> dict[int, Refused]:
        """The added lines (but headings) that are a line of a tool's output ("File written
        successfully"), or of a file the agent wrote (its CLAUDE.md), or JSON outside a
        fenced block (the 1.5B wrote memory_read's answer, `{"exists": true, "content":
        …}`, as its notes): raw output is no note, and a document is not the user's."""
        kinds = classify(lines)
        copied = {}
        for number in added:
            if kinds[number].kind not in (LineKind.TEXT, LineKind.LIST_ITEM):
                continue
            bare = _MARKER.sub("", lines[number])
            text = squeezed(bare)
            if _is_json(bare):
                copied[number] = Refused(lines[number], IS_DATA)
            elif text in self._output_lines:
                copied[number] = Refused(lines[number], COPIES_OUTPUT)
            elif text in self._document_lines:
                copied[number] = Refused(lines[number], COPIES_DOCUMENT)
        return copied

    def _unrun(self, lines: Sequence[str], added: Iterable[int]) -> dict[int, Refused]:
        """The added items under a heading of commands naming one no tool call of the
        conversation ran."""
        wanted = set(added)
        heading = ""
        refused = {}
        for index, (line, kind) in enumerate(zip(lines, classify(lines), strict=True)):
            if kind.kind is LineKind.HEADING:
                heading = line
            elif (
                index in wanted
                and kind.kind is LineKind.LIST_ITEM
                and _COMMANDS_HEADING.search(heading)
                and not self._ran_all(line)
            ):
                refused[index] = Refused(line, NEVER_RAN)
        return refused

    def _ran_all(self, line: str) -> bool:
        """Whether the command an item of commands names — its first code span, else its
        text up to what explains it — is one a tool call ran."""
        span = CODE_SPAN.search(line)
        bare = _MARKER.sub("", line).strip()
        command = span.group(1) if span else _EXPLANATION.split(bare, maxsplit=1)[0]
        return not command.strip() or squeezed(redact_outgoing(command)) in self._ran


def _without_empty_headings(
    lines: Sequence[tuple[str, int | None]], kinds: Sequence[Line], added: set[int]
) -> tuple[list[str], list[int]]:
    """The lines but each heading the write added that nothing stands under — read from the end, so
    a heading whose sub-headings all go goes too — and the blank lines what was left out leaves
    (none first, never two in a row); and the numbers of the headings left out."""
    kept_reversed: list[tuple[str, int | None]] = []
    empty: list[int] = []
    for line, number in reversed(lines):
        if number is not None and number in added and kinds[number].kind is LineKind.HEADING:
            under = next((text for text, _ in reversed(kept_reversed) if text.strip()), "")
            if not under or 0 < _level(under) <= _level(line):
                empty.append(number)
                continue
        kept_reversed.append((line, number))
    kept: list[str] = []
    for line, _ in reversed(kept_reversed):
        if not line.strip() and (not kept or not kept[-1].strip()):
            continue
        kept.append(line)
    return kept, sorted(empty)


def _is_json(text: str) -> bool:
    """Whether `text` is a JSON object or array (and only that)."""
    stripped = text.strip()
    if stripped[:1] not in ("{", "[") or stripped[-1:] not in ("}", "]"):
        return False
    try:
        return isinstance(json.loads(stripped), dict | list)
    except ValueError:
        return False


def _level(line: str) -> int:
    """A heading's level (`##`: 2); 0 for any other line."""
    stripped = line.lstrip()
    hashes = len(stripped) - len(stripped.lstrip("#"))
    return hashes if hashes and stripped[hashes : hashes + 1] in (" ", "") else 0


def _texts_of(events: Sequence[TranscriptEvent]) -> Iterator[str]:
    for event in events:
        yield event.text
        for call in event.tool_calls:
            yield from _strings(call.input)
            if call.output:
                yield call.output


def _commands_of(events: Sequence[TranscriptEvent]) -> Iterator[str]:
    """The commands the conversation's tool calls ran: their inputs' command, cmd or script."""
    for event in events:
        for call in event.tool_calls:
            if isinstance(call.input, dict):
                for key in _COMMAND_KEYS:
                    yield from _strings(call.input.get(key))


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict | list):
        for item in value.values() if isinstance(value, dict) else value:
            yield from _strings(item)
