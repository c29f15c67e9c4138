"""The digest a small model is shown (docs/formats.md §10.2): the transcript's signal in a few
short lists — what the user wrote, the commands run and how each ended, the errors a later step
fixed, the agent's answers — and the same lines as code judges a lesson against them (`Said`)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from memtab.fs.terminal_text import without_controls
from memtab.redact import redact_outgoing
from memtab.transcripts.events import TranscriptEvent
from memtab.trust.words import statements
from memtab.writer.offline.corrections import is_corrected_by
from memtab.writer.offline.directives import human_text, standing_rules
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
_SENTENCE_END = re.compile(r"(?<=[.!?]) ")
NOTHING = "(nothing)"
WORKED = "worked"

Source = Literal["user", "exchange", "command", "failed", "solved", "answer"]


@dataclass(frozen=True)
class Said:
    """One line of the conversation as the digest shows it: a sentence the user or the agent
    wrote, a command and how it ended, an error and its fix; or an *exchange*, the agent's
    last sentence and the user's answer to it ("…is up at localhost:3000." "It's on 5173, not
    3000."), read together since the answer leans on it. `rule`: the standing rule the user
    states in it (`directives_in`), in their words."""

    text: str
    source: Source
    rule: str | None = None


@dataclass(frozen=True)
class Digest:
    """What a run shows the model (`text`), and its parts as code checks a lesson against
    them: each a line as the text holds it, redacted."""

    text: str
    said: tuple[str, ...] = ()
    """The user's messages."""
    rules: tuple[str, ...] = ()
    """The standing rules the user stated and kept (`standing_rules`), among what they said."""
    worked: tuple[str, ...] = ()
    """The commands that worked, as the digest shows them."""
    failed: tuple[str, ...] = ()
    """The commands that failed, each with its error, and the problems solved."""
    answers: tuple[str, ...] = ()
    lines: tuple[Said, ...] = ()
    """The lines a lesson may restate, the user's first: never a heading of the digest's own."""
    ran: frozenset[str] = frozenset()
    """Every command the session ran that worked (`command_key`), shown or not."""
    ran_and_failed: frozenset[str] = frozenset()
    """Every command the session ran that failed and never worked."""


