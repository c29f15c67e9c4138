"""What a text widget decides, apart from Qt (`gui/toolkit/text/` and the editor's text show
it): the find bar's matches, a diff's rows, the Markdown highlighting's spans, what Tab does
in the source, the three-way view's notes, and which line a line margin's marks are on now."""

from __future__ import annotations

import bisect
import enum
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from memtab.components import merge as choices
from memtab.components.editor.find import (
    MAX_MATCHES,
    FindOptions,
    Span,
    find_all,
    is_match,
    next_match,
    replace_all,
)
from memtab.components.editor.merge import MergeResult
from memtab.components.editor.text_buffer import (
    DocumentPositions,
    buffer_from_raw,
    frontmatter_lines,
)
from memtab.components.merge import ThreeWayTexts
from memtab.components.text_diff import DiffLine, DiffResult
from memtab.components.text_diff import LineKind as DiffKind
from memtab.markdown import FRONTMATTER_OPEN, Fence, LineKind, State, classify_line
from memtab.sources.claude.instructions import import_spans


class ToldLines:
    """Each line of the text now → its number when the margin was told (None: a new line)."""

    def __init__(self, count: int) -> None:
        self._lines: list[int | None] | None = None  # None: every line is where it was
        self.count = count

    def told(self, count: int) -> None:
        """The margin was told of the text as it is now (`count` lines)."""
        self._lines = None
        self.count = count

    def line(self, now: int) -> int | None:
        """The number, when the margin was told, of line `now` (None: it was not there)."""
        if self._lines is None:
            return now
        return self._lines[now] if now < len(self._lines) else None

    def replaced(self, count: int) -> None:
        """The text was replaced whole (a reload, a merge taken): no line was told of."""
        self.count = count
        self._lines = [None] * count

    def edited(self, count: int, at: Callable[[], int]) -> None:
        """The text has `count` lines after an edit; if that is more or fewer than before, they came
        or went at line `at()` (asked only then: typing within a line costs nothing)."""
        delta, self.count = count - self.count, count
        if delta == 0:
            return
        lines = self._lines
        if lines is None:
            lines = self._lines = list(range(count - delta))
        first = at()
        if delta > 0:
            lines[first:first] = [None] * delta
        else:
            del lines[first : first - delta]


INDENT_SPACES = 4  # The spaces Shift+Tab takes away at most from a line indented with spaces.
FRONTMATTER_SCAN_LINES = 200
"""How far down a closing fence is looked for (a frontmatter is a few lines)."""


class TabKey(enum.Enum):
    """What a plain Tab or Shift+Tab does."""

    MOVE_FOCUS = "move_focus"
    SHIFT_LINES = "shift_lines"
    """Indent (Tab) or outdent (Shift+Tab) every line the selection touches."""
    TYPE = "type"  # A tab character, in place of what is selected.


def tab_key(*, forward: bool, moves_focus: bool, selects_lines: bool) -> TabKey:
    """What Tab (`forward`) or Shift+Tab does: `moves_focus` where Tab leaves the text
    (the frontmatter, read-only text, a dialog, Ctrl+M); `selects_lines`: the selection
    reaches over a line break."""
    if moves_focus:
        return TabKey.MOVE_FOCUS
    return TabKey.SHIFT_LINES if not forward or selects_lines else TabKey.TYPE


def indent_width(line: str) -> int:
    """How much one outdent takes from the start of `line`: a tab, or up to four spaces."""
    return 1 if line.startswith("\t") else min(len(line) - len(line.lstrip(" ")), INDENT_SPACES)


def frontmatter_head(lines: Iterable[str]) -> int | None:
    """How many of `lines` (read lazily, up to the closing fence or FRONTMATTER_SCAN_LINES) the
    frontmatter takes, fences included, or None (`components.editor.text_buffer`'s rule)."""
    head: list[str] = []
    for line in lines:
        head.append(line)
        if len(head) == 1:
            if line.rstrip("\r") != "---":
                return None
        elif line.rstrip("\r") in ("---", "...") or len(head) >= FRONTMATTER_SCAN_LINES:
            break
    return None if not head else frontmatter_lines(buffer_from_raw("\n".join(head) + "\n"))


NO_FILE = "(no file on this side: it was deleted or never made)"


def merge_note(texts: ThreeWayTexts) -> str:
    """What the note under the text to keep says of `texts` as it starts."""
    mine = texts.labels[1].lower()
    keep = choices.KEEP_TEXT.button.lower()
    if texts.binary:
        return "A side is not text: keep one of them whole."
    if texts.clean:
        return "Both sides' changes merged: check the text, edit it if needed."
    if texts.base is None:
        return (
            f"No common version to merge from: this starts as {mine}; edit it and {keep}, "
            "or keep a side with its button."
        )
    return (
        f"Both changed the same lines: this starts as {mine}; edit it and {keep}, or keep "
        "a side with its button."
    )


