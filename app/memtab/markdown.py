"""The one Markdown line classifier, so every reader of memory lines agrees line by line: each
line's kind (frontmatter, fence, heading, list item) and its links (docs/formats.md §4.4); one
pass, imports nothing of Memtab but its lazily compiled patterns (`fs.lazy_re`: the window imports
this module before its first paint)."""

import functools
import re
from collections.abc import Sequence
from enum import IntEnum
from typing import NamedTuple
from urllib.parse import unquote

from memtab.fs.lazy_re import LazyPattern


class LineKind(IntEnum):
    """What a line is (one of these, whatever else it holds)."""

    TEXT = 0
    BLANK = 1
    FRONTMATTER = 2  # a frontmatter line, its two `---` fences included
    FENCE = 3  # the line that opens or closes a fenced block
    CODE = 4  # a line inside a fenced block
    HEADING = 5
    LIST_ITEM = 6
    RULE = 7  # a thematic break: `---`, `***`, `_ _ _`


class Fence(NamedTuple):
    """An open fenced block: its character, how long its opening run is, its language."""

    char: str
    length: int
    info: str


class Line(NamedTuple):
    """One classified line: its kind, its fence, a heading's level and text, a list item's
    marker and `indent`."""

    kind: LineKind
    fence: Fence | None = None
    level: int = 0
    text: str = ""
    marker: str = ""
    indent: int = 0


FRONTMATTER_OPEN = "frontmatter"
"""The state while a frontmatter is open (`classify_line`); otherwise None or a `Fence`."""

State = Fence | str | None

_FENCE = LazyPattern(r"[ \t]*+(`{3,}+|~{3,}+)[ \t]*+([^\s]*+)(.*)")
# A heading's opening; the rest is read by `heading` without a pattern (linear time).
_HEADING = LazyPattern(r" {0,3}+(#{1,6}+)")
_LIST_ITEM = LazyPattern(r"([ \t]*+)([-*+]|\d{1,9}+[.)])(?:[ \t]|\r?$)")
_RULE = LazyPattern(r" {0,3}+(?:(?:\*[ \t]*+){3,}+|(?:-[ \t]*+){3,}+|(?:_[ \t]*+){3,}+)\r?$")
_BLANK = Line(LineKind.BLANK)
_TEXT = Line(LineKind.TEXT)
_RULE_LINE = Line(LineKind.RULE)
_FRONTMATTER_LINE = Line(LineKind.FRONTMATTER)


def _is_fence_line(line: str) -> bool:
    return line in ("---", "---\r")


def frontmatter_lines(lines: Sequence[str]) -> int:
    """How many lines the frontmatter takes, its fences included (0: none), by mux's rule."""
    if not lines or not _is_fence_line(lines[0]):
        return 0
    for index in range(2, len(lines)):
        if _is_fence_line(lines[index]):
            return index + 1
    return 0


def opening_fence(line: str) -> Fence | None:
    """The fenced block `line` opens, or None (see the module doc)."""
    stripped = line.lstrip(" \t")
    if stripped[:3] not in ("```", "~~~"):
        return None
    match = _FENCE.match(line)
    if match is None:  # pragma: no cover - the prefix check above makes it match
        return None
    run, info, rest = match.groups()
    if run[0] == "`" and ("`" in info or "`" in rest):
        return None  # ```x``` is a code span, not a fence
    return Fence(run[0], len(run), info.lower())


def closes_fence(line: str, fence: Fence) -> bool:
    """Whether `line` closes `fence`: its character only, at least as many."""
    stripped = line.strip()
    return len(stripped) >= fence.length and not stripped.strip(fence.char)


def heading(line: str) -> Line | None:
    """`line` as a heading (level and text), or None."""
    match = _HEADING.match(line)
    if match is None:
        return None
    rest = line[match.end() :].removesuffix("\n")
    if "\n" in rest:
        return None
    if rest[:1] in (" ", "\t"):
        text = rest.lstrip(" \t").rstrip(" \t\r")
    elif rest.strip("\r \t") or rest[:1] not in ("", "\r"):
        return None  # `#tag`, or `#######`: text
    else:
        text = ""
    if text.endswith("#"):  # a closing run of `#`, after a blank or alone
        opened = text.rstrip("#")
        if not opened or opened[-1] in " \t":
            text = opened.rstrip()
    return Line(LineKind.HEADING, level=len(match.group(1)), text=text)