def digest_of(events: Sequence[TranscriptEvent], max_chars: int = DIGEST_CHARS) -> Digest:
    """The digest of `events` (oldest first; sub-agents' left out), at most `max_chars`."""
    mainline = [event for event in events if not event.sidechain]
    said = _unique(
        shown(human_text(event.text), MESSAGE_CHARS)
        for event in mainline
        if event.role == "user" and event.text
    )[-MOST_MESSAGES:]
    ran = _commands(mainline)
    solved = [
        shown(render_solved_problem(problem), MESSAGE_CHARS)
        for problem in extract_findings(mainline).solved_problems
    ][-MOST_SOLVED:]
    answers = _unique(
        shown(event.text, ANSWER_CHARS)
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
    rules, withdrawn = standing_rules(said)
    corrected = _corrected(mainline)
    worked, failed = _outcomes(mainline)
    exchanges = [line for line in _exchanges(mainline) if line.text.endswith(tuple(said))]
    return Digest(
        text=_render(sections),
        said=tuple(said),
        rules=tuple(rules),
        worked=tuple(worked_lines[line] for line in commands if line in worked_lines),
        failed=(*(line for line in commands if line not in worked_lines), *solved),
        answers=tuple(answers),
        lines=tuple(
            line
            for line in (
                *_sentences(said, "user", rules),
                *(Said(line, "command" if line in worked_lines else "failed") for line in commands),
                *(Said(line, "solved") for line in solved),
                *_sentences(answers, "answer", ()),
                *exchanges,
            )
            if not _takes_back(line.text, withdrawn, corrected)
        ),
        ran=frozenset(worked),
        ran_and_failed=frozenset(failed - worked),
    )


def shown(text: str, limit: int) -> str:
    """`text` as a model may be shown it: without control characters, redacted, on one line,
    cut to `limit` characters — after its last whole sentence that fits, when that keeps half
    of it (a small model copies a sentence cut short as if it were whole)."""
    line = " ".join(redact_outgoing(without_controls(text)).split())
    if len(line) <= limit:
        return line
    kept = line[: limit - 2]
    ends = [end.start() for end in _SENTENCE_END.finditer(kept)]
    if ends and ends[-1] >= limit // 2:
        return kept[: ends[-1]] + " …"
    return line[: limit - 1].rstrip() + "…"


def command_key(command: str) -> str:
    """A command as two are compared: its words, one space apart, without backticks."""
    return " ".join(command.replace("`", " ").split())


def _sentences(texts: Iterable[str], source: Source, rules: Sequence[str]) -> list[Said]:
    """Each sentence of `texts`, one holding a rule of `rules` marked with it, and each text of
    more than one sentence whole; a rule no sentence holds as it is (`directives_in` tidied it)
    a line of its own."""
    lines = []
    placed: set[str] = set()
    for text in texts:
        sentences = statements(text)
        for sentence in sentences:
            lowered = sentence.lower()
            rule = next((r for r in rules if r.rstrip(".!").lower() in lowered), None)
            lines.append(Said(sentence, source, rule))
            placed.add(rule or "")
        if len(sentences) > 1:  # a lesson may copy a whole message
            lines.append(Said(text, source))
    lines += [Said(rule, source, rule) for rule in rules if rule not in placed]
    return lines


def _corrected(events: Iterable[TranscriptEvent]) -> list[str]:
    """The sentences of the conversation (as `_sentences` reads them) holding a value a later
    message says is wrong (`is_corrected_by`; the user's, only the user): no lesson's evidence."""
    seen: list[str] = []
    users: set[str] = set()
    corrected: list[str] = []
    for event in events:
        if event.role not in ("user", "assistant") or not event.text.strip():
            continue
        by_the_user = event.role == "user"
        corrected += [
            said
            for said in seen
            if said not in corrected
            and (by_the_user or said not in users)
            and is_corrected_by(said, event.text)
        ]
        if by_the_user:
            sentences = statements(shown(human_text(event.text), MESSAGE_CHARS))
            users.update(sentences)
        else:
            sentences = statements(shown(event.text, ANSWER_CHARS))
        seen += sentences
    return corrected


def _takes_back(text: str, withdrawn: Sequence[str], corrected: Sequence[str]) -> bool:
    """Whether a line holds a rule the user withdrew, or a sentence a later message corrects
    without holding that correction too (an exchange, "…at :3000." "It's on 5173, not 3000.",
    says the right value: a lesson keeping it rests on it)."""
    lowered = text.lower()
    return any(rule.rstrip(".!").lower() in lowered for rule in withdrawn) or any(
        sentence.rstrip(".!").lower() in lowered and not is_corrected_by(sentence, text)
        for sentence in corrected
    )


def _exchanges(events: Iterable[TranscriptEvent]) -> list[Said]:
    """Each user message with the last sentence of the agent's answer before it."""
    found = []
    answer = ""
    for event in events:
        if event.role == "assistant" and event.text.strip():
            sentences = statements(shown(event.text, ANSWER_CHARS))
            answer = sentences[-1] if sentences else ""
        elif event.role == "user" and event.text and answer:
            message = shown(human_text(event.text), MESSAGE_CHARS)
            if message:
                found.append(Said(f"{answer} {message}", "exchange"))
            answer = ""
    return found


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
                ran = display_command(step.command) or step.command.split("\n", 1)[0]
                error = shown(step.signature, SIGNATURE_CHARS) or "no error shown"
                found.append((shown(ran, MESSAGE_CHARS), error))
            elif step.succeeded:
                for part in chained_commands(step.command):
                    command = display_command(part)
                    if command is not None and (is_worth_keeping(part) or tool_program(part)):
                        found.append((shown(command, MESSAGE_CHARS), None))
    return list(dict.fromkeys(found))[-MOST_COMMANDS:]


def _outcomes(events: Iterable[TranscriptEvent]) -> tuple[set[str], set[str]]:
    """Every command the session's tool calls ran that worked, and that failed (`command_key`,
    redacted as shown): each part of a chain that worked, and the chain itself."""
    worked: set[str] = set()
    failed: set[str] = set()
    for event in events:
        for call in event.tool_calls:
            step = read_step(call, event.message_id or event.id, event.cwd)
            if step.command is None:
                continue
            parts = {step.command, *chained_commands(step.command)}
            keys = {command_key(shown(part, len(part) + 1)) for part in parts}
            (failed if step.failed else worked if step.succeeded else set()).update(keys)
    return worked, failed


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


def _unique(texts: Iterable[str]) -> list[str]:
    return [text for text in dict.fromkeys(texts) if text]
