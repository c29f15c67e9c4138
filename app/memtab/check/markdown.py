"""A memory file read as a check reads it: lines, code spans, fenced blocks, links.

Not a full Markdown parser: what the rules need, one pass per line, each line told by
the one classifier (`memtab.markdown`). The frontmatter is skipped (its `description:`
restates the body). Inside a fenced block a line is code and nothing else; outside, a line
is prose with its inline code spans (CommonMark's rule: a run of backticks closes only at a
run of the same length) and its links taken out.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from memtab.markdown import (
    INLINE_LINK,
    REFERENCE_DEFINITION,
    LineKind,
    classify,
    link_target,
    text_lines,
)
from memtab.markdown import Line as Classified

_BACKTICKS = re.compile(r"`+")
# Every pattern here takes time linear in the line (a memory may hold a 100 KB line):
# where a token may start is pinned by a look-behind, and what cannot give back is
# possessive, so a failing match never tries each split of a long run.
_SHELL_COMMENT = re.compile(r"(?:^|\s)#\s*+(.*)")  # to the line's end, which `.` stops at
# A token (what lies between spaces) with a slash, or a dot inside a word (`x.py`).
_NOT_WORDS = re.compile(r"(?<!\S)\S*?(?:[/\\]|\w\.\w\w)\S*+")
# Where a sentence or clause ends: at `.`, `;`, `!`, `?` before a blank, or a dash set apart.
_SENTENCE_BREAK = re.compile(r"[.;!?][\"')\]*_`]*+\s++|\s[—–]\s|\s--\s")
# A line that is only a bold label, `**Still open:**` or `**Next steps**:`.
_LABEL = re.compile(r"^\s{0,3}(?:\*\*|__)([^*_]{1,80}?):?(?:\*\*|__):?\s*$")


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
    """The heading the line is under, and the bold label (`**Still open:**`) that leads
    its paragraph, list or fence, one a line (`_sections`): what the line is part of."""

    @functools.cached_property
    def words(self) -> str:
        """What the line says in words: its prose without paths, names with dots and
        URLs (a path `src/old/x.py` says nothing about being old); in a block, its
        comment (`terraform plan` plans nothing)."""
        if self.block is not None:  # code says nothing in words, but its comments may
            comment = _SHELL_COMMENT.search(self.text)
            return comment.group(1) if comment is not None else ""
        return _NOT_WORDS.sub(" ", self.prose)

    def words_around(self, token: str) -> str:
        """What the sentence holding `token` says in words (`words`' way); in a block, or
        when the token is not on the line as written, the line's words."""
        at = self.text.find(token) if self.block is None else -1
        if at < 0:
            return self.words
        start = max((b.end() for b in _SENTENCE_BREAK.finditer(self.text, 0, at)), default=0)
        after = _SENTENCE_BREAK.search(self.text, at + len(token.rstrip(".;!?")))
        return _NOT_WORDS.sub(" ", self.prose[start : after.start() if after else None])


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


def scan_markdown(text: str) -> ScannedText:
    """The lines and links of `text` (see the module doc)."""
    raw_lines = text_lines(text)
    lines: list[Line] = []
    links: list[Link] = []
    kinds = classify(raw_lines)
    for index, (raw, found, section) in enumerate(
        zip(raw_lines, kinds, _sections(raw_lines, kinds), strict=True)
    ):
        number = index + 1
        kind = found.kind
        if kind is LineKind.FRONTMATTER or kind is LineKind.FENCE:  # the frontmatter is not checked
            lines.append(Line(number, raw, "", fence=True))
            continue
        if kind is LineKind.CODE:
            info = found.fence.info if found.fence is not None else ""
            lines.append(Line(number, raw, "", block=info, section=section))
            continue
        prose, spans = _take_code_spans(raw)
        prose, line_links = _take_links(prose, number)
        links.extend(line_links)
        lines.append(Line(number, raw, prose, tuple(spans), section=section))
    return ScannedText(tuple(lines), tuple(links))


def _sections(raw_lines: Sequence[str], kinds: Sequence[Classified]) -> Iterator[str]:
    """What each line is part of: the heading it is under, and the bold label on a line of
    its own above it. A heading governs its section; a label only the block after it — a
    paragraph or list up to the next blank line (a list's own items past blank lines too),
    or one fenced block — so a label cannot silence the rest of a file."""
    heading = label = ""
    block: Classified | None = None  # the label's block's first line, once it started
    in_fence = False
    list_goes_on_to = -1  # a blank line before this one is inside the label's list
    for index, found in enumerate(kinds):
        kind = found.kind
        closes = kind is LineKind.FENCE and in_fence
        in_fence ^= kind is LineKind.FENCE
        if kind is LineKind.HEADING:
            heading, label = found.text, ""
        elif kind is LineKind.TEXT and (lead := _LABEL.match(raw_lines[index])) is not None:
            label, block = lead.group(1), None
        elif not label or kind is LineKind.CODE:
            pass
        elif kind is LineKind.RULE:
            label = ""
        elif kind is LineKind.BLANK:
            if block is not None and index > list_goes_on_to:
                list_goes_on_to = _list_goes_on_to(raw_lines, kinds, index, block)
                label = label if list_goes_on_to > index else ""
        elif block is None:
            block = found
        yield f"{heading}\n{label}" if heading and label else label or heading
        if closes and block is not None and block.kind is LineKind.FENCE:
            label = ""  # a label over a fenced block governs that block only


def _list_goes_on_to(
    raw_lines: Sequence[str], kinds: Sequence[Classified], blank: int, block: Classified
) -> int:
    """Where the list `block` opened goes on after the blank lines from `blank`: the next
    line, when it is an item with the same kind of marker or is indented under an item;
    else -1."""
    if block.kind is not LineKind.LIST_ITEM:
        return -1
    after = next((i for i in range(blank, len(kinds)) if kinds[i].kind is not LineKind.BLANK), -1)
    if after < 0:
        return -1
    found = kinds[after]
    if found.kind is LineKind.LIST_ITEM and _same_list(found.marker, block.marker):
        return after
    line = raw_lines[after].expandtabs(4)
    indent = len(line) - len(line.lstrip(" "))
    under = block.indent + len(block.marker) + 1
    return after if found.kind is not LineKind.HEADING and indent >= under else -1


def _same_list(marker: str, first: str) -> bool:
    """Whether an item's marker (`-`, `2.`) continues the list another opened (CommonMark:
    the same bullet, or numbers with the same delimiter)."""
    numbered = marker[0].isdigit() and first[0].isdigit()
    return marker == first or (numbered and marker[-1] == first[-1])


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
    definition = REFERENCE_DEFINITION.match(prose)
    if definition is not None:
        found.append(Link(number, definition.group("target"), ""))
        return " " * len(prose), found

    def blank(match: re.Match[str]) -> str:
        found.append(Link(number, link_target(match), match.group("label")))
        # The label stays prose (it may name a path); the target is blanked.
        label = match.group("label")
        return " " + label + " " * (len(match.group(0)) - len(label) - 1)

    return INLINE_LINK.sub(blank, prose), found