BOTH_NOTE = (
    f"This is what {choices.KEEP_BOTH.button} keeps: every line of each side, the lines "
    "both have once. Check it before you keep it; edit it, and "
    f"{choices.KEEP_TEXT.button} keeps your text instead."
)
"""The note while the text to keep shows what Keep both keeps."""


def facing_line(places: tuple[int, ...], top: int, other: tuple[int, ...]) -> int | None:
    """The line of the pane whose lines are at `other` places that faces line `top` of the
    pane at `places` (None: either pane has no lines)."""
    if not places or not other:
        return None
    place = places[min(top, len(places) - 1)]
    return min(bisect.bisect_left(other, place), len(other) - 1)


MAX_RENDERED_LINES = 20_000
# Lines coloured in one pass of the event loop: the rest follow a pass at a time, so the GUI
# thread never holds a frame.
COLOR_LINES_PER_PASS = 500

_SIGNS = {DiffKind.HUNK: "", DiffKind.CONTEXT: " ", DiffKind.ADDED: "+", DiffKind.REMOVED: "-"}


@dataclass(frozen=True)
class DiffRows:
    """A diff view's text, its lines, and the width of the numbers' gutter."""

    text: str
    lines: tuple[DiffLine, ...]
    gutter: int


def diff_rows(result: DiffResult) -> DiffRows:
    """The rows of `result` (at most MAX_RENDERED_LINES, then a line saying how many more)."""
    shown = result.lines[:MAX_RENDERED_LINES]
    width = len(str(max((line.old_number or line.new_number or 0) for line in shown)))
    texts = []
    for line in shown:
        if line.kind is DiffKind.HUNK:
            texts.append(line.text)
            continue
        old = str(line.old_number) if line.old_number else ""
        new = str(line.new_number) if line.new_number else ""
        texts.append(f"{old:>{width}} {new:>{width}} {_SIGNS[line.kind]} {line.text}")
    if len(result.lines) > MAX_RENDERED_LINES:
        texts.append(f"… {len(result.lines) - MAX_RENDERED_LINES} more lines not shown")
    return DiffRows("\n".join(texts), shown, 2 * width + 2)


def next_pass(first: int, total: int) -> int:
    """Where the colouring pass that starts at row `first` of `total` ends."""
    return min(total, first + COLOR_LINES_PER_PASS)


def counts_text(result: DiffResult) -> str:
    """`+3  −1`: the lines the diff adds and removes."""
    return f"+{result.added}  −{result.removed}"


@dataclass(frozen=True)
class MergeOffer:
    """What the diff window's Keep both button says and does for a merge."""

    enabled: bool
    tip: str
    note: str | None  # What the window says of the merge (None: nothing).

    @property
    def is_default(self) -> bool:
        """Enter takes it (a clean merge drops no change), in place of Close."""
        return self.enabled


def merge_offer(result: MergeResult | None) -> MergeOffer:
    """Keep both's state for the merge computed with the diff (None: none was possible)."""
    if result is None:
        return MergeOffer(False, "Nothing to merge from: the file was not loaded from disk", None)
    tip = (
        "Keep your changes and the changes on disk; review the result, then save"
        if result.clean
        else "Both sides changed the same lines"
    )
    return MergeOffer(result.clean, tip, result.describe())


_INLINE_CODE = re.compile(r"`[^`\n]+`")
_FRONTMATTER_KEY = re.compile(r"^([A-Za-z0-9_-]+)\s*:")
# The classifier's state as Qt's block state (an int; -1 is Qt's "none yet"): 0 prose,
# 1 in the frontmatter, then an open fence's character and length.
NORMAL = 0
_IN_FRONTMATTER = 1


class Style(enum.StrEnum):
    """What a span of a line is coloured as."""

    DELIMITER = "delimiter"
    FRONTMATTER = "frontmatter"
    FRONTMATTER_KEY = "frontmatter_key"
    HEADING = "heading"
    BULLET = "bullet"
    CODE = "code"
    FENCE = "fence"
    LINK = "link"


StyleSpan = tuple[int, int, Style]
"""Where a style starts in the line, how many characters it covers, and the style."""


def block_state(state: State) -> int:
    """The classifier's state as a block state."""
    if state is None:
        return NORMAL
    if isinstance(state, Fence):
        return 2 + state.length * 2 + (state.char == "~")
    return _IN_FRONTMATTER


def classifier_state(block: int) -> State:
    """A block state back as the classifier's state (an open fence's info is not kept;
    Qt's -1, "none yet", is prose)."""
    if block < 2:
        return FRONTMATTER_OPEN if block == _IN_FRONTMATTER else None
    length, tilde = divmod(block - 2, 2)
    return Fence("~" if tilde else "`", length, "")


