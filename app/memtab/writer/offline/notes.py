"""Add the offline writer's findings to a Markdown memory file, saying each thing once."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from memtab.markdown import LineKind, classify
from memtab.redact import redact_secrets
from memtab.store.paths import Scope

if TYPE_CHECKING:  # lazy: the writer's engine (~1.4 MiB, ~140 ms) with its first run
    from memtab.writer.offline.findings import Findings, OriginKind, WorkflowTool, WorkingCommand
    from memtab.writer.offline.solved_problems import SolvedProblem

GOAL = "Goal"  # no longer written; a suggestion older versions queued still applies
DIRECTIVES = "Directives"
DECISIONS = "Decisions"
COMMANDS = "Commands that work"
SOLVED_PROBLEMS = "Fixes"
FINDINGS = "Findings"
KNOWN_FAILURES = "Known failures"  # written by older versions; solved problems replace its bullets
SECTION_ORDER = (GOAL, DIRECTIVES, DECISIONS, COMMANDS, SOLVED_PROBLEMS, FINDINGS)
MAX_NOTE_CHARS = 500  # a suggestion's limit too (`suggestions.MAX_TEXT_CHARS`)
# What one person reviews from one run: past this, a run keeps its surest notes (mux's
# harvest has no count limit, only a confidence floor; a 200 MB session found ~100).
MAX_NOTES_PER_RUN = 20
# Surest first: what the user said, then what a command proved, then what the agent said.
_SUREST_FIRST = (DIRECTIVES, DECISIONS, SOLVED_PROBLEMS, COMMANDS, FINDINGS)

NEW_FILE_HEADER = (
    "---\n"
    "description: What this workspace taught its coding agents — the user's goal, "
    "directives and decisions, commands that work, fixes and findings\n"
    "---\n"
    "\n"
    "# Workspace notes\n"
)
# A notes file accepted Inbox items start in project or global memory (§10.5).
NEW_FILE_HEADERS = {
    Scope.PROJECT: (
        "---\n"
        "description: What coding agents learned about this project — the user's directives "
        "and decisions, commands that work, fixes and findings\n"
        "---\n"
        "\n"
        "# Project notes\n"
    ),
    Scope.GLOBAL: (
        "---\n"
        "description: The user's preferences and rules for coding agents, in every project\n"
        "---\n"
        "\n"
        "# Notes for every project\n"
    ),
}

_WORD = re.compile(r"[^\W_][\w./-]*[^\W_]|[^\W_]")
_STOPWORDS = frozenset(
    (
        *("a", "an", "the", "to", "of", "for", "in", "on", "at", "and", "or", "so"),
        *("is", "are", "be", "been", "do", "does", "it", "its", "this", "that", "these"),
        *("those", "you", "your", "we", "our", "us", "i", "my", "me", "before", "after"),
        *("with", "by", "as", "when", "then", "from", "into"),
    )
)
_SUFFIXES = ("ing", "ed", "es", "s")
# How much of a finding's wording one existing line must hold to count as saying it.
DIRECTIVE_OVERLAP = 0.75
SIGNATURE_OVERLAP = 0.6
_MIN_FUZZY_WORDS = 3
_FAILURE_WORD = re.compile(r"\bfail", re.IGNORECASE)
_FIXED_WORDS = re.compile(r"\bfixed\b|\bworked\b", re.IGNORECASE)
_QUOTES = re.compile(r"[`*_\"'“”‘’]")
_NUMBER = re.compile(r"\d+")


@dataclass(frozen=True)
class Note:
    """One bullet for a section (its text, without the `- `). `replaces` is the key of a
    `## Known failures` bullet this solved problem supersedes; `message_ids` are the transcript
    messages it was drawn from (docs/formats.md §20.1), not part of what the note says."""

    section: str
    text: str
    replaces: tuple[str, str] | None = None
    message_ids: tuple[str, ...] = field(default=(), compare=False)

    @property
    def bullet(self) -> str:
        return f"- {self.text}"


def normalize(text: str) -> str:
    """Text as compared for duplicates: lower case, no quotes/backticks/emphasis, every
    number as 0, whitespace collapsed."""
    return " ".join(_NUMBER.sub("0", _QUOTES.sub("", text.lower())).split())


def significant_words(text: str) -> frozenset[str]:
    """The words that carry a line's meaning: normalized, no stopwords, crudely stemmed
    (`pushing` → `push`)."""
    return frozenset(
        _stem(word) for word in _WORD.findall(normalize(text)) if word not in _STOPWORDS
    )


def _stem(word: str) -> str:
    for suffix in _SUFFIXES:
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


def _overlap(words: frozenset[str], line_words: frozenset[str]) -> float:
    return len(words & line_words) / len(words) if words else 0.0


def render_command(working: WorkingCommand) -> str:
    """The note text of a working command."""
    suffix = f" ({working.kind})" if working.kind else ""
    return f"{_code(working.command)}{suffix}"


def render_tool(tool: WorkflowTool) -> str:
    """The note text of a workflow tool: the program and the invocations that worked."""
    examples = ", ".join(_code(example) for example in tool.examples)
    return f"{_code(tool.program)} is part of this project's workflow; these worked: {examples}."


def render_solved_problem(solved: SolvedProblem) -> str:
    """The note text of a solved problem: what failed, how, and what made it work."""
    head = f"{_code(solved.action)} failed: {_code(solved.signature)}"
    steps = _join_steps(solved.solving_steps)
    if steps and solved.worked_with:
        return f"{head} — fixed by {steps}, then {_code(solved.worked_with)} worked."
    if steps:
        return f"{head} — fixed by {steps}."
    return f"{head} — {_code(solved.worked_with or solved.action)} worked instead."


def _join_steps(steps: Sequence[str]) -> str:
    if len(steps) <= 1:
        return "".join(steps)
    return ", ".join(steps[:-1]) + " and " + steps[-1]


def _code(text: str) -> str:
    """Inline code that survives backticks inside the text."""
    return f"`{text}`" if "`" not in text else f"`` {text} ``"


def plan_notes(existing: str, findings: Findings) -> list[Note]:
    """The notes `existing` does not already hold, in section order, secrets redacted;
    each with the messages its finding was drawn from (`Findings.origin_of`)."""
    known = _KnownLines(existing.split("\n"))
    planned: list[Note] = []

    def add(note: Note, kind: OriginKind, key: str) -> None:
        if all(note.text != other.text for other in planned):
            planned.append(replace(note, message_ids=findings.origin_of(kind, key)))

    for directive in findings.directives:
        if not known.has_words(directive):
            add(Note(DIRECTIVES, directive), "directive", directive)
    for command in findings.commands:
        if not known.has_command(command.command):
            add(Note(COMMANDS, render_command(command)), "command", command.command)
    for tool in findings.tools:
        if not all(known.has_command(example) for example in tool.examples):
            add(Note(COMMANDS, render_tool(tool)), "tool", tool.program)
    for solved in findings.solved_problems:
        if not known.has_solved_problem(solved):
            replaces = (solved.action, solved.signature)
            add(Note(SOLVED_PROBLEMS, render_solved_problem(solved), replaces), "fix", solved.key)
    for finding in findings.findings:
        if not known.has_words(finding):
            add(Note(FINDINGS, finding), "finding", finding)
    return [
        replace(note, text=redact_secrets(note.text))
        for section in SECTION_ORDER
        for note in planned
        if note.section == section and is_one_line_note(note.text)
    ]


_PROHIBITED = re.compile(
    r"\b(?:never|don't|do not)\s+(?:ever\s+)?(?:run\s+|use\s+|call\s+)?(`[^`\n]+`|[\w.+-]+)",
    re.IGNORECASE,
)
# A flag the user forbids a command to carry: "Never run the job with `--env prod`", "don't
# pass `--no-verify`" ("without `--dry-run`" asks for the flag, so it is not one).
_PROHIBITED_FLAG = re.compile(
    r"\b(?:never|don't|do not)\b[^.;\n]{0,200}?"
    r"\b(?:with|pass|passing|use|add|adding)\s+`(-[^`\n]+)`",
    re.IGNORECASE,
)
_NOTE_COMMAND = re.compile(r"`([^`\n]+)`")


def notes_to_propose(existing: str, findings: Findings) -> list[Note]:
    """The notes a run proposes (`plan_notes`), but a command the user forbade
    (`not_prohibited`), alone or among a workflow tool's commands that worked: the offline
    writer's and those a model judges alike."""
    forbidden = _forbidden(findings.directives)
    tools = [
        replace(tool, examples=allowed)
        for tool in findings.tools
        if (allowed := tuple(e for e in tool.examples if not _ruled_out(e, forbidden)))
    ]
    planned = plan_notes(existing, replace(findings, tools=tools))
    return not_prohibited(planned, findings.directives)


