"""The writer's lessons task (docs/formats.md §10.2): a small local model is shown a digest of the
transcript, where the signal is in a few short lists, and answers with lessons quoting their
evidence; code checks each and `job.run.LessonTools` writes the kept ones, so the model never edits
the file."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from memtab.redact import redact_outgoing
from memtab.transcripts.events import TranscriptEvent
from memtab.trust.rails import HOLDS_A_SECRET
from memtab.writer.offline.directives import directives_in, human_text
from memtab.writer.offline.extract import extract_findings
from memtab.writer.offline.findings import WorkingCommand
from memtab.writer.offline.notes import (
    COMMANDS,
    DIRECTIVES,
    FINDINGS,
    SOLVED_PROBLEMS,
    Note,
    normalize,
    render_command,
    render_solved_problem,
    significant_words,
)
from memtab.writer.offline.shell.commands import (
    chained_commands,
    command_kind,
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


SECTIONS = {
    "command": COMMANDS,
    "preference": DIRECTIVES,
    "fact": FINDINGS,
    "pitfall": SOLVED_PROBLEMS,
}
"""Where each kind of lesson goes in the notes file (the offline writer's sections)."""
MOST_LESSONS = 5
LESSON_CHARS = 300
MIN_EVIDENCE_CHARS = 8
ABOUT_SHARE = 1 / 3
"""How much of a lesson's wording its evidence must hold."""

NOT_A_LESSON = "it is not a lesson: {kind, lesson, evidence}"
NOT_ONE_LINE = "it is not one short line"
TOO_MANY = f"a run keeps at most {MOST_LESSONS} lessons"
NO_EVIDENCE = "its evidence is not in the conversation"
OFF_EVIDENCE = "it is not about what its evidence says"
NO_WORKING_COMMAND = "it names no command that worked in the conversation"
NOT_THE_USERS = "its evidence is not what the user wrote"
ONE_OFF = "it is a request for that session, not a standing preference"
NO_ERROR = "its evidence shows no error met in the conversation"
HOLDS_A_REDACTION = "it holds a redaction, not a note"
NOT_ALONE = "it does not read alone"
NAMES_NOTHING = "it names no file, command or setting of the project"

_WORKED = significant_words("worked works")
_QUOTE_EDGES = " \t\"'“”‘’`-*"
_TOKEN_EDGES = ".,;:!?()[]{}\"'“”‘’"
# A lesson opening on one of these points back at the conversation ("That is src/x.ts").
_POINTING = frozenset({"that", "this", "it", "these", "those", "they", "that's", "it's"})


@dataclass(frozen=True)
class Lesson:
    """One lesson as the model gave it."""

    kind: str
    lesson: str
    evidence: str

    @classmethod
    def read(cls, value: Any) -> Lesson | None:
        """A lesson from a call's arguments, or None when it is not one."""
        if not isinstance(value, Mapping):
            return None
        kind, lesson, evidence = (value.get(name) for name in ("kind", "lesson", "evidence"))
        if not isinstance(lesson, str) or not isinstance(evidence, str) or kind not in SECTIONS:
            return None
        return cls(str(kind), " ".join(lesson.split()), " ".join(evidence.split()))

    @property
    def shown(self) -> str:
        """How a refused lesson is named in the run's result."""
        return f"{self.kind}: {self.lesson}"


def why_refused(lesson: Lesson, digest: Digest) -> str | None:
    """Why `lesson` is not kept, or None."""
    if not lesson.lesson or len(lesson.lesson) > LESSON_CHARS:
        return NOT_ONE_LINE
    if redact_outgoing(lesson.lesson) != lesson.lesson:
        return HOLDS_A_SECRET
    if "[REDACTED" in lesson.lesson:
        return HOLDS_A_REDACTION
    if lesson.lesson.split()[0].lower() in _POINTING:
        return NOT_ALONE
    if lesson.kind == "fact" and not _names_a_thing(lesson.lesson):
        return NAMES_NOTHING
    quote = lesson.evidence.strip(_QUOTE_EDGES)
    if len(quote) < MIN_EVIDENCE_CHARS or not _within(quote, digest.text):
        return NO_EVIDENCE
    # The lines holding the quote, or the quote itself when it spans lines.
    lines = [line for line in digest.text.splitlines() if _within(quote, line)] or [quote]
    command = _named_command(lesson, digest) if lesson.kind == "command" else None
    if command is not None:  # that it worked is its evidence too
        lines.append(f"{command} {WORKED}")
    words = significant_words(lesson.lesson)
    shared = words & significant_words(" ".join(lines))
    named = any(_names_a_thing(word) for word in shared)  # the same file or command
    if not shared or (len(shared) < ABOUT_SHARE * len(words) and not named):
        return OFF_EVIDENCE
    if lesson.kind == "command" and command is None:
        return NO_WORKING_COMMAND
    if lesson.kind == "preference":
        if not any(_within(quote, said) for said in digest.said):
            return NOT_THE_USERS
        if not any(_within(quote, rule) or _within(rule, quote) for rule in digest.rules):
            return ONE_OFF
    if lesson.kind == "pitfall" and not any(_within(quote, line) for line in digest.failed):
        return NO_ERROR
    return None


def lesson_note(lesson: Lesson, digest: Digest) -> Note:
    """The note a kept lesson becomes: a command it names that worked set as code, so the
    writer's rails read it as a command; a lesson saying no more than that the command
    worked ("`bun test`: worked") written as the offline writer writes one."""
    text = lesson.lesson
    command = _named_command(lesson, digest) if lesson.kind == "command" else None
    if command is not None:
        if not significant_words(text) - significant_words(command) - _WORKED:
            text = render_command(WorkingCommand(command, command_kind(command)))
        elif f"`{command}`" not in text:
            text = text.replace(command, f"`{command}`", 1)
    return Note(SECTIONS[lesson.kind], text)


def _named_command(lesson: Lesson, digest: Digest) -> str | None:
    """The longest command that worked the lesson names."""
    named = [c for c in digest.worked if normalize(c) in normalize(lesson.lesson)]
    return max(named, key=len, default=None)


def _names_a_thing(text: str) -> bool:
    """Whether `text` names something of a project: code, a path or file name
    (`src/main.ts`, `mix.exs`), an identifier (`snake_case`, `camelCase`)."""
    if "`" in text:
        return True
    for token in text.split():
        inner = token.strip(_TOKEN_EDGES)[1:-1]
        camel = any(a.islower() and b.isupper() for a, b in pairwise(inner))
        if camel or any(mark in inner for mark in "/._"):
            return True
    return False


def _within(part: str, text: str) -> bool:
    """Whether `part` is in `text`, both compared as notes are (`normalize`)."""
    return normalize(part) in normalize(text)
