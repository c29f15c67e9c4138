"""What a tab shows, and does with what is typed, while its file's text is on its way.

A file opens at once; its text comes from the window's file channel a moment later
(opening waits `components.editor.disk_jobs.OPEN_WAIT_MS` for it: most often it is there
by then). The keys typed meanwhile are held (`held_keys.HeldKeys`) and typed into the
text once it is loaded. When the page says "Reading…" is `components.editor.panel`'s
`ReadingPage`; this module keeps its timer and shows it.
"""

from __future__ import annotations

from collections.abc import Callable

from memtab.components.editor.panel import ReadingPage
from memtab.gui.editor.tab.held_keys import HeldKeys
from memtab.gui.editor.text.view import EditorView
from memtab.gui.toolkit.clock import GuiClock


class WhileReading:
    """The "Reading…" page and the held keys of one tab (see the module docstring);
    `overdue()` is called when the page says "Reading…" once the read is overdue."""

    def __init__(self, view: EditorView, clock: GuiClock, overdue: Callable[[], None]) -> None:
        self._view = view
        self._overdue_said = overdue
        self._keys = HeldKeys(
            [view.text_edit, view.description_edit], lambda: [view.text_edit.viewport()], view
        )
        self._page = ReadingPage()
        self._overdue = clock.timer(view, self._on_overdue, single_shot=True)

    @property
    def page(self) -> bool:
        """Whether the page says "Reading…" (else, while reading, it still shows the file
        before, and its state)."""
        return self._page.page

    def hold_keys(self) -> None:
        """The text is on its way: hold what is typed from now on."""
        self._keys.hold()

    def say(self, title: str, tooltip: str) -> None:
        """The text is still on its way: say "Reading…" under `title` at once if no
        file's text is shown, else once the read is overdue."""
        wait_ms = self._page.say(title, tooltip, has_file=self._view.has_file)
        if wait_ms is None:
            self._show_page()
        else:
            self._overdue.start(wait_ms)

    def release_keys(self) -> None:
        """The text is loaded: type what was held into it."""
        self._keys.release()

    def ended(self) -> None:
        """A page is shown in place of "Reading…" (the text, or why there is none)."""
        self._page.ended()
        self._overdue.stop()

    def drop(self) -> None:
        """Another file opens, or the tab closes: no page to come, and the keys held for
        this text are dropped."""
        self._overdue.stop()
        self._keys.drop()

    def _show_page(self) -> None:
        self._view.show_reading(self._page.title, self._page.tooltip)
        self._page.shown()

    def _on_overdue(self) -> None:
        self._show_page()
        self._overdue_said()