def not_prohibited(notes: Sequence[Note], directives: Sequence[str]) -> list[Note]:
    """`notes` without the commands a directive of the user forbids ("Never run npm in this
    repo." rules out `npm install`; "Never run `cargo publish`." that command alone)."""
    forbidden = _forbidden(directives)

    def ruled_out(note: Note) -> bool:
        command = note_command(note)
        return command is not None and _ruled_out(command, forbidden)

    return [note for note in notes if not ruled_out(note)]


def note_command(note: Note) -> str | None:
    """The command a note of *Commands that work* is about: its first code span."""
    command = _NOTE_COMMAND.search(note.text) if note.section == COMMANDS else None
    return command.group(1) if command is not None else None


def _forbidden(directives: Sequence[str]) -> list[list[str]]:
    """The commands (as words) the user's directives forbid, and the flags (words from a `-`)
    no command may carry."""
    said = [
        match.group(1).rstrip(".,;:!?").strip("`")
        for directive in directives
        for pattern in (_PROHIBITED, _PROHIBITED_FLAG)
        for match in pattern.finditer(directive)
    ]
    return [words for text in said if (words := text.split())]


def _ruled_out(command: str, forbidden: Sequence[Sequence[str]]) -> bool:
    """Whether `command` starts with a forbidden command or carries a forbidden flag (its
    words in a row, quotes aside: `sbt "run --env prod"` carries `--env prod`)."""
    words = [word.strip("\"'") for word in command.split()]
    return any(
        _holds_in_a_row(words, list(out)) if out[0].startswith("-") else words[: len(out)] == out
        for out in forbidden
    )


