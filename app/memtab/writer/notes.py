"""Merge the offline writer's findings into a Markdown memory file, saying each thing once.

Findings become bullets under fixed sections — `## Directives`, `## Commands that work`,
`## Fixes`, `## Known failures` — appended at the end of the section when the file has
it, or as a new section at the end of the file. Nothing else in the file is touched, so
the user's own notes (and a model's) survive. A new file gets a `description:`
frontmatter and a title.

Each finding is compared with what the file already says after normalizing both sides
(case, quotes and backticks, digits, whitespace), so a second run over the same
transcript — or a line the user rephrased only in case or formatting — adds nothing.
Notes the user (or a model) wrote in their own words count too: a directive is known
when one line holds most of its words, a failure when a line names the command and most
of its error (or, for a fixed one, the command and every step of the fix). When a failure
recorded as known turns out fixed, its "known failure" bullet is replaced by the fix.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from memtab.writer.extract import Failure, Findings, WorkingCommand

DIRECTIVES = "Directives"
COMMANDS = "Commands that work"
FIXES = "Fixes"
KNOWN_FAILURES = "Known failures"
SECTION_ORDER = (DIRECTIVES, COMMANDS, FIXES, KNOWN_FAILURES)

NEW_FILE_HEADER = (
    "---\n"
    "description: What this workspace taught its coding agents — the user's directives, "
    "commands that work, and fixes for failures\n"
    "---\n"
    "\n"
    "# Workspace notes\n"
)

_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_WORD = re.compile(r"[a-z0-9][a-z0-9./-]*[a-z0-9]|[a-z0-9]")
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


def normalize(text: str) -> str:
    """Text as compared for duplicates: lower case, no quotes/backticks/emphasis, every
    number as 0, whitespace collapsed."""
    text = text.lower()
    text = re.sub(r"[`*_\"'“”‘’]", "", text)
    text = re.sub(r"\d+", "0", text)
    return " ".join(text.split())


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
    """The bullet of a working command."""
    suffix = f" ({working.kind})" if working.kind else ""
    return f"- {_code(working.command)}{suffix}"


def render_failure(failure: Failure) -> str:
    """The bullet of a fixed or a known failure."""
    head = f"- {_code(failure.action)} failed: {_code(failure.signature)}"
    if not failure.resolved:
        return head
    steps = _join_steps(failure.fix_steps)
    if steps and failure.worked_with:
        return f"{head} — fixed by {steps}, then {_code(failure.worked_with)} worked."
    if steps:
        return f"{head} — fixed by {steps}."
    if failure.worked_with:
        return f"{head} — {_code(failure.worked_with)} worked instead."
    return f"{head} — it worked when run again."


def _join_steps(steps: Sequence[str]) -> str:
    if len(steps) <= 1:
        return "".join(steps)
    return ", ".join(steps[:-1]) + " and " + steps[-1]


def _code(text: str) -> str:
    """Inline code that survives backticks inside the text."""
    if "`" not in text:
        return f"`{text}`"
    return f"`` {text} ``"


@dataclass
class _Plan:
    """New bullets per section, and bullets to drop (superseded known failures)."""

    bullets: dict[str, list[str]] = field(default_factory=dict)
    drop: list[tuple[str, str]] = field(default_factory=list)  # (action, signature)

    def add(self, section: str, bullet: str) -> None:
        existing = self.bullets.setdefault(section, [])
        if bullet not in existing:
            existing.append(bullet)

    @property
    def empty(self) -> bool:
        return not any(self.bullets.values()) and not self.drop


def merge_findings(existing: str, findings: Findings) -> str:
    """`existing` with the findings it does not already hold added (unchanged if none)."""
    lines = existing.split("\n")
    known = _KnownLines(lines)
    plan = _Plan()
    for directive in findings.directives:
        if not known.has_directive(directive):
            plan.add(DIRECTIVES, f"- {directive}")
    for command in findings.commands:
        if not known.has_command(command.command):
            plan.add(COMMANDS, render_command(command))
    for failure in findings.failures:
        if failure.resolved:
            if not known.has_failure(failure, fixed=True):
                plan.add(FIXES, render_failure(failure))
                plan.drop.append((failure.action, failure.signature))
        elif not known.has_failure(failure, fixed=False):
            plan.add(KNOWN_FAILURES, render_failure(failure))
    if plan.empty:
        return existing
    if not existing.strip():
        return _new_file(plan)
    return _apply(lines, plan)


class _KnownLines:
    """What an existing file already says, normalized once."""

    def __init__(self, lines: Sequence[str]) -> None:
        self._lines = [(line, normalize(line), significant_words(line)) for line in lines]
        self._whole = normalize(" ".join(lines))

    def has_directive(self, directive: str) -> bool:
        if normalize(directive).rstrip(".!") in self._whole:
            return True
        words = significant_words(directive)
        return len(words) >= _MIN_FUZZY_WORDS and any(
            _overlap(words, line_words) >= DIRECTIVE_OVERLAP for _, _, line_words in self._lines
        )

    def has_command(self, command: str) -> bool:
        key = normalize(command)
        return any(key in norm and not _FAILURE_WORD.search(line) for line, norm, _ in self._lines)

    def has_failure(self, failure: Failure, *, fixed: bool) -> bool:
        action, signature = normalize(failure.action), normalize(failure.signature)
        for line, norm, line_words in self._lines:
            if action in norm and signature in norm and (not fixed or _FIXED_WORDS.search(line)):
                return True
            if failure.family and normalize(failure.family) in norm:
                if fixed and self._names_the_fix(failure, norm):
                    return True
                words = significant_words(failure.signature)
                if not fixed and _overlap(words, line_words) >= SIGNATURE_OVERLAP:
                    return True
        return False

    @staticmethod
    def _names_the_fix(failure: Failure, norm: str) -> bool:
        """Whether a line names every step of the fix (or the command that then worked)."""
        parts = [normalize(step).removeprefix("editing ") for step in failure.fix_steps]
        if failure.worked_with:
            parts.append(normalize(failure.worked_with))
        return bool(parts) and all(part in norm for part in parts)


def _new_file(plan: _Plan) -> str:
    parts = [NEW_FILE_HEADER]
    for section in SECTION_ORDER:
        bullets = plan.bullets.get(section)
        if bullets:
            parts.append(f"\n## {section}\n\n" + "\n".join(bullets) + "\n")
    return "".join(parts)


def _apply(lines: list[str], plan: _Plan) -> str:
    lines = _drop_superseded(lines, plan.drop)
    for section in SECTION_ORDER:
        bullets = plan.bullets.get(section)
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
    """(heading index, index after the section's last line) of `## <title>`, any case."""
    wanted = title.lower()
    for index, line in enumerate(lines):
        match = _HEADING.match(line)
        if match and len(match.group(1)) == 2 and match.group(2).lower() == wanted:
            end = index + 1
            while end < len(lines):
                following = _HEADING.match(lines[end])
                if following and len(following.group(1)) <= 2:
                    break
                end += 1
            return index, end
    return None


def _drop_superseded(lines: list[str], drop: Sequence[tuple[str, str]]) -> list[str]:
    """Remove "known failure" bullets that a fix now covers."""
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
