"""What the editor's message bar shows of a message — no Qt (`gui.editor.tab.bar.MessageBar`
draws it).

A message takes at most `COLLAPSED_LINES` lines until "More" shows the rest (stacked bars
left 9 lines of text at 1366×768); "Less" folds it again. Enter picks the default choice
only when it is one of the buttons offered.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import NamedTuple

COLLAPSED_LINES = 2
"""The lines a message takes until its bar is expanded."""


class BarFit(NamedTuple):
    """How the message fits: whether the More/Less button shows, what it says, and the
    message's greatest height (None: all it needs)."""

    toggle_shown: bool
    toggle_text: str
    max_height: int | None


def bar_fit(needed: int, collapsed: int, *, expanded: bool) -> BarFit:
    """How a message `needed` pixels high fits a bar whose collapsed text is `collapsed`
    high (COLLAPSED_LINES lines)."""
    if expanded:
        return BarFit(True, "Less", None)
    return BarFit(needed > collapsed, "More", collapsed)


def default_choice_of(default: str | None, offered: Collection[str]) -> str | None:
    """The choice Enter picks: `default` if it is offered (None: Enter picks nothing)."""
    return default if default in offered else None
