"""How the offline consolidator reads a Markdown memory file: units, sections and blocks.

A file is cut into *units* — lines that stand or go together:

- structure, never removed as "repeated": frontmatter, blank lines, headings, rules,
  fenced code blocks, table rows, HTML comments, and *labels* — a line that names what
  follows (`Preference signals:`, `- **Why:**`) or a `key: value` line
  (`task_outcome: success`, `- Pending: 3`);
- content: a paragraph line, or a list item with its indented continuation lines.

Every unit belongs to a *section* (the lines under one heading, up to the next heading)
and a *block* (the lines under one heading or label, up to the next of either). Content
compares equal modulo whitespace runs and the bullet marker; content shorter than
`MIN_LINE_CHARS` never counts (too generic).

`clean_lines` removes only content: a bullet or paragraph repeated in the same section,
and one that already stands in a wider scope. A removal that would leave a block with no
content (a heading or label with nothing under it) is not made.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Literal

from memtab.fs.atomic import encode_utf8
from memtab.store.frontmatter import find_frontmatter

MIN_LINE_CHARS = 12
SHINGLE_WORDS = 3

UnitKind = Literal[
    "frontmatter", "blank", "heading", "rule", "code", "table", "comment", "label", "text"
]
STRUCTURE_KINDS: frozenset[UnitKind] = frozenset(
    ("frontmatter", "heading", "rule", "code", "table", "comment", "label")
)

_BULLET = re.compile(r"^(?:[-*+]|\d+[.)])\s+")
HEADING = re.compile(r"^#{1,6}(?:\s|$)")
_RULE = re.compile(r"^(?:(?:\*\s*){3,}|(?:-\s*){3,}|(?:_\s*){3,})$")
_FENCE = re.compile(r"^(`{3,}|~{3,})")
_WORD = re.compile(r"\w+")
_EMPHASIS = re.compile(r"^[*_]{1,3}|[*_]{1,3}$")
# A label: text ending in a colon, or a short key (at most four words, no sentence
# punctuation) followed by a colon and a value. `**Why:** …` and `task_outcome: x` are
# labels; `Run make check: it …` after six words is not.
_ENDS_IN_COLON = re.compile(r"[:：]\s*$")
_KEY_VALUE = re.compile(r"^[^\W\d][\w\-/()]*(?:[ \t][\w\-/()]+){0,3}[ \t]*[:：](?:\s|$)")


@dataclass(frozen=True)
class Unit:
    """Lines `start:end` of a file, their kind and compared form.

    `head` is the compared form of the first line of a multi-line list item, else "".
    `section` / `block` are the index of the heading (or label) unit the unit sits under,
    -1 before the first one.
    """

    start: int
    end: int
    kind: UnitKind
    key: str = ""
    head: str = ""
    section: int = -1
    block: int = -1

    @property
    def substantive(self) -> bool:
        """Content worth comparing: a bullet or paragraph long enough not to be generic."""
        return self.kind == "text" and len(self.key) >= MIN_LINE_CHARS

    @property
    def structure(self) -> bool:
        return self.kind in STRUCTURE_KINDS

    @property
    def content(self) -> bool:
        """What a heading or label is there for: text, code or a table."""
        return self.kind in ("text", "code", "table")

    @property
    def single(self) -> bool:
        return self.end - self.start == 1


def normalize_line(line: str) -> str:
    """A line as compared: whitespace runs collapsed, any bullet marker written `- `."""
    text = " ".join(line.split())
    return _BULLET.sub("- ", text, count=1)


def is_label(line: str) -> bool:
    """Whether a line names what follows it, or is a `key: value` pair (see module doc)."""
    text = _BULLET.sub("", line.strip(), count=1)
    text = _EMPHASIS.sub("", text.replace("**", "").replace("__", "")).strip()
    if not text:
        return False
    return bool(_ENDS_IN_COLON.search(text) or _KEY_VALUE.match(text))


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _frontmatter_end(lines: Sequence[str]) -> int | None:
    """How many lines the frontmatter takes (by the store's one frontmatter rule)."""
    text = "\n".join(lines) + "\n"
    span = find_frontmatter(text)
    return None if span is None else text[: span.end].count("\n")


def split_units(lines: Sequence[str]) -> list[Unit]:
    """Cut a file's lines into units (see the module docstring)."""
    raw: list[tuple[int, int, UnitKind, str, str]] = []
    index = 0
    end = _frontmatter_end(lines)
    if end is not None:
        raw.append((0, end, "frontmatter", "", ""))
        index = end
    while index < len(lines):
        stripped = lines[index].strip()
        fence = _FENCE.match(stripped)
        if not stripped:
            raw.append((index, index + 1, "blank", "", ""))
        elif fence:
            close = index + 1
            while close < len(lines) and not lines[close].strip().startswith(fence.group(1)):
                close += 1
            close = min(close + 1, len(lines))
            key = "\n".join(normalize_line(text) for text in lines[index:close])
            raw.append((index, close, "code", key, ""))
        elif HEADING.match(stripped):
            raw.append((index, index + 1, "heading", normalize_line(stripped), ""))
        elif _RULE.match(stripped):
            raw.append((index, index + 1, "rule", "", ""))
        elif stripped.startswith("|"):
            raw.append((index, index + 1, "table", normalize_line(stripped), ""))
        elif stripped.startswith("<!--"):
            raw.append((index, index + 1, "comment", normalize_line(stripped), ""))
        else:
            close = index + 1
            base = _indent(lines[index])
            while close < len(lines) and lines[close].strip() and _indent(lines[close]) > base:
                close += 1
            normalized = [normalize_line(text) for text in lines[index:close]]
            kind: UnitKind = "label" if is_label(lines[index]) else "text"
            head = normalized[0] if close - index > 1 else ""
            raw.append((index, close, kind, "\n".join(normalized), head))
        index = raw[-1][1]
    units: list[Unit] = []
    section = block = -1
    for position, (start, stop, kind, key, head) in enumerate(raw):
        if kind == "heading":
            section = block = position
        elif kind == "label":
            block = position
        units.append(Unit(start, stop, kind, key, head, section, block))
    return units


def text_size(lines: Sequence[str]) -> int:
    """Bytes of the lines joined by newlines (a file's size, give or take its last newline)."""
    return len(encode_utf8("\n".join(lines)))


@dataclass
class Coverage:
    """Content that already stands somewhere: unit keys, and heads of detailed items."""

    keys: set[str] = field(default_factory=set)
    heads: set[str] = field(default_factory=set)

    def add(self, unit: Unit) -> None:
        self.keys.add(unit.key)
        if unit.head:
            self.heads.add(unit.head)

    def update(self, other: Coverage) -> None:
        self.keys |= other.keys
        self.heads |= other.heads

    def covers(self, unit: Unit) -> bool:
        """True when the unit says nothing this content does not already say."""
        return unit.key in self.keys or (unit.single and unit.key in self.heads)


def coverage_of(units: Sequence[Unit]) -> Coverage:
    coverage = Coverage()
    for unit in units:
        if unit.substantive:
            coverage.add(unit)
    return coverage


@dataclass
class Cleaned:
    """A file's lines without repeated and wider-covered content, and what was removed."""

    lines: list[str]
    kept: list[tuple[Unit, list[str]]]  # substantive content left, with its lines
    repeated: int = 0
    redundant: int = 0
    wider_keys: list[str] = field(default_factory=list)  # what went as already wider

    @property
    def removed(self) -> int:
        return self.repeated + self.redundant

    @cached_property
    def shingles(self) -> frozenset[int]:
        """Word 3-shingles of the bullets and paragraphs left (hashed)."""
        words = _WORD.findall("\n".join(unit.key for unit, _ in self.kept).lower())
        if len(words) < SHINGLE_WORDS:
            return frozenset({hash(tuple(words))}) if words else frozenset()
        return frozenset(
            hash(tuple(words[i : i + SHINGLE_WORDS])) for i in range(len(words) - SHINGLE_WORDS + 1)
        )


def _removals(units: Sequence[Unit], wider: Coverage) -> dict[int, Literal["repeated", "wider"]]:
    """Which units go and why, before the "never empty a block" rule."""
    removals: dict[int, Literal["repeated", "wider"]] = {}
    seen: dict[int, Coverage] = {}
    heads: dict[int, Coverage] = {}
    for unit in units:
        if unit.head:
            heads.setdefault(unit.section, Coverage()).heads.add(unit.head)
    for position, unit in enumerate(units):
        if not unit.substantive:
            continue
        section_seen = seen.setdefault(unit.section, Coverage())
        if section_seen.covers(unit) or heads.get(unit.section, Coverage()).covers(unit):
            removals[position] = "repeated"
        elif wider.covers(unit):
            removals[position] = "wider"
        else:
            section_seen.add(unit)
    return removals


def _keep_blocks_filled(
    units: Sequence[Unit], removals: dict[int, Literal["repeated", "wider"]]
) -> None:
    """Drop the removals that would leave a block with no content at all."""
    content: dict[int, list[int]] = {}
    for position, unit in enumerate(units):
        if unit.content:
            content.setdefault(unit.block, []).append(position)
    for positions in content.values():
        if all(position in removals for position in positions):
            for position in positions:
                del removals[position]


def clean_lines(lines: Sequence[str], wider: Coverage) -> Cleaned:
    """Drop repeated content (a one-line item covered by a detailed one in the same
    section counts as repeated) and content `wider` covers; never structure, never the
    last content of a block; no double blank lines are left where units went away."""
    units = split_units(lines)
    removals = _removals(units, wider)
    _keep_blocks_filled(units, removals)
    result = Cleaned([], [])
    just_removed = False
    for position, unit in enumerate(units):
        unit_lines = list(lines[unit.start : unit.end])
        why = removals.get(position)
        if why is not None:
            if why == "repeated":
                result.repeated += 1
            else:
                result.redundant += 1
                result.wider_keys.append(unit.key)
            just_removed = True
            continue
        if unit.substantive:
            result.kept.append((unit, unit_lines))
        after_blank = not result.lines or not result.lines[-1].strip()
        if unit.kind == "blank" and just_removed and after_blank:
            continue
        just_removed = just_removed and unit.kind == "blank"
        result.lines.extend(unit_lines)
    if result.removed and lines and lines[-1].strip():
        while result.lines and not result.lines[-1].strip():
            result.lines.pop()
    return result


def settle(lines: Sequence[str], wider: Coverage) -> Cleaned:
    """`clean_lines` until nothing more goes (what the next run would make of it)."""
    result = clean_lines(lines, wider)
    total_repeated, total_redundant = result.repeated, result.redundant
    wider_keys = list(result.wider_keys)
    while result.removed:
        result = clean_lines(result.lines, wider)
        total_repeated += result.repeated
        total_redundant += result.redundant
        wider_keys += result.wider_keys
    result.repeated, result.redundant = total_repeated, total_redundant
    result.wider_keys = wider_keys
    return result


def structure_keys(lines: Sequence[str]) -> list[str]:
    """The headings and labels of a file, in order (compared form)."""
    return [unit.key for unit in split_units(lines) if unit.kind in ("heading", "label")]
