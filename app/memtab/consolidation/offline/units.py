"""How the offline consolidator reads a Markdown memory file: units, sections and blocks."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Literal, NamedTuple

from memtab.fs.atomic import encode_utf8
from memtab.markdown import closes_fence, frontmatter_lines, heading, opening_fence
from memtab.store.text.content_lines import BULLET, normalize_line
from memtab.store.text.near_duplicates import lowered_words

MIN_LINE_CHARS = 12
SHINGLE_WORDS = 3

UnitKind = Literal[
    "frontmatter", "blank", "heading", "rule", "code", "table", "comment", "label", "text"
]

_CONTENT_KINDS = frozenset(("text", "code", "table"))  # what `Unit.content` says

_RULE = re.compile(r"^(?:(?:\*\s*){3,}|(?:-\s*){3,}|(?:_\s*){3,})$")
_EMPHASIS = re.compile(r"^[*_]{1,3}|[*_]{1,3}$")
# A label: text ending in a colon, or — outside a list — a short key (at most four words,
# no sentence punctuation) followed by a colon and a value. `**Why:** …` and
# `task_outcome: x` are labels; `Run make check: it …` after six words is not.
_ENDS_IN_COLON = re.compile(r"[:：]\s*$")
_KEY_VALUE = re.compile(r"^[^\W\d][\w\-/()]*(?:[ \t][\w\-/()]+){0,3}[ \t]*[:：](?:\s|$)")


class Unit(NamedTuple):
    """Lines `start:end` of a file, their kind and compared form. `key` is the compared form of all
    its lines; `prose` that of its words without the code blocks that illustrate them (what
    similarity is measured on)."""

    start: int
    end: int
    kind: UnitKind
    key: str = ""
    head: str = ""
    section: int = -1
    block: int = -1
    prose: str = ""

    @property
    def substantive(self) -> bool:
        """Content worth comparing: a bullet or paragraph long enough not to be generic."""
        return self.kind == "text" and len(self.key) >= MIN_LINE_CHARS

    @property
    def content(self) -> bool:
        """What a heading or label is there for: text, code or a table."""
        return self.kind in ("text", "code", "table")

    @property
    def single(self) -> bool:
        return self.end - self.start == 1


def is_label(line: str) -> bool:
    """Whether a line names what follows it, or is a `key: value` pair (see module doc)."""
    if ":" not in line and "：" not in line:
        return False
    stripped = line.strip()
    # (each pattern runs only where it could match: a bullet starts with its marker or a
    # digit, emphasis marks stand at either end)
    first = stripped[:1]
    bulleted = first in ("-", "*", "+") or first.isdecimal()
    text = BULLET.sub("", stripped, count=1) if bulleted else stripped
    listed = len(text) != len(stripped)
    text = text.replace("**", "").replace("__", "")
    if text[:1] in ("*", "_") or text[-1:] in ("*", "_"):
        text = _EMPHASIS.sub("", text)
    text = text.strip()
    if not text:
        return False
    if _ENDS_IN_COLON.search(text):
        return True
    return not listed and bool(_KEY_VALUE.match(text))


# The same lines come back in many files of a store (templates, labels, a note saved
# again): what a line compares as is remembered. Bounded: emptied when full.
_MEMO_SIZE = 1 << 12
_LINE_MEMO: dict[str, tuple[str, bool]] = {}


def _remember_line(stripped: str) -> tuple[str, bool]:
    """A paragraph or list-item line's compared form, and whether it is a label (callers
    look in `_LINE_MEMO` first)."""
    if len(_LINE_MEMO) >= _MEMO_SIZE:
        _LINE_MEMO.clear()
    known = _LINE_MEMO[stripped] = (normalize_line(stripped), is_label(stripped))
    return known


def _unit(fields: tuple[int, int, UnitKind, str, str, int, int, str]) -> Unit:
    """A Unit from all its fields, without the keyword handling of NamedTuple's own
    constructor (a big home makes millions of units: it is a tenth of the split)."""
    return tuple.__new__(Unit, fields)


def split_units(lines: Sequence[str]) -> list[Unit]:
    """Cut a file's lines into units (see the module docstring). Each line is told by its first
    character before any pattern runs."""
    units: list[Unit] = []
    new = tuple.__new__  # what `_unit` calls, inline for the lines most files are made of
    count = len(lines)
    index = frontmatter_lines(lines)  # the one classifier's rules (`memtab.markdown`)
    if index:
        units.append(_unit((0, index, "frontmatter", "", "", -1, -1, "")))
    section = block = -1
    while index < count:
        line = lines[index]
        stripped = line.strip()
        if not stripped:
            units.append(new(Unit, (index, index + 1, "blank", "", "", section, block, "")))
            index += 1
            continue
        first = stripped[0]
        fence = opening_fence(line) if first in "`~" else None
        if fence is not None:
            close = index + 1
            while close < count and not closes_fence(lines[close], fence):
                close += 1
            close = min(close + 1, count)
            key = "\n".join([normalize_line(text) for text in lines[index:close]])
            _add_code(units, _unit((index, close, "code", key, "", section, block, "")))
        elif first == "#" and heading(line) is not None:
            section = block = len(units)
            units.append(
                _unit(
                    (index, index + 1, "heading", normalize_line(stripped), "", section, block, "")
                )
            )
        elif first in "*-_" and stripped.count(first) >= 3 and _RULE.match(stripped):
            # (a rule has three of its marks at least: no pattern runs for a bullet)
            units.append(_unit((index, index + 1, "rule", "", "", section, block, "")))
        elif first == "|":
            units.append(
                _unit((index, index + 1, "table", normalize_line(stripped), "", section, block, ""))
            )
        elif first == "<" and stripped.startswith("<!--"):
            units.append(
                _unit(
                    (index, index + 1, "comment", normalize_line(stripped), "", section, block, "")
                )
            )
        else:
            close = index + 1  # and its continuation: the following lines indented deeper
            if close < count and lines[close][:1].isspace():  # (else none can be)
                base = len(line) - len(line.lstrip())
                while close < count:
                    following = lines[close]
                    rest = following.lstrip()
                    if not rest or len(following) - len(rest) <= base:
                        break
                    close += 1
            key, label = _LINE_MEMO.get(stripped) or _remember_line(stripped)
            if label and close - index > 1:
                # A label names what follows it: the lines indented under it are content,
                # not part of the label (as structure they could be merged away unseen).
                block = len(units)
                units.append(new(Unit, (index, index + 1, "label", key, "", section, block, "")))
                index += 1
                continue
            head = ""
            if close - index > 1:
                head = key
                key = "\n".join([key, *map(normalize_line, lines[index + 1 : close])])
            if label:
                block = len(units)
                units.append(new(Unit, (index, close, "label", key, head, section, block, "")))
            else:
                units.append(new(Unit, (index, close, "text", key, head, section, block, key)))
            index = close
            continue
        index = units[-1].end
    return units


def _add_code(units: list[Unit], code: Unit) -> None:
    """Append a fenced code block, joined to the paragraph (its consecutive lines) or the list item
    right before it — blank lines between at most — as one unit whose `prose` is the text alone."""
    before = len(units) - 1
    while before >= 0 and units[before].kind == "blank":
        before -= 1
    if before < 0 or units[before].kind != "text" or units[before].prose != units[before].key:
        units.append(code)  # nothing to illustrate, or the text has its block already
        return
    text = units[before]
    first = before
    if not text.key.startswith("- "):
        while first > 0:
            previous = units[first - 1]
            if (
                previous.kind != "text"
                or previous.end != units[first].start
                or previous.key.startswith("- ")
                or previous.prose != previous.key
            ):
                break
            first -= 1
    start = units[first]
    key, head, prose = start.key, start.head, start.prose
    if first < before:  # a paragraph of several lines: no line of it is a head alone
        prose = "\n".join(unit.prose for unit in units[first : before + 1])
        key, head = prose, ""
    elif not head:
        head = key  # a one-line paragraph or item
    units[first:] = [
        Unit(
            start.start,
            code.end,
            "text",
            f"{key}\n{code.key}",
            head,
            start.section,
            start.block,
            prose,
        )
    ]


def compared_lines(lines: Sequence[str], units: Sequence[Unit]) -> set[str]:
    """A file's non-blank lines outside frontmatter, as compared (plus the blank lines
    inside its code blocks, as ""), taken from the units' keys."""
    found: set[str] = set()
    for unit in units:
        if unit.kind in ("frontmatter", "blank"):
            continue
        if unit.kind == "rule":
            found.add(normalize_line(lines[unit.start]))
        else:
            found.update(unit.key.split("\n"))
    return found


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


