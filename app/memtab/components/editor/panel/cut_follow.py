"""A tab's bars over Claude Code's cut of its `MEMORY.md` as the user types and saves — no
Qt (`gui.editor.tab.file_tab.FileTab` shows them in its bar).

What the bars say is `components.loads.cut_bars` (docs/formats.md §17.6); this is what one
tab keeps between keystrokes: how many lines were past the cut when its bar last looked,
and the text the user chose to save past it (*Save anyway*), so that save waits no more.
"""

from __future__ import annotations

from typing import NamedTuple

from memtab.components.editor.session import Choice, OpenFile, Situation
from memtab.components.loads.cut_bars import Shown, bar_now, cut_note
from memtab.file_protocol.file_ref import MemoryFileRef
from memtab.sources.claude.index import is_cut_index, lines_past_cut

CUT_FOLLOW_MS = 150
"""Typing settles this long before the cut's bar follows the text (a 25 KB file: a ms)."""

_SHOWN: dict[Situation, Shown] = {
    Situation.CUT_NOTE: "note",
    Situation.PAST_CUT: "save",
    Situation.NONE: "none",
}


def has_cut(ref: MemoryFileRef | None) -> bool:
    """Whether `ref` is a file Claude Code reads only to its cut (its MEMORY.md)."""
    return ref is not None and is_cut_index(ref.agent, ref.name)


class CutStep(NamedTuple):
    """What the bar does as the text changed: nothing, go (`clear`), or show a cut bar."""

    clear: bool = False
    situation: Situation = Situation.NONE
    text: str = ""
    choices: tuple[Choice, ...] = ()


KEEP = CutStep()
"""The bar stays as it is."""


class CutFollow:
    """One tab's cut bars (see the module docstring)."""

    def __init__(self) -> None:
        self._saved_anyway = ""  # the text the user chose to save past the cut
        self._past = 0  # lines past the cut when the bar last looked

    def opened(self, text: str) -> None:
        """A file's `text` is shown (the note, if any, came with it)."""
        self._past = lines_past_cut(text)

    def save_waits(self, file: OpenFile, text: str) -> str | None:
        """Why a save of `text` waits for the user's word (`OpenFile.past_cut_warning`),
        unless they gave it for this text; None: it need not wait."""
        return file.past_cut_warning(text) if text != self._saved_anyway else None

    def save_anyway(self, text: str) -> None:
        """The user chose *Save anyway* for `text`."""
        self._saved_anyway = text

    def follow(self, file: OpenFile, text: str, bar: tuple[str, list[str]]) -> CutStep:
        """What the bar does now that the buffer holds `text` (`bar`: the words and the
        action ids it shows); a bar that is not the cut's (a conflict's) is left alone."""
        if not has_cut(file.ref):
            return KEEP
        was_past, self._past = self._past, lines_past_cut(text)
        shown = _SHOWN.get(file.situation)
        if shown is None:
            return KEEP
        now = bar_now(shown, was_past, file.clean_text, text)
        if now is None:
            return CutStep(clear=True) if shown != "none" else KEEP
        if (now.text, [choice for choice, _label in now.choices]) == bar:
            return KEEP
        situation = Situation.CUT_NOTE if now.note else Situation.PAST_CUT
        return CutStep(False, situation, now.text, now.choices)


def note_after_saving_anyway(saved: bool, situation: Situation, text: str) -> str | None:
    """The cut's note once *Save anyway* saved `text` (None: not saved, another bar shows,
    or Claude Code reads it whole)."""
    if not saved or situation is not Situation.NONE:
        return None
    return cut_note(text)
