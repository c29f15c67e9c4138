"""Where Claude Code stops reading its auto memory's `MEMORY.md` (docs/formats.md §17.6): 200
lines or 25,000 UTF-16 units, at a line's end; one `index_cut` for the listing, the loads view
and the editor."""

from __future__ import annotations

from dataclasses import dataclass

INDEX_NAME = "MEMORY.md"
INDEX_MAX_LINES = 200
INDEX_MAX_UNITS = 25_000
"""UTF-16 code units (what JavaScript's `length` counts), which the docs call 25KB."""


@dataclass(frozen=True)
class IndexCut:
    """How much of a `MEMORY.md` Claude Code reads."""

    lines: int
    """Lines of the file (a last line without a newline counts)."""
    loaded_lines: int
    """Whole lines read, counted in the file (leading blank lines Claude Code trims count)."""
    cut_at_line: int | None
    """The first line not read whole (1-based), or None when the file is read whole."""
    loaded_text: str
    """What Claude Code reads of the file (after its trim and cut)."""
    reason: str | None = None
    """`lines` or `size`: which limit cut it."""


def utf16_units(text: str) -> int:
    """JavaScript's `text.length`: characters outside the BMP count two (by the codec: the
    editor asks on every change)."""
    if text.isascii():
        return len(text)
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def count_lines(text: str) -> int:
    """Lines as an editor shows them (a final line without a newline counts)."""
    if not text:
        return 0
    return text.count("\n") + (0 if text.endswith("\n") else 1)


def index_cut(text: str) -> IndexCut:
    """Where Claude Code's cut falls on `text` (see the module doc)."""
    total = count_lines(text)
    trimmed = text.strip()
    if not trimmed:
        return IndexCut(total, total, None, "")
    leading = text[: len(text) - len(text.lstrip())].count("\n")
    lines = trimmed.split("\n")
    kept = lines[:INDEX_MAX_LINES]
    reason = "lines" if len(lines) > INDEX_MAX_LINES else None
    joined = "\n".join(kept)
    partial = False
    if utf16_units(joined) > INDEX_MAX_UNITS:
        reason = "size"
        whole, end = 0, -1
        for line in kept:
            end += utf16_units(line) + 1  # the index of the newline after this line
            if end > INDEX_MAX_UNITS or whole == len(kept) - 1:
                break
            whole += 1
        if whole == 0:  # no newline before the limit: JavaScript cuts mid-line
            partial = True
            joined = _first_units(kept[0], INDEX_MAX_UNITS)
        else:
            kept = kept[:whole]
            joined = "\n".join(kept)
    if reason is None:
        return IndexCut(total, total, None, trimmed)
    loaded = leading + (0 if partial else len(kept))
    return IndexCut(total, loaded, loaded + 1, joined, reason)


def _first_units(text: str, units: int) -> str:
    taken = 0
    for index, char in enumerate(text):
        taken += 2 if ord(char) > 0xFFFF else 1
        if taken > units:
            return text[:index]
    return text


def index_warning(cut: IndexCut) -> str | None:
    """The listing's one-line warning for a `MEMORY.md` Claude Code does not read whole."""
    if cut.cut_at_line is None:
        return None
    limit = (
        f"its first {INDEX_MAX_LINES} lines"
        if cut.reason == "lines"
        else f"its first {INDEX_MAX_UNITS:,} characters"
    )
    return (
        f"MEMORY.md has {cut.lines} lines: Claude Code reads only {limit} into a session; "
        f"from line {cut.cut_at_line} on it does not read"
    )


CONTINUED_STEM = "MEMORY-continued"
CONTINUED_TOPIC = (
    "---\n"
    "name: MEMORY.md, continued\n"
    "description: Index entries moved past MEMORY.md's cut, which Claude Code does not load "
    "at a session's start\n"
    "type: reference\n"
    "---\n\n"
)


def move_past_cut(text: str, topic: str) -> tuple[str, str] | None:
    """`text` with the lines Claude Code does not read moved into `topic`, linked in place of
    its last read line, and the lines moved; None when it reads all."""
    cut = index_cut(text)
    if cut.cut_at_line is None:
        return None
    lines = text.split("\n")
    keep = max(0, cut.cut_at_line - 2)
    moved = "\n".join(lines[keep:])
    link = f"- [More of this index]({topic}) — entries past the cut Claude Code reads to"
    return "\n".join([*lines[:keep], link]) + "\n", moved if moved.endswith("\n") else moved + "\n"


def lines_past_cut(text: str) -> int:
    """How many lines of `text` Claude Code does not read whole."""
    cut = index_cut(text)
    return 0 if cut.cut_at_line is None else cut.lines - cut.cut_at_line + 1


def is_cut_index(agent: str, name: str) -> bool:
    """Whether Claude Code reads this file only to its cut (a `MEMORY.md` of auto memory)."""
    return agent == "claude-code" and name == INDEX_NAME