def line_spans(
    text: str, previous: int, number: int, *, imports: bool
) -> tuple[int, list[StyleSpan]]:
    """The block state after line `number` (0-based) whose text is `text`, the line before
    having left `previous`, and the spans to colour in it, in order (a later one wins
    where they overlap); `imports`: `@`-imports are links."""
    line, state = classify_line(text, classifier_state(previous), number)
    after = block_state(state)
    kind = line.kind
    whole = len(text)
    if kind is LineKind.FRONTMATTER:
        if number == 0 or state is None:  # its fences
            return after, [(0, whole, Style.DELIMITER)]
        spans: list[StyleSpan] = [(0, whole, Style.FRONTMATTER)]
        key = _FRONTMATTER_KEY.match(text)
        if key:
            spans.append((0, key.end(1), Style.FRONTMATTER_KEY))
        return after, spans
    if kind is LineKind.FENCE or kind is LineKind.CODE:
        return after, [(0, whole, Style.FENCE)]
    if kind is LineKind.HEADING:
        return after, [(0, whole, Style.HEADING)]
    spans = []
    if kind is LineKind.LIST_ITEM:
        spans.append((line.indent, len(line.marker), Style.BULLET))
    if "`" in text:
        spans += [(m.start(), m.end() - m.start(), Style.CODE) for m in _INLINE_CODE.finditer(text)]
    if imports and "@" in text:
        spans += [(start, end - start, Style.LINK) for start, end, _written in import_spans(text)]
    return after, spans


MAX_HIGHLIGHTS = 2_000  # extra selections are painted one by one: enough to see them all


def count_words(query: str, count: int, current: int | None) -> str:
    """What the bar says of `count` matches of `query`, the selection being match
    `current` (0-based; None: no match is selected)."""
    plus = "+" if count >= MAX_MATCHES else ""
    if not query:
        return ""
    if not count:
        return "No matches"
    if current is not None:
        return f"{current + 1:,} of {count:,}{plus}"
    return f"{count:,}{plus} matches" if count > 1 else "1 match"


def replaced_words(count: int) -> str:
    """What the bar says after Replace all replaced `count` matches."""
    return f"Replaced {count:,}" if count else "No matches"


class FindState:
    """The matches of a query in a text, in the text's and the document's positions."""

    def __init__(self) -> None:
        self.text = ""
        self._positions = DocumentPositions("")
        self.matches: list[Span] = []
        self.stale = True
        """The text changed since the matches were found (find them again before use)."""

    def refresh(self, text: str, query: str, options: FindOptions) -> None:
        """Find `query` in `text` (the buffer as it is now)."""
        self.text = text
        self._positions = DocumentPositions(text)
        self.matches = find_all(text, query, options)
        self.stale = False

    def _span(self, start: int, end: int) -> Span:
        return self._positions.to_text(start), self._positions.to_text(end)

    def _document_span(self, span: Span) -> Span:
        return self._positions.to_document(span[0]), self._positions.to_document(span[1])

    def target(
        self, start: int, end: int, *, backwards: bool, from_start: bool = False
    ) -> Span | None:
        """The match to select from the selection `start`–`end`: the next from its end
        (`from_start`: from its start), or the one before its start (`backwards`), wrapping
        around; None: no match."""
        span = self._span(start, end)
        position = span[0] if backwards or from_start else span[1]
        index = next_match(self.matches, position, backwards=backwards)
        return self._document_span(self.matches[index]) if index is not None else None

    def index_of(self, start: int, end: int) -> int | None:
        """Which match the selection `start`–`end` (document positions) is, if one."""
        if start == end:
            return None
        try:
            return self.matches.index(self._span(start, end))
        except ValueError:
            return None

    def is_match_at(self, start: int, end: int, query: str, options: FindOptions) -> bool:
        """Whether the selection `start`–`end` is a match of `query` (what Replace replaces)."""
        return start != end and is_match(self.text, self._span(start, end), query, options)

    def replace_all(self, query: str, replacement: str, options: FindOptions) -> tuple[str, int]:
        """The text with every match of `query` replaced, and how many were."""
        return replace_all(self.text, query, replacement, options)

    def highlights(self) -> list[Span]:
        """Where to paint the matches (document positions; the first MAX_HIGHLIGHTS)."""
        return [self._document_span(span) for span in self.matches[:MAX_HIGHLIGHTS]]


class FindKey(enum.Enum):
    """What a key pressed in the find bar's fields, or in its text, does."""

    CLOSE = "close"
    NEXT = "next"
    PREVIOUS = "previous"
    REPLACE = "replace"
    PASS = "pass"  # Not the bar's: the field or the text takes it as ever.


def find_key(
    *, escape: bool, enter: bool, shift: bool, in_text: bool, in_replace: bool, shown: bool
) -> FindKey:
    """Esc closes the bar (in the text too, while it shows); Enter in the fields goes to the
    next match (Shift: the previous one; in the replace field: replaces)."""
    if escape:
        return FindKey.CLOSE if shown or not in_text else FindKey.PASS
    if in_text or not enter:
        return FindKey.PASS
    if in_replace:
        return FindKey.REPLACE
    return FindKey.PREVIOUS if shift else FindKey.NEXT
