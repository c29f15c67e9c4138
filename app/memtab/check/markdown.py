"""A memory file read as a check reads it: lines, code spans, fenced blocks, links.

Not a full Markdown parser: what the rules need, one pass per line. The frontmatter is
skipped (its `description:` restates the body). Inside a fenced block a line is code and
nothing else; outside, a line is prose with its inline code spans (CommonMark's rule: a
run of backticks closes only at a run of the same length) and its links taken out.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from urllib.parse import unquote

from memtab.store.frontmatter import find_frontmatter

_SCHEME = re.compile(r"^[A-Za-z][\w+.-]*:")

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})[ \t]*([^`\s]*)")
_BACKTICKS = re.compile(r"`+")
# Every pattern here takes time linear in the line (a memory may hold a 100 KB line):
# where a token may start is pinned by a look-behind, and what cannot give back is
# possessive, so a failing match never tries each split of a long run.
# [label](target "title") and <target> forms; an image's `!` is part of the label's lead.
_INLINE_LINK = re.compile(
    r"\[(?P<label>[^\[\]\n]*+)\]\(\s*+(?:<(?P<angled>[^>\n]*+)>|(?P<bare>[^\s()]++))"
    r"(?:\s++(?:\"[^\"]*+\"|'[^']*+'))?\s*+\)"
)
_SHELL_COMMENT = re.compile(r"(?:^|\s)#\s*(.*)$")
# A token (what lies between spaces) with a slash, or a dot inside a word (`x.py`).
_NOT_WORDS = re.compile(r"(?<!\S)\S*?(?:[/\\]|\w\.\w\w)\S*+")
_HEADING = re.compile(r"^ {0,3}#{1,6}\s++(.*)$")
# A line that is only a bold label, `**Still open:**` or `**Next steps**:`.
_LABEL = re.compile(r"^\s{0,3}(?:\*\*|__)([^*_]{1,80}?):?(?:\*\*|__):?\s*$")
_REFERENCE_DEFINITION = re.compile(r"^ {0,3}\[[^\]]++\]:\s*+<?(?P<target>[^\s>]++)>?")


@dataclass(frozen=True, eq=False)
class Line:
    """One line of a memory file (`number` from 1).

    `prose`: the text outside code, with each code span and link replaced by spaces (so
    columns still match); `spans`: the inline code spans; `block`: the info string of the
    fenced block the line is in ("" for a block without one), None outside blocks.
    """

    number: int
    text: str
    prose: str
    spans: tuple[str, ...] = ()
    block: str | None = None
    fence: bool = False
    """The line opens or closes a fenced block."""
    section: str = ""
    """The heading the line is under, or the bold label (`**Still open:**`) that leads
    its list: what the line is part of."""

    @property
    def in_block(self) -> bool:
        return self.block is not None

    @functools.cached_property
    def words(self) -> str:
        """What the line says in words: its prose without paths, names with dots and
        URLs (a path `src/old/x.py` says nothing about being old); in a block, its
        comment (`terraform plan` plans nothing)."""
        if self.block is not None:  # code says nothing in words, but its comments may
            comment = _SHELL_COMMENT.search(self.text)
            return comment.group(1) if comment is not None else ""
        return _NOT_WORDS.sub(" ", self.prose)


@dataclass(frozen=True)
class Link:
    """A link in a memory file's prose: its line, target as written, and label."""

    line: int
    target: str
    label: str


@dataclass(frozen=True)
class ScannedText:
    lines: tuple[Line, ...]
    links: tuple[Link, ...]

    def line(self, number: int) -> Line:
        return self.lines[number - 1]


def text_lines(text: str) -> list[str]:
    """The lines of a text as an editor numbers them: split at `\n` only (a `\r` before
    it dropped), no empty line after a final line break."""
    lines = [line.removesuffix("\r") for line in text.split("\n")]
    if lines and not lines[-1]:
        lines.pop()
    return lines