def add_coverage(coverage: Coverage, units: Sequence[Unit]) -> None:
    """Add the substantive content of these units to `coverage`."""
    keys, heads = coverage.keys, coverage.heads
    for unit in units:
        if unit.kind == "text" and len(unit.key) >= MIN_LINE_CHARS:  # (substantive)
            keys.add(unit.key)
            if unit.head:
                heads.add(unit.head)


def coverage_of(units: Sequence[Unit]) -> Coverage:
    coverage = Coverage()
    add_coverage(coverage, units)
    return coverage


@dataclass
class Cleaned:
    """A file's lines without repeated and wider-covered content, and what was removed."""

    lines: list[str]
    kept: list[Unit]  # the substantive content left
    repeated: int = 0
    redundant: int = 0
    wider_keys: list[str] = field(default_factory=list)  # what went as already wider

    @property
    def removed(self) -> int:
        return self.repeated + self.redundant

    @cached_property
    def shingles(self) -> frozenset[int]:
        """Word 3-shingles of the bullets and paragraphs left, without the code that
        illustrates them (hashed)."""
        words = lowered_words("\n".join(unit.prose for unit in self.kept))
        if len(words) < SHINGLE_WORDS:
            return frozenset({hash(tuple(words))}) if words else frozenset()
        # zip makes the same word triples as slicing would, without a list per triple
        triples = zip(*(words[i:] for i in range(SHINGLE_WORDS)), strict=False)
        return frozenset(map(hash, triples))