def _holds_in_a_row(words: Sequence[str], part: Sequence[str]) -> bool:
    return any(list(words[i : i + len(part)]) == list(part) for i in range(len(words)))


def surest_notes(notes: Sequence[Note], limit: int = MAX_NOTES_PER_RUN) -> tuple[list[Note], int]:
    """At most `limit` of `notes` — the surest sections first (`_SUREST_FIRST`), each section's own
    order kept (findings come ranked) — in section order, and how many were left out."""
    ranked = sorted(notes, key=lambda note: _SUREST_FIRST.index(note.section))
    kept = {id(note) for note in ranked[:limit]}
    return [note for note in notes if id(note) in kept], max(0, len(notes) - limit)


def is_one_line_note(text: str) -> bool:
    """A note is one line that fits a suggestion: never a pasted block."""
    return bool(text.strip()) and "\n" not in text and len(text) <= MAX_NOTE_CHARS


def apply_notes(existing: str, notes: Sequence[Note], *, header: str = NEW_FILE_HEADER) -> str:
    """`existing` with these notes added under their sections (unchanged if none); an
    empty file starts with `header`."""
    if not notes:
        return existing
    if not existing.strip():
        return _new_file(notes, header)
    return _apply(existing.split("\n"), notes)


def notes_missing_from(existing: str, notes: Sequence[Note]) -> list[Note]:
    """The notes `existing` does not already say: neither a line of it (compared
    normalized) nor most of its words on one line, as the writer judges its own notes —
    accepting "Always run `make check` before pushing anything." beside "Always run `make
    check` before pushing (user directive)." added a second line saying the same."""
    present = {normalize(line.strip()) for line in existing.split("\n")}
    known = _KnownLines(existing.split("\n"))
    return [
        note
        for note in notes
        if normalize(note.bullet) not in present and not known.has_words(note.text)
    ]


