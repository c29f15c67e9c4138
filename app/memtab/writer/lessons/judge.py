"""The writer's lessons task (docs/formats.md §10.2): a small local model is shown a digest of the
transcript and answers with lessons; code finds the line of the conversation each restates
(`evidence.restated_line`, whatever the model quoted) and keeps a lesson only when it says what
that line says and no more: its numbers, paths, names and commands the line's, every clause of it
said there, a command one that ran and worked, a preference a standing rule the user stated —
kept in the user's own words. `job.run.LessonTools` writes the kept ones, so the model never
edits the file."""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from memtab.fs.terminal_text import without_controls
from memtab.redact import redact_outgoing
from memtab.trust.rails import CODE_SPAN, HOLDS_A_SECRET, is_standing_rule
from memtab.writer.lessons.digest import (
    ANSWERS_HEADING,
    COMMANDS_HEADING,
    NOTHING,
    SOLVED_HEADING,
    USER_HEADING,
    WORKED,
    Digest,
    Said,
    command_key,
)
from memtab.writer.lessons.evidence import (
    Found,
    Reading,
    clauses,
    covered,
    line_read,
    named_in,
    read,
    restated_by_two,
    restated_line,
    ruled_out,
    said_by_any,
    stands_in,
    things_in,
)
from memtab.writer.offline.directives import is_directive, without_filler
from memtab.writer.offline.findings import WorkingCommand
from memtab.writer.offline.notes import (
    COMMANDS,
    DIRECTIVES,
    FINDINGS,
    SOLVED_PROBLEMS,
    Note,
    render_command,
)
from memtab.writer.offline.shell.commands import command_kind, runs_a_download

SECTIONS = {
    "command": COMMANDS,
    "preference": DIRECTIVES,
    "fact": FINDINGS,
    "pitfall": SOLVED_PROBLEMS,
}
"""Where each kind of lesson goes in the notes file (the offline writer's sections)."""
MOST_LESSONS = 5
LESSON_CHARS = 300
SAID_SHARE = 0.6
"""How much of a lesson's words its line must say."""
CLAUSE_SHARE = 0.5
"""How much of each clause's words its line must say: nothing rides along."""
RULE_SHARE = 0.5
"""How much of a preference's words the user's rule must say: kept in the user's words, a
looser paraphrase still points at it."""

NOT_A_LESSON = "it is not a lesson: {kind, lesson, evidence}"
COPIES_THE_DIGEST = "it quotes Memtab's digest, not the conversation"
NOT_ONE_LINE = "it is not one short line"
TOO_MANY = f"a run keeps at most {MOST_LESSONS} lessons"
NO_EVIDENCE = "no line of the conversation says it"
SAYS_MORE = "it says what its line does not"
ADDS_TO_ITS_LINE = "a part of it is not in its line"
RULED_OUT = "it says what its line rules out"
NO_WORKING_COMMAND = "it names no command that worked in the conversation"
UNRUN_COMMAND = "it names a command that did not run and work in the conversation"
RUNS_A_DOWNLOAD = "it runs what it downloads (piped to a shell)"
NOT_THE_USERS = "its evidence is not what the user wrote"
ONE_OFF = "it is a request for that session, not a standing preference"
NO_ERROR = "it names no error met in the conversation"
HOLDS_A_REDACTION = "it holds a redaction, not a note"
NOT_ALONE = "it does not read alone"
NAMES_NOTHING = "it names no file, command or setting of the project"
PROGRESS = "it reports work done in that session, not a fact of the project"

