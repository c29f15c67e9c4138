"""A transcript as a small model can read it: where the signal is, in a few short lists."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from memtab.redact import redact_outgoing
from memtab.transcripts import TranscriptEvent
from memtab.writer.offline.directives import directives_in, human_text
from memtab.writer.offline.extract import extract_findings
from memtab.writer.offline.notes import render_solved_problem
from memtab.writer.offline.shell.commands import (
    chained_commands,
    display_command,
    is_exploratory,
    is_worth_keeping,
    tool_program,
)
from memtab.writer.offline.solved_problems import read_step

DIGEST_CHARS = 6000
"""The most a digest holds, whatever the model's window: a small model reads a short one best."""
MESSAGE_CHARS = 400
ANSWER_CHARS = 300
SIGNATURE_CHARS = 160
MOST_MESSAGES = 12
MOST_COMMANDS = 20
MOST_SOLVED = 6
MOST_ANSWERS = 8

USER_HEADING = "What the user wrote (oldest first):"
COMMANDS_HEADING = "Shell commands the agent ran, and how each ended:"
SOLVED_HEADING = "Errors and what then fixed them:"
ANSWERS_HEADING = "What the agent told the user:"
NOTHING = "(nothing)"
WORKED = "worked"


@dataclass(frozen=True)
class Digest:
    """What a run shows the model (`text`), and its parts as code checks a lesson against
    them: each a line as the text holds it, redacted."""

    text: str
    said: tuple[str, ...] = ()
    """The user's messages."""
    rules: tuple[str, ...] = ()
    """The standing rules the user stated (`directives_in`), among what they said."""
    worked: tuple[str, ...] = ()
    """The commands that worked."""
    failed: tuple[str, ...] = ()
    """The commands that failed, each with its error, and the problems solved."""
    answers: tuple[str, ...] = ()


def digest_of(events: Sequence[TranscriptEvent], max_chars: int = DIGEST_CHARS) -> Digest:
    """The digest of `events` (oldest first; sub-agents' left out), at most `max_chars`."""
    mainline = [event for event in events if not event.sidechain]
    said, rules = _user_messages(mainline)
    ran = _commands(mainline)
    solved = [
        _redacted(render_solved_problem(problem), MESSAGE_CHARS)
        for problem in extract_findings(mainline).solved_problems
    ][-MOST_SOLVED:]
    answers = _unique(
        _redacted(event.text, ANSWER_CHARS)
        for event in mainline
        if event.role == "assistant" and event.text.strip()
    )[-MOST_ANSWERS:]
    commands = [
        f"`{c}`: {WORKED}" if error is None else f"`{c}`: failed with `{error}`" for c, error in ran
    ]
    sections = [said, commands, solved, answers]
    while len(_render(sections)) > max_chars and any(sections):
        longest = max(sections, key=lambda part: sum(map(len, part)))
        del longest[0]  # the oldest of the longest list goes first
    worked_lines = {f"`{c}`: {WORKED}": c for c, error in ran if error is None}
    return Digest(
        text=_render(sections),
        said=tuple(said),
        rules=tuple(rule for rule in rules if any(rule in text for text in said)),
        worked=tuple(worked_lines[line] for line in commands if line in worked_lines),
        failed=(*(line for line in commands if line not in worked_lines), *solved),
        answers=tuple(answers),
    )


def _user_messages(events: Iterable[TranscriptEvent]) -> tuple[list[str], list[str]]:
    """The user's messages, each once, the newest `MOST_MESSAGES`, and the rules they state."""
    said = _unique(
        _redacted(human_text(event.text), MESSAGE_CHARS)
        for event in events
        if event.role == "user" and event.text
    )[-MOST_MESSAGES:]
    rules = [_redacted(rule, MESSAGE_CHARS) for text in said for rule in directives_in(text)]
    return said, rules


def _commands(events: Iterable[TranscriptEvent]) -> list[tuple[str, str | None]]:
    """The commands run, each once, oldest first, the newest `MOST_COMMANDS`: each with its
    error when it failed, else None (a command that worked as the offline writer writes one)."""
    found: list[tuple[str, str | None]] = []
    for event in events:
        for call in event.tool_calls:
            step = read_step(call, event.message_id or event.id, event.cwd)
            if step.command is None or is_exploratory(step.command):
                continue
            if step.failed:
                shown = display_command(step.command) or step.command.split("\n", 1)[0]
                error = _redacted(step.signature, SIGNATURE_CHARS) or "no error shown"
                found.append((_redacted(shown, MESSAGE_CHARS), error))
            elif step.succeeded:
                for part in chained_commands(step.command):
                    command = display_command(part)
                    if command is not None and (is_worth_keeping(part) or tool_program(part)):
                        found.append((_redacted(command, MESSAGE_CHARS), None))
    return list(dict.fromkeys(found))[-MOST_COMMANDS:]


def _render(sections: Sequence[Sequence[str]]) -> str:
    said, commands, solved, answers = sections
    parts = []
    for heading, lines in (
        (USER_HEADING, [f'- "{line}"' for line in said]),
        (COMMANDS_HEADING, [f"- {line}" for line in commands]),
        (SOLVED_HEADING, [f"- {line}" for line in solved]),
        (ANSWERS_HEADING, [f'- "{line}"' for line in answers]),
    ):
        parts.append("\n".join((heading, *(lines or [f"- {NOTHING}"]))))
    return "\n\n".join(parts)


def _redacted(text: str, limit: int) -> str:
    """`text` redacted, on one line, cut to `limit` characters."""
    line = " ".join(redact_outgoing(text).split())
    return line if len(line) <= limit else line[: limit - 1].rstrip() + "…"


def _unique(texts: Iterable[str]) -> list[str]:
    return [text for text in dict.fromkeys(texts) if text]