def scan_markdown(text: str) -> ScannedText:
    """The lines and links of `text` (see the module doc)."""
    raw_lines = text_lines(text)
    span = find_frontmatter(text)
    body_from = 0
    if span is not None:
        head = text[: span.end]
        body_from = head.count("\n") + (0 if head.endswith("\n") else 1)
    lines: list[Line] = []
    links: list[Link] = []
    fence: tuple[str, int] | None = None  # the open fence's character and length
    info = ""
    heading = label = ""
    for index, raw in enumerate(raw_lines):
        number = index + 1
        if index < body_from:
            lines.append(Line(number, raw, "", fence=True))  # frontmatter: not checked
            continue
        opening = _FENCE.match(raw)
        if fence is not None:
            stripped = raw.strip()
            if (
                len(stripped) >= fence[1]
                and not stripped.strip(fence[0])
                and len(raw) - len(raw.lstrip(" ")) <= 3
            ):
                fence = None
                lines.append(Line(number, raw, "", fence=True))
                continue
            lines.append(Line(number, raw, "", block=info, section=label or heading))
            continue
        if opening is not None:
            fence = (opening.group(1)[0], len(opening.group(1)))
            info = opening.group(2).lower()
            lines.append(Line(number, raw, "", fence=True))
            continue
        title = _HEADING.match(raw)
        if title is not None:  # without its closing `#`s (`## Setup ##`)
            heading, label = title.group(1).rstrip().rstrip("#").rstrip(), ""
        elif (lead := _LABEL.match(raw)) is not None:
            label = lead.group(1)
        prose, spans = _take_code_spans(raw)
        prose, line_links = _take_links(prose, number)
        links.extend(line_links)
        lines.append(Line(number, raw, prose, tuple(spans), section=label or heading))
    return ScannedText(tuple(lines), tuple(links))


def _take_code_spans(raw: str) -> tuple[str, list[str]]:
    """The line with each code span blanked, and the spans. A span opens at a run of
    backticks and closes at the next run of the same length (CommonMark); found from
    the runs alone, in one pass (a regex would rescan the line from each opener)."""
    runs = [(match.start(), match.end()) for match in _BACKTICKS.finditer(raw)]
    if len(runs) < 2:
        return raw, []
    # For each run, the index of the next run of the same length (or None).
    closing: list[int | None] = [None] * len(runs)
    next_of_length: dict[int, int] = {}
    for index in range(len(runs) - 1, -1, -1):
        length = runs[index][1] - runs[index][0]
        closing[index] = next_of_length.get(length)
        next_of_length[length] = index
    spans: list[str] = []
    pieces: list[str] = []
    done = 0  # what of `raw` is in `pieces`
    index = 0
    while index < len(runs):
        close = closing[index]
        if close is None:
            index += 1
            continue
        start, content_from = runs[index]
        content_to, end = runs[close]
        content = raw[content_from:content_to]
        # CommonMark strips one space on each side when both are there.
        if len(content) > 2 and content.startswith(" ") and content.endswith(" "):
            content = content[1:-1]
        spans.append(content)
        pieces += [raw[done:start], " " * (end - start)]
        done = end
        index = close + 1
    pieces.append(raw[done:])
    return "".join(pieces), spans


def _take_links(prose: str, number: int) -> tuple[str, list[Link]]:
    found: list[Link] = []
    definition = _REFERENCE_DEFINITION.match(prose)
    if definition is not None:
        found.append(Link(number, definition.group("target"), ""))
        return " " * len(prose), found

    def blank(match: re.Match[str]) -> str:
        target = match.group("angled") if match.group("angled") is not None else match["bare"]
        found.append(Link(number, target or "", match.group("label")))
        # The label stays prose (it may name a path); the target is blanked.
        label = match.group("label")
        return " " + label + " " * (len(match.group(0)) - len(label) - 1)

    return _INLINE_LINK.sub(blank, prose), found


def link_path(written: str) -> str | None:
    """The path part of a link target, or None when it is not a link to a file (a URL, an
    anchor, a template); the editor's preview follows the same links."""
    if not written or written.startswith(("#", "//")) or _SCHEME.match(written):
        return None
    if any(char in written for char in "<>{}$*") or " " in written.strip():
        return None
    path = unquote(written.split("#", 1)[0].split("?", 1)[0])
    if not path or "path/to" in path.lower():
        return None
    return path