def _removals(units: Sequence[Unit], wider: Coverage) -> dict[int, Literal["repeated", "wider"]]:
    """Which units go and why, before the "never empty a block" rule: content said
    before in its section (or a one-line item a detailed one of its section heads), else
    content `wider` covers. (Set lookups inline: this runs on every unit of a home.)"""
    removals: dict[int, Literal["repeated", "wider"]] = {}
    heads: dict[int, set[str]] = {}  # every head of a section, kept or not
    for unit in units:
        if unit.head:
            heads.setdefault(unit.section, set()).add(unit.head)
    # Units come in order, so a section's units are consecutive: what it kept so far is
    # one set, started afresh where the next section begins.
    section, seen, section_heads = -2, set[str](), set[str]()
    wider_keys, wider_heads = wider.keys, wider.heads
    for position, unit in enumerate(units):
        key = unit.key
        if unit.kind != "text" or len(key) < MIN_LINE_CHARS:
            continue
        if unit.section != section:
            section, seen = unit.section, set()
            section_heads = heads.get(section) or set()
        single = unit.end - unit.start == 1
        if key in seen or (single and key in section_heads):
            removals[position] = "repeated"
        elif key in wider_keys or (single and key in wider_heads):
            removals[position] = "wider"
        else:
            seen.add(key)
    return removals


def _keep_blocks_filled(
    units: Sequence[Unit], removals: dict[int, Literal["repeated", "wider"]]
) -> None:
    """Drop the removals that would leave a block with no content at all."""
    if not removals:
        return
    emptied: dict[int, bool] = {}  # block → every content unit of it goes so far
    for position, unit in enumerate(units):
        if unit.kind in _CONTENT_KINDS:
            if position not in removals:
                emptied[unit.block] = False
            elif unit.block not in emptied:
                emptied[unit.block] = True
    for position in [p for p in removals if emptied[units[p].block]]:
        del removals[position]


def clean_lines(
    lines: Sequence[str], wider: Coverage, units: Sequence[Unit] | None = None
) -> Cleaned:
    """Drop repeated content (a one-line item covered by a detailed one in the same section counts
    as repeated) and content `wider` covers; never structure, never the last content of a block; no
    double blank lines are left where units went away."""
    if units is None:
        units = split_units(lines)
    removals = _removals(units, wider)
    _keep_blocks_filled(units, removals)
    result = Cleaned([], [])
    if not removals:  # the common case: the lines as they are
        result.lines = list(lines)
        result.kept = [u for u in units if u.kind == "text" and len(u.key) >= MIN_LINE_CHARS]
        return result
    kept, out = result.kept, result.lines
    just_removed = False
    for position, unit in enumerate(units):
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
            kept.append(unit)
        blank = unit.kind == "blank"
        if blank and just_removed and (not out or not out[-1].strip()):
            continue
        just_removed = just_removed and blank
        out.extend(lines[unit.start : unit.end])
    if lines and lines[-1].strip():
        while out and not out[-1].strip():
            out.pop()
    return result


def settle(lines: Sequence[str], wider: Coverage, units: Sequence[Unit] | None = None) -> Cleaned:
    """`clean_lines` until nothing more goes (what the next run would make of it)."""
    result = clean_lines(lines, wider, units)
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