class _KnownLines:
    """What an existing file already says, normalized once."""

    def __init__(self, lines: Sequence[str]) -> None:
        self._lines = [(line, normalize(line), significant_words(line)) for line in lines]
        self._whole = normalize(" ".join(lines))

    def has_words(self, text: str) -> bool:
        """A directive or finding: the whole of it, or most of its words on one line."""
        if normalize(text).rstrip(".!。") in self._whole:
            return True
        words = significant_words(text)
        return len(words) >= _MIN_FUZZY_WORDS and any(
            _overlap(words, line_words) >= DIRECTIVE_OVERLAP for _, _, line_words in self._lines
        )

    def has_command(self, command: str) -> bool:
        key = normalize(command)
        return any(key in norm and not _FAILURE_WORD.search(line) for line, norm, _ in self._lines)

    def has_solved_problem(self, solved: SolvedProblem) -> bool:
        action, signature = normalize(solved.action), normalize(solved.signature)
        for line, norm, line_words in self._lines:
            if action in norm and signature in norm and _FIXED_WORDS.search(line):
                return True
            if solved.family and normalize(solved.family) in norm:
                if self._names_the_solution(solved, norm):
                    return True
                words = significant_words(solved.signature)
                if _FIXED_WORDS.search(line) and _overlap(words, line_words) >= SIGNATURE_OVERLAP:
                    return True
        return False

    @staticmethod
    def _names_the_solution(solved: SolvedProblem, norm: str) -> bool:
        """Whether a line names every step that solved it (or the command that then worked)."""
        parts = [normalize(step).removeprefix("editing ") for step in solved.solving_steps]
        if solved.worked_with:
            parts.append(normalize(solved.worked_with))
        return bool(parts) and all(part in norm for part in parts)


def _new_file(notes: Sequence[Note], header: str) -> str:
    parts = [header]
    for section in SECTION_ORDER:
        bullets = [note.bullet for note in notes if note.section == section]
        if bullets:
            parts.append(f"\n## {section}\n\n" + "\n".join(bullets) + "\n")
    return "".join(parts)


def _apply(lines: list[str], notes: Sequence[Note]) -> str:
    lines = _drop_superseded(lines, [note.replaces for note in notes if note.replaces])
    for section in SECTION_ORDER:
        bullets = [note.bullet for note in notes if note.section == section]
        if not bullets:
            continue
        span = _section_span(lines, section)
        if span is None:
            while lines and not lines[-1].strip():
                lines.pop()
            lines.extend(["", f"## {section}", "", *bullets])
            continue
        start, end = span
        insert_at = end
        while insert_at > start + 1 and not lines[insert_at - 1].strip():
            insert_at -= 1
        if insert_at == start + 1:
            lines[insert_at:insert_at] = ["", *bullets]
        else:
            lines[insert_at:insert_at] = bullets
    while lines and not lines[-1].strip():
        lines.pop()
    return "\n".join(lines) + "\n"


def _section_span(lines: Sequence[str], title: str) -> tuple[int, int] | None:
    """(heading index, index after the section's last line) of `## <title>`, any case — headings as
    the one classifier tells them (`memtab.markdown`: never in a code block or the frontmatter)."""
    wanted = title.lower()
    kinds = classify(lines)
    for index, found in enumerate(kinds):
        if found.kind is LineKind.HEADING and found.level == 2 and found.text.lower() == wanted:
            end = index + 1
            while end < len(lines):
                following = kinds[end]
                if following.kind is LineKind.HEADING and following.level <= 2:
                    break
                end += 1
            return index, end
    return None


def _drop_superseded(lines: list[str], drop: Sequence[tuple[str, str]]) -> list[str]:
    """Remove "known failure" bullets that a solved problem now covers."""
    span = _section_span(lines, KNOWN_FAILURES)
    if span is None or not drop:
        return lines
    start, end = span
    keys = [(normalize(action), normalize(signature)) for action, signature in drop]
    kept = [
        line
        for line in lines[start + 1 : end]
        if not any(a in normalize(line) and s in normalize(line) for a, s in keys)
    ]
    if not any(line.strip() for line in kept):
        # The section is now empty: remove it with its heading.
        return lines[:start] + lines[end:]
    return lines[: start + 1] + kept + lines[end:]
