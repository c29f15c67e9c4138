"""What a tab shows, and does with what is typed, while its file's text is on its way.

A file opens at once; its text comes from the window's file channel a moment later
(opening waits `components.editor.disk_jobs.OPEN_WAIT_MS` for it: most often it is there
by then). The keys typed meanwhile are held (`held_keys.HeldKeys`) and typed into the
text once it is loaded. The page says "Reading…" at once when it shows no file's text (a
new tab); else the file shown before stays until the read is overdue
(`READING_SHOWN_AFTER_MS`): most reads take a few milliseconds, and a page shown that long
is only a flicker, and a paint that delays the text.
"""

from __future__ import annotations

from collections.abc import Callable

from memtab.gui.editor.tab.held_keys import HeldKeys
from memtab.gui.editor.text.view import EditorView
from memtab.gui.toolkit.clock import GuiClock

READING_SHOWN_AFTER_MS = 100
"""How long the file shown before stays while the next one's text is read (its keys held
already) before the page says "Reading…"."""


class WhileReading:
    """The "Reading…" page and the held keys of one tab (see the module docstring);
    `overdue()` is called when the page says "Reading…" once the read is overdue."""

    def __init__(self, view: EditorView, clock: GuiClock, overdue: Callable[[], None]) -> None:
        self._view = view
        self._overdue_said = overdue
        self._keys = HeldKeys(
            [view.text_edit, view.description_edit], lambda: [view.text_edit.viewport()], view
        )
        self._title = ""
        self._tooltip = ""
        self.page = False
        """Whether the page says "Reading…" (else, while reading, it still shows the file
        before, and its state)."""
        self._overdue = clock.timer(view, self._on_overdue, single_shot=True)

    def hold_keys(self) -> None:
        """The text is on its way: hold what is typed from now on."""
        self._keys.hold()

    def say(self, title: str, tooltip: str) -> None:
        """The text is still on its way: say "Reading…" under `title` at once if no
        file's text is shown, else once the read is overdue."""
        self._title, self._tooltip = title, tooltip
        if self.page or not self._view.has_file:
            self._show_page()
        else:
            self._overdue.start(READING_SHOWN_AFTER_MS)

    def release_keys(self) -> None:
        """The text is loaded: type what was held into it."""
        self._keys.release()

    def ended(self) -> None:
        """A page is shown in place of "Reading…" (the text, or why there is none)."""
        self.page = False
        self._overdue.stop()

    def drop(self) -> None:
        """Another file opens, or the tab closes: no page to come, and the keys held for
        this text are dropped."""
        self._overdue.stop()
        self._keys.drop()

    def _show_page(self) -> None:
        self._view.show_reading(self._title, self._tooltip)
        self.page = True

    def _on_overdue(self) -> None:
        self._show_page()
        self._overdue_said()
