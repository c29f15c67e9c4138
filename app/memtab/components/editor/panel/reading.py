"""While a text is on its way: when the page says "Reading…", and the keys held meanwhile
— Qt-free; `gui.editor.tab.reading.WhileReading` keeps the page's timer and the view, and
`gui.editor.tab.held_keys` the event filters that catch and send the keys.

The page says "Reading…" at once when it shows no file's text (a new tab); else the file
shown before stays until the read is overdue (`READING_SHOWN_AFTER_MS`): most reads take a
few milliseconds, and a page shown that long is only a flicker, and a paint that delays the
text. What is typed meanwhile is held in order (`Held`), sent on when the text is there,
and dropped when another file opens instead.
"""

from __future__ import annotations

from typing import Generic, TypeVar

T = TypeVar("T")

READING_SHOWN_AFTER_MS = 100
"""How long the file shown before stays while the next one's text is read (its keys held
already) before the page says "Reading…"."""


class ReadingPage:
    """Whether, and when, one tab's page says "Reading…" (see the module docstring)."""

    def __init__(self) -> None:
        self.title = ""
        self.tooltip = ""
        self.page = False
        """Whether the page says "Reading…" (else, while reading, it still shows the file
        before, and its state)."""

    def say(self, title: str, tooltip: str, *, has_file: bool) -> int | None:
        """The text is still on its way, under `title`: None — say "Reading…" now (no
        file's text is shown, or the page says it already) — else how many ms the file
        shown before stays first (then the page says it)."""
        self.title, self.tooltip = title, tooltip
        if self.page or not has_file:
            return None
        return READING_SHOWN_AFTER_MS

    def shown(self) -> None:
        """The page says "Reading…" now."""
        self.page = True

    def ended(self) -> None:
        """A page is shown in place of "Reading…" (the text, or why there is none)."""
        self.page = False


class Held(Generic[T]):
    """What is typed while a text is on its way, in order, until the text is there
    (`release`) or another takes its place (`drop`)."""

    def __init__(self) -> None:
        self._items: list[T] = []
        self._holding = False

    @property
    def holding(self) -> bool:
        """Whether what is typed is held."""
        return self._holding

    def hold(self) -> bool:
        """Hold from now on (what is held already stays: the same text is read again);
        whether holding starts now (the caller catches the keys from now on)."""
        started = not self._holding
        self._holding = True
        return started

    def add(self, item: T) -> bool:
        """Hold `item` if holding; whether it was held (else it goes where it was sent)."""
        if self._holding:
            self._items.append(item)
        return self._holding

    def release(self) -> tuple[list[T], bool]:
        """Stop holding: what was held, in order, and whether it was holding (the caller
        stops catching the keys)."""
        items, self._items = self._items, []
        was_holding, self._holding = self._holding, False
        return items, was_holding

    def drop(self) -> bool:
        """Stop holding and forget what was held; whether it was holding."""
        return self.release()[1]
