"""A unified diff's rows as a diff view shows them, no Qt (`gui.toolkit.text.diff_view`
renders them): each row's text, its colours a pass at a time, and what the window says of a
merge of the two sides."""

from __future__ import annotations

from dataclasses import dataclass

from memtab.components.editor.merge import MergeResult
from memtab.components.text_diff import DiffLine, DiffResult, LineKind

MAX_RENDERED_LINES = 20_000
# Lines coloured in one pass of the event loop: the rest follow a pass at a time, so the GUI
# thread never holds a frame.
COLOR_LINES_PER_PASS = 500

_SIGNS = {LineKind.HUNK: "", LineKind.CONTEXT: " ", LineKind.ADDED: "+", LineKind.REMOVED: "-"}


@dataclass(frozen=True)
class DiffRows:
    """What a diff view shows: its text, the lines it shows, and the width of the numbers'
    gutter in front of each line (hunk headers have none)."""

    text: str
    lines: tuple[DiffLine, ...]
    gutter: int


def diff_rows(result: DiffResult) -> DiffRows:
    """The rows of `result` (at most MAX_RENDERED_LINES, then a line saying how many more)."""
    shown = result.lines[:MAX_RENDERED_LINES]
    width = len(str(max((line.old_number or line.new_number or 0) for line in shown)))
    texts = []
    for line in shown:
        if line.kind is LineKind.HUNK:
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
    note: str | None
    """What the window says of the merge (None: nothing)."""

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