# A lesson opening on one of these points back at the conversation ("That is src/x.ts").
_POINTING = frozenset({"that", "this", "it", "these", "those", "they", "that's", "it's"})
# What a lesson about a command may say of it beyond the command: what it does for the project.
_COMMAND_WORDS = frozenset(
    read(
        "run runs running test tests suite unit integration build builds lint linter format "
        "formats formatter check checks type types typecheck install installs dependencies "
        "start starts serve server dev project whole all pass passes green compile compiles "
        "clean generate generates migrate migrations database first after before needs need "
        "works worked working command local locally fix fixes code style"
    ).stems
)
_WORKED = read("worked works").stems
# The digest's own words around the conversation's lines: headings, its "nothing".
_SCAFFOLDING = tuple(
    heading.rstrip(":").lower()
    for heading in (USER_HEADING, COMMANDS_HEADING, SOLVED_HEADING, ANSWERS_HEADING, NOTHING)
)
# A standing rule in the user's words beyond the offline writer's readings: "No new
# dependencies without asking me first", "Stop using X", "Use X for everything, not Y", "We use
# pnpm", "Styling is Tailwind only", "one logical change per commit".
_RULE_SHAPES = re.compile(
    r"^(?:please\s+)?(?:no\s+\w+(?:\s+\w+){0,3}\s+without\b|stop\s+\w+ing\b|only\s+\w+|"
    r"don'?t\s+\w+|do\s+not\s+\w+|never\b|always\b|avoid\b|prefer\b)"
    r"|\b(?:always|never|from now on|every time|whenever|each time|going forward|"
    r"in (?:the )?future|at all times|by default|in this (?:repo|repository|project|codebase))\b"
    r"|\bwe\s+(?:use|don'?t|do not|never|always|prefer|only)\b"
    r"|\b(?:is|are)\s+\S+(?:\s+\S+)?\s+only\b"
    r"|^(?:please\s+)?(?:use|keep|put|write|name|run|stick to)\b[^.]{0,200}?"
    r"(?:,\s*not\b|\binstead of\b|\brather than\b|\bfor (?:everything|all|every)\b|\bper\b)",
    re.IGNORECASE,
)
# Work done in the session, reported: "`make lint` is clean", "Fixed the handler".
_PROGRESS = re.compile(
    r"\b(?:is|are|now) (?:clean|green|fixed|done|passing)\b"
    r"|^(?:fixed|added|updated|bumped|switched|removed|created|implemented|refactored|renamed"
    r"|moved|cleaned|wrote|ran)\b",
    re.IGNORECASE,
)
# What the user asks of this session only: "now", "this bug", "for now".
_ONE_OFF = re.compile(
    r"\b(?:now|right now|for now|today|this (?:time|bug|issue|error|file|test|function|one|"
    r"branch|pr|change)|again|quickly|asap)\b(?!\s+on\b)",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Lesson:
    """One lesson as the model gave it, its text without control characters."""

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
        return cls(str(kind), _one_line(lesson), _one_line(evidence))

    @property
    def shown(self) -> str:
        """How a refused lesson is named in the run's result."""
        return f"{self.kind}: {self.lesson}"


@dataclass(frozen=True)
class Judgement:
    """What becomes of a lesson: its note and the line of the conversation it restates, or
    why it is refused."""

    note: Note | None = None
    evidence: str | None = None
    why: str | None = None
    users_words: bool = False
    """The note is a standing rule in the user's own words: stated, whatever the rails read."""


def judge(lesson: Lesson, digest: Digest) -> Judgement:
    """The note `lesson` becomes with its evidence, or why it is refused."""
    text = lesson.lesson
    if not text or len(text) > LESSON_CHARS:
        return Judgement(why=NOT_ONE_LINE)
    if redact_outgoing(text) != text:
        return Judgement(why=HOLDS_A_SECRET)
    if "[REDACTED" in text:
        return Judgement(why=HOLDS_A_REDACTION)
    if text.split()[0].lower() in _POINTING:
        return Judgement(why=NOT_ALONE)
    if runs_a_download(text):
        return Judgement(why=RUNS_A_DOWNLOAD)
    if any(heading in text.lower() for heading in _SCAFFOLDING):
        return Judgement(why=COPIES_THE_DIGEST)
    rule = _users_rule(lesson, digest)
    if rule is not None or lesson.kind == "preference":
        return rule or _not_a_rule(lesson, digest)
    if lesson.kind == "command":
        return _command(lesson, digest)
    if lesson.kind == "pitfall":
        errors = [line for line in digest.lines if line.source in ("failed", "solved")]
        others = [line for line in digest.lines if line.source not in ("failed", "command")]
        found = restated_by_two(text, lesson.evidence, errors, others)
        if found is None or not _meets_an_error(text, errors):
            return Judgement(why=NO_ERROR)
    else:
        found = restated_line(text, lesson.evidence, digest.lines)
    if found is None or found.share < SAID_SHARE:
        return Judgement(why=NO_EVIDENCE)
    if lesson.kind == "fact" and not things_in(text):
        return Judgement(why=NAMES_NOTHING)
    if lesson.kind == "fact" and _PROGRESS.search(text):
        return Judgement(why=PROGRESS)
    missing = said_by_any(found.unsaid, _commands_named(text, digest))
    why = _says_more(text, found, missing, digest)
    if why is not None:
        return Judgement(why=why)
    return Judgement(Note(SECTIONS[lesson.kind], text), found.line.text)


def why_refused(lesson: Lesson, digest: Digest) -> str | None:
    """Why `lesson` is not kept, or None."""
    return judge(lesson, digest).why


def lesson_note(lesson: Lesson, digest: Digest) -> Note:
    """The note a kept lesson becomes (`judge`); raises ValueError for a refused one."""
    note = judge(lesson, digest).note
    if note is None:
        raise ValueError(f"a refused lesson has no note: {lesson.shown}")
    return note


def _meets_an_error(text: str, errors: Sequence[Said]) -> bool:
    """Whether a pitfall names an error a command met: a thing of a failed command's line or
    a fix's, or two of its words."""
    lesson = read(text)
    for line in errors:
        reading = line_read(line)
        if lesson.things & reading.things or len(lesson.stems & reading.stems) >= 2:
            return True
    return False


def _users_rule(lesson: Lesson, digest: Digest) -> Judgement | None:
    """The user's standing rule `lesson` restates, kept in their words: for a preference, or a
    lesson of another kind worded as a rule ("Always run `cargo clippy` before …")."""
    if lesson.kind != "preference" and not is_standing_rule(lesson.lesson):
        return None
    rules = [line for line in digest.lines if line.source == "user" and _states_a_rule(line)]
    found = restated_line(lesson.lesson, lesson.evidence, rules)
    share = RULE_SHARE if lesson.kind == "preference" else SAID_SHARE
    if found is not None and found.line.rule is None:
        # A whole message restated: the rule is the sentence of it that states one ("Commit
        # it on fix/x, I'll open the PR. Oh, and we never log bodies …"), never the errand.
        within = [line for line in rules if line is not found.line and line.text in found.line.text]
        if within:
            found = restated_line(lesson.lesson, lesson.evidence, within)
    if found is None or found.share < share:
        return None
    words = found.line.rule or without_filler(found.line.text)
    return Judgement(Note(DIRECTIVES, _as_rule_note(words)), found.line.text, users_words=True)


def _not_a_rule(lesson: Lesson, digest: Digest) -> Judgement:
    """Why a preference no rule of the user's says is refused."""
    users = tuple(line for line in digest.lines if line.source == "user")
    found = restated_line(lesson.lesson, lesson.evidence, users)
    if found is not None and found.share >= RULE_SHARE:
        return Judgement(why=ONE_OFF)
    return Judgement(why=NOT_THE_USERS)


def _states_a_rule(line: Said) -> bool:
    """Whether a sentence the user wrote is a standing rule, not a request for that session."""
    if line.rule is not None:
        return True
    text = without_filler(line.text)
    if text.rstrip().endswith("?") or _ONE_OFF.search(text.replace("from now on", "")):
        return False
    return is_directive(text) or _RULE_SHAPES.search(text) is not None


def _as_rule_note(text: str) -> str:
    """The user's sentence as a directive note: one line, its first letter up, ended."""
    text = " ".join(text.split())
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "…")) else f"{text}."


