"""The one Markdown line classifier: what each line of a memory file is, and its links.

Every reader that tells lines apart — the check (`check.markdown`), the offline
consolidator (`consolidation.offline.units`), the writer's notes (`writer.offline.notes`)
and what it reads in messages (directives, facts, a handed plan's title, a `Bash` agent's
command: `classify(lines, frontmatter=False)`, a message having none), the title a file
gives itself (`store.text.frontmatter.title_of`), Claude Code's `@`-imports
(`sources.claude.instructions`), the editor's highlighter and its links — asks here, so
they agree line by line (tests/unit/test_markdown_users.py checks it on real files). The
rules (docs/formats.md §4.4):

- **Frontmatter**: mux's rule (`store.text.frontmatter`): the first line is exactly `---`
  and the block closes at the first later line that is exactly `---`, the line right
  after the opening excepted (`---\\n---\\n` is no block). Unclosed, there is none.
- **Fences**: a line of three or more backticks or tildes, at any indentation (agents
  nest code under list items), opens a fenced block; its info string's first word,
  lower-cased, names it (`bash`). A backtick fence's info string holds no backtick
  (```` ```x``` ```` is inline code). The block closes at a line of the same character, as
  long or longer, with nothing else on it; unclosed, it runs to the end of the file.
- **Headings**: up to three spaces, one to six `#`, then a space, a tab or the line's
  end (`#tag` is text); the text without a closing run of `#` after a space.
- **List items**: `-`, `*`, `+` or a number with `.` or `)`, then a space, a tab or the
  line's end; a thematic break (`***`, `- - -`) is a rule, not an item.
- **Links**: `[label](target "title")`, `[label](<target>)` and reference definitions
  `[label]: target`, in prose only (never in code); `link_path` says which are links to
  files.

One pass, one line at a time, told by its first character before any pattern runs: the
consolidator classifies every line of every file of a big home and the highlighter every
line an edit touches. Imports nothing of Memtab.
"""

import functools
import re
from collections.abc import Sequence
from enum import IntEnum
from typing import NamedTuple
from urllib.parse import unquote


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
    """One classified line: its kind, the block it opens, closes or is in (`fence`), a
    heading's level and text, a list item's marker (`-`, `1.`) and the characters before
    it (`indent`: spaces and tabs, a tab counting one)."""

    kind: LineKind
    fence: Fence | None = None
    level: int = 0
    text: str = ""
    marker: str = ""
    indent: int = 0


FRONTMATTER_OPEN = "frontmatter"
"""The state while a frontmatter is open (`classify_line`); otherwise None or a `Fence`."""

State = Fence | str | None

_FENCE = re.compile(r"[ \t]*+(`{3,}+|~{3,}+)[ \t]*+([^\s]*+)(.*)")
# A heading's opening; what follows it is read by `heading` without a pattern (a lazy
# text before `[ \t\r]*$` tried each end of a long run of blanks: quadratic).
_HEADING = re.compile(r" {0,3}+(#{1,6}+)")
_LIST_ITEM = re.compile(r"([ \t]*+)([-*+]|\d{1,9}+[.)])(?:[ \t]|\r?$)")
_RULE = re.compile(r" {0,3}+(?:(?:\*[ \t]*+){3,}+|(?:-[ \t]*+){3,}+|(?:_[ \t]*+){3,}+)\r?$")
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
    """What `line` (the `number`th, from 0) is, given the state the line before left, and
    the state it leaves. Line by line, a frontmatter opened at the top counts until it
    closes (the highlighter paints one as it is typed); `classify` knows the whole text
    and says a frontmatter that never closes is none."""
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


# A file has few kinds of code, fence and item lines: one `Line` each, made once (the
# highlighter classifies every line an edit touches, the consolidator every line of a home).
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
    """Every line of a file, classified (see the module doc); not `frontmatter`: of a text
    that has none (an agent's message: a first `---` is a rule)."""
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
    """What a list item says: `line`, classified `item`, after its marker and the blanks
    after it."""
    return line[item.indent + len(item.marker) :].lstrip(" \t")


class Block(NamedTuple):
    """A fenced block of classified lines: its fence, the index of the line that opens it
    and of the one that closes it (None: unclosed, it runs to the end)."""

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
    """The lines of a text as an editor numbers them: split at `\\n` only (a `\\r` before
    it dropped), no empty line after a final line break."""
    lines = [line.removesuffix("\r") for line in text.split("\n")]
    if lines and not lines[-1]:
        lines.pop()
    return lines


# --- links --------------------------------------------------------------------------------

_SCHEME = re.compile(r"^[A-Za-z][\w+.-]*:")
# Linear in the line (a memory may hold a 100 KB line): what cannot give back is
# possessive, so a failing match never tries each split of a long run, and no part runs past
# where another link could start (an angled target holds no `<`, as CommonMark's).
# [label](target "title") and <target> forms; an image's `!` is part of the label's lead.
INLINE_LINK = re.compile(
    r"\[(?P<label>[^\[\]\n]*+)\]\(\s*+(?:<(?P<angled>[^<>\n]*+)>|(?P<bare>[^\s()]++))"
    r"(?:\s++(?:\"[^\"]*+\"|'[^']*+'))?\s*+\)"
)
REFERENCE_DEFINITION = re.compile(r"^ {0,3}\[[^\]]++\]:\s*+<?(?P<target>[^\s>]++)>?")


def link_target(match: re.Match[str]) -> str:
    """The target of an `INLINE_LINK` match, as written (without its angle brackets)."""
    angled = match.group("angled")
    return angled if angled is not None else (match.group("bare") or "")


def link_path(written: str) -> str | None:
    """The path part of a link target, or None when it is not a link to a file (a URL, an
    anchor, a template); the check and the editor's links follow the same links."""
    if not written or written.startswith(("#", "//")) or _SCHEME.match(written):
        return None
    if any(char in written for char in "<>{}$*") or " " in written.strip():
        return None
    path = unquote(written.split("#", 1)[0].split("?", 1)[0])
    if not path or "path/to" in path.lower():
        return None
    return path
