"""Text Claude Code neutralizes when it loads memory (docs/formats.md §19.3): invisible
characters and text shaped like its harness's markup (`sources.claude.hidden_text`),
found in any agent's memory — what one agent wrote another may load — with the line."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Sequence

from memtab.check.findings import Found, found_in
from memtab.sources.claude.hidden_text import (
    invisible_in,
    markup_in,
    name_code_point,
    without_invisible,
)

_NAMED = 3
_INVISIBLE_WHY = (
    "Claude Code takes invisible and control characters out of memory when it loads it, "
    "and refuses to write a memory file holding them: what an agent reads is not what the "
    "file shows (a word or a key split by a zero-width space, text hidden by a bidi "
    "control). Remove them."
)
_MARKUP_WHY = (
    "Claude Code neutralizes text shaped like its harness's tags when it loads memory (it "
    "writes `<\\` for the bracket, lookalike letters too) and refuses to write a memory "
    "file holding it: an agent could take it for a message of its harness. Write it "
    "without the angle bracket."
)


def hidden_text_findings(text: str, lines: Sequence[str]) -> list[Found]:
    """One finding per line of `text` (`lines`: its lines) holding invisible characters
    (with the line without them as its fix), and one per line holding text shaped like
    Claude Code's markup."""
    starts = _line_starts(text)
    found: list[Found] = []
    invisible: dict[int, list[str]] = {}
    for offset, char in invisible_in(text):
        if offset == 0 and char == "\ufeff":
            continue  # a byte order mark: no agent reads it as text
        invisible.setdefault(bisect_right(starts, offset), []).append(char)
    for line, chars in invisible.items():
        named = _named(chars)
        found.append(
            found_in(
                text,
                lines,
                line,
                "hidden-text",
                subject=named,
                message=f"Invisible characters: {named}",
                why=_INVISIBLE_WHY,
                fix=("Remove the invisible characters", without_invisible(lines[line - 1]))
                if line <= len(lines)
                else None,
            )
        )
    marked: set[int] = set()
    for offset, written in markup_in(text):
        line = bisect_right(starts, offset)
        if line in marked:
            continue
        marked.add(line)
        shown = without_invisible(written)
        found.append(
            found_in(
                text,
                lines,
                line,
                "hidden-text",
                subject=shown,
                message=f"Text shaped like Claude Code's markup: `{shown}`",
                why=_MARKUP_WHY,
            )
        )
    return found


def _line_starts(text: str) -> list[int]:
    starts = [0]
    index = text.find("\n")
    while index >= 0:
        starts.append(index + 1)
        index = text.find("\n", index + 1)
    return starts


def _named(chars: Iterable[str]) -> str:
    distinct = list(dict.fromkeys(chars))
    named = ", ".join(name_code_point(char) for char in distinct[:_NAMED])
    more = len(distinct) - _NAMED
    return named + (f" and {more} more" if more > 0 else "")