def _command(lesson: Lesson, digest: Digest) -> Judgement:
    """A lesson about commands: each it names ran and worked; what else it says, its line says
    (the commands' own lines first)."""
    text = lesson.lesson
    named = _commands_named(text, digest)
    if not named:
        return Judgement(why=NO_WORKING_COMMAND)
    if any(command_key(command) not in digest.ran for command in named):
        return Judgement(why=UNRUN_COMMAND)
    own = [Said(f"`{command}`: {WORKED}", "command") for command in named]
    why: str | None = SAYS_MORE
    for lines in (own, [*own, *digest.lines]):
        found = restated_line(text, lesson.evidence, lines)
        assert found is not None  # the command's own line is there
        missing = said_by_any(found.unsaid, named)
        why = _says_more(text, found, missing, digest, allowed=_COMMAND_WORDS)
        why = why or _adds(text, found)
        if why is None:
            return Judgement(Note(COMMANDS, _command_note(text, named)), found.line.text)
    return Judgement(why=why)


def _adds(text: str, found: Found) -> str | None:
    """Why a command lesson says more than its line and the words said of any command."""
    evidence = line_read(found.line)
    line = Reading(evidence.stems | _COMMAND_WORDS, evidence.things)
    return SAYS_MORE if covered(read(CODE_SPAN.sub(" ", text)), line) < SAID_SHARE else None