def classify_line(line: str, state: State, number: int) -> tuple[Line, State]:
    """What `line` (the `number`th, from 0) is given the state the line before left, and the
    state it leaves (an open frontmatter counts until it closes)."""
    if state is not None:
        if state == FRONTMATTER_OPEN:
            if number >= 2 and _is_fence_line(line):
                return _FRONTMATTER_LINE, None
            return _FRONTMATTER_LINE, state
        assert isinstance(state, Fence)
        if closes_fence(line, state):
            return _fence_line(state), None
        return _code_line(state), state
    if number == 0 and _is_fence_line(line):
        return _FRONTMATTER_LINE, FRONTMATTER_OPEN
    return _prose_line(line)


def _prose_line(line: str) -> tuple[Line, State]:
    stripped = line.lstrip(" \t")
    if not stripped or stripped in ("\r", "\n"):
        return _BLANK, None
    first = stripped[0]
    if first in "`~":
        fence = opening_fence(line)
        if fence is not None:
            return _fence_line(fence), fence
        return _TEXT, None
    if first == "#":
        found = heading(line)
        return (found or _TEXT), None
    if first in "-*+_" or first.isdigit():
        if first in "-*_" and _RULE.match(line) is not None:
            return _RULE_LINE, None
        item = _LIST_ITEM.match(line)
        if item is not None:
            return _item_line(item.group(2), item.end(1)), None
    return _TEXT, None


# A file has few kinds of code, fence and item lines: one `Line` each, made once.
@functools.lru_cache(maxsize=256)
def _code_line(fence: Fence) -> Line:
    return Line(LineKind.CODE, fence)


@functools.lru_cache(maxsize=256)
def _fence_line(fence: Fence) -> Line:
    return Line(LineKind.FENCE, fence)


@functools.lru_cache(maxsize=256)
def _item_line(marker: str, indent: int) -> Line:
    return Line(LineKind.LIST_ITEM, marker=marker, indent=indent)


def classify(lines: Sequence[str], *, frontmatter: bool = True) -> list[Line]:
    """Every line of a file, classified; not `frontmatter`: a text that has none."""
    result: list[Line] = []
    count = frontmatter_lines(lines) if frontmatter else 0
    if count:
        result.extend([_FRONTMATTER_LINE] * count)
    state: State = None
    for index in range(count, len(lines)):
        line = lines[index]
        if index == 0:  # an opening `---` that never closes is prose
            found, state = _prose_line(line)
        else:
            found, state = classify_line(line, state, index)
        result.append(found)
    return result


def item_text(line: str, item: Line) -> str:
    """What a list item says after its marker and blanks."""
    return line[item.indent + len(item.marker) :].lstrip(" \t")


class Block(NamedTuple):
    """A fenced block: its fence and the lines that open and close it (None: unclosed)."""

    fence: Fence
    start: int
    end: int | None


def fenced_blocks(lines: Sequence[Line]) -> list[Block]:
    """The fenced blocks of classified lines (`classify`), in order."""
    blocks: list[Block] = []
    start: int | None = None
    for index, line in enumerate(lines):
        if line.kind is not LineKind.FENCE or line.fence is None:
            continue
        if start is None:
            start = index
        else:
            blocks.append(Block(line.fence, start, index))
            start = None
    if start is not None:
        fence = lines[start].fence
        assert fence is not None
        blocks.append(Block(fence, start, None))
    return blocks


def text_lines(text: str) -> list[str]:
    """The lines of a text as an editor numbers them (split at `\\n`, a `\\r` before it dropped)."""
    lines = [line.removesuffix("\r") for line in text.split("\n")]
    if lines and not lines[-1]:
        lines.pop()
    return lines


# --- links --------------------------------------------------------------------------------

_SCHEME = LazyPattern(r"^[A-Za-z][\w+.-]*:")
# Linear in the line: possessive where nothing gives back, and no part runs past where another
# link could start. [label](target "title") and <target> forms; an image's `!` leads the label.
INLINE_LINK = LazyPattern(
    r"\[(?P<label>[^\[\]\n]*+)\]\(\s*+(?:<(?P<angled>[^<>\n]*+)>|(?P<bare>[^\s()]++))"
    r"(?:\s++(?:\"[^\"]*+\"|'[^']*+'))?\s*+\)"
)
REFERENCE_DEFINITION = LazyPattern(r"^ {0,3}\[[^\]]++\]:\s*+<?(?P<target>[^\s>]++)>?")


def link_target(match: re.Match[str]) -> str:
    """The target of an `INLINE_LINK` match, as written (without its angle brackets)."""
    angled = match.group("angled")
    return angled if angled is not None else (match.group("bare") or "")


def link_path(written: str) -> str | None:
    """The path part of a link target, or None when not a link to a file."""
    if not written or written.startswith(("#", "//")) or _SCHEME.match(written):
        return None
    if any(char in written for char in "<>{}$*") or " " in written.strip():
        return None
    path = unquote(written.split("#", 1)[0].split("?", 1)[0])
    if not path or "path/to" in path.lower():
        return None
    return path
