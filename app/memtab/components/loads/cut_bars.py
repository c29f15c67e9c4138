"""What the editor's bar says of Claude Code's cut of an open `MEMORY.md`, no Qt (docs/formats.md
§17.6), as the text is typed (`bar_now`): the cut's note, and *Not saved*, holding a save that
would leave more lines past the cut than on disk; Go and Move are the loads feature's actions."""

from __future__ import annotations

from typing import Literal, NamedTuple

from memtab.humanize import plural
from memtab.sources.claude.index import (
    INDEX_MAX_LINES,
    INDEX_MAX_UNITS,
    IndexCut,
    index_cut,
    lines_past_cut,
)

GO_TO_CUT = "loads.go_to_cut"
"""The loads feature's action: the cursor to the first line Claude Code does not read."""
MOVE_PAST_CUT = "loads.move_past_cut"
"""The loads feature's action: the lines past the cut into a topic file beside the index."""
SAVE_PAST_CUT = "save_past_cut"
"""The bar's *Save anyway*: save this text though it pushes lines past the cut."""

Choice = tuple[str, str]
"""An action id and its button label (as `components.editor.session`'s)."""

NOTE_CHOICES: tuple[Choice, ...] = (
    (GO_TO_CUT, "&Go to the cut"),
    (MOVE_PAST_CUT, "&Move them to a topic file"),
)
SAVE_CHOICES: tuple[Choice, ...] = (
    (SAVE_PAST_CUT, "Save &anyway"),
    (MOVE_PAST_CUT, "&Move them to a topic file"),
    (GO_TO_CUT, "&Go to the cut"),
)


def _limit(cut: IndexCut) -> str:
    if cut.reason == "size":
        return f"its first {INDEX_MAX_UNITS:,} characters"
    return f"its first {INDEX_MAX_LINES} lines"


def _past(cut: IndexCut) -> int:
    """Lines of the text `cut` is of that Claude Code does not read whole."""
    return 0 if cut.cut_at_line is None else cut.lines - cut.cut_at_line + 1


def cut_note(text: str) -> str | None:
    """The cut's note for a `MEMORY.md` holding `text` (None: Claude Code reads it whole)."""
    cut = index_cut(text)
    if cut.cut_at_line is None:
        return None
    return (
        f"Claude Code does not read {plural(_past(cut), 'line')} of MEMORY.md, from line "
        f"{cut.cut_at_line} on: it loads only {_limit(cut)} into a session."
    )


def past_cut_warning(on_disk: str, text: str) -> str | None:
    """Why saving `text` over `on_disk` waits for the user's word: more of its lines would
    be past the cut than the file on disk has (None: the save need not wait)."""
    cut = index_cut(text)
    more = _past(cut) - lines_past_cut(on_disk)
    if more <= 0 or cut.cut_at_line is None:
        return None
    return (
        f"Not saved: Claude Code would not read {plural(_past(cut), 'line')} of MEMORY.md, "
        f"from line {cut.cut_at_line} on — {more} more than the file on disk."
    )


class CutBar(NamedTuple):
    """What the cut's bar shows: the note (`note`) or *Not saved*, its words, its buttons."""

    note: bool
    text: str
    choices: tuple[Choice, ...]


Shown = Literal["note", "save", "none"]
"""Which bar shows: the cut's note, *Not saved*, or none at all (another bar, a conflict's,
is not the cut's to change)."""


def bar_now(shown: Shown, was_past: int, on_disk: str, text: str) -> CutBar | None:
    """What the cut's bar shows now that the buffer holds `text` (`on_disk`: the file's; `was_past`:
    lines past the cut when last looked), or None. *Not saved* gives way to the note; the note
    comes when lines go past a cut they were all within, not again once dismissed."""
    if shown == "save":
        warning = past_cut_warning(on_disk, text)
        if warning is not None:
            return CutBar(False, warning, SAVE_CHOICES)
    if shown == "none" and was_past:
        return None
    note = cut_note(text)
    return CutBar(True, note, NOTE_CHOICES) if note is not None else None