def _command_note(text: str, named: Sequence[str]) -> str:
    """A command lesson as a note: its commands as code; one saying no more than that its
    command worked ("`bun test`: worked") written as the offline writer writes one."""
    longest = max(named, key=len)
    if not read(text).stems - read(longest).stems - _WORKED:
        return render_command(WorkingCommand(longest, command_kind(longest)))
    for command in named:
        if f"`{command}`" not in text:
            text = text.replace(command, f"`{command}`", 1)
    return text


def _commands_named(text: str, digest: Digest) -> list[str]:
    """The commands a lesson names: its code spans that read as commands (a word and more, or a
    program the session ran), and the session's commands it holds unquoted; each once."""
    programs = {command.split()[0] for command in digest.ran | digest.ran_and_failed if command}
    named = [
        command_key(span)
        for span in CODE_SPAN.findall(text)
        if " " in span.strip() or span.strip() in programs
    ]
    bare = command_key(CODE_SPAN.sub(" ", text))
    for command in _known_commands(digest):
        if stands_in(command, bare):
            named.append(command)
            bare = bare.replace(command, " ")
    return list(dict.fromkeys(named))


@functools.lru_cache(maxsize=16)
def _known_commands(digest: Digest) -> tuple[str, ...]:
    """The session's commands a lesson may name unquoted, the longest first."""
    known = (command for command in digest.ran | digest.ran_and_failed if len(command) >= 4)
    return tuple(sorted(known, key=len, reverse=True))


@functools.lru_cache(maxsize=16)
def _users_denials(digest: Digest) -> frozenset[str]:
    """What the user rules out anywhere in the session ("We use pnpm, not npm")."""
    users = (line.text for line in digest.lines if line.source == "user")
    return frozenset().union(*map(ruled_out, users))


def _says_more(
    text: str,
    found: Found,
    missing: frozenset[str],
    digest: Digest,
    allowed: frozenset[str] = frozenset(),
) -> str | None:
    """Why `text` says more than its line: a thing it does not say, a clause it does not
    hold, a thing it or the user rules out; None when the lesson says what its line says."""
    if missing:
        return f"{SAYS_MORE}: {', '.join(sorted(missing))}"
    evidence = line_read(found.line)
    line = Reading(evidence.stems | allowed, evidence.things)
    for clause in clauses(text):
        reading = read(clause)
        if len(reading.stems) >= 2 and covered(reading, line) < CLAUSE_SHARE:
            return ADDS_TO_ITS_LINE
    named = named_in(text)
    denied = ruled_out(text)
    # as its line says each, ruled out or not ("on 5173, not 3000" is no "3000, not 5173"); an
    # error's "not found" rules nothing out
    said = found.line.source in ("user", "exchange", "answer")
    line_denied = ruled_out(found.line.text) if said else frozenset()
    if any((thing in denied) != (thing in line_denied) for thing in named & line_denied):
        return RULED_OUT
    if (named - denied) & _users_denials(digest):
        return RULED_OUT
    return None


def _one_line(text: str) -> str:
    """A model's text on one line, without control characters; its backticks dropped when they
    do not pair (a span left open reads the words after it as code)."""
    line = " ".join(without_controls(text).split())
    return line.replace("`", "") if line.count("`") % 2 else line
