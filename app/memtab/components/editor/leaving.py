"""Leaving unsaved changes — closing a tab, the window, another workspace — without Qt."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from enum import Enum
from typing import Generic, Protocol, TypeVar

from memtab.humanize import short_name

LISTED_NAMES = 8  # The files the question names at most (a longer list says how many more).


def unsaved_question(names: Sequence[str]) -> tuple[str, str]:
    """The question and its detail for unsaved changes to the files `names`."""
    lost = "Your changes are lost if you don't save them."
    if len(names) == 1:
        return f"Save the changes to {short_name(names[0])}?", lost
    listed = "\n".join(f"• {short_name(name)}" for name in names[:LISTED_NAMES])
    more = len(names) - LISTED_NAMES
    if more > 0:
        listed += f"\n… and {more} more"
    return f"Save the changes to {len(names)} files?", f"{listed}\n\n{lost}"


def save_label(names: Sequence[str]) -> str:
    """The question's Save button: Save all for more than one file."""
    return "&Save" if len(names) == 1 else "&Save all"


class DiscardChoice(Enum):
    """The answer to the unsaved-changes question."""

    SAVE = "save"
    DISCARD = "discard"
    CANCEL = "cancel"


Ask = Callable[[list[str], Callable[[DiscardChoice], None]], None]
"""Asks Save / Discard / Cancel about unsaved changes to the files named, then calls back
once with the answer (`gui.editor.editor.ask_unsaved`)."""


class UnsavedTab(Protocol):
    """What leaving asks of a tab (`gui.editor.tab.file_tab.FileTab`)."""

    # Whether it has unsaved changes.
    @property
    def is_dirty(self) -> bool: ...
    # Its file's name, for the question.
    @property
    def title(self) -> str: ...
    # Save it; `then(True)` once written, `then(False)` when not (its bar says why).
    def save(self, then: Callable[[bool], None] | None = None) -> None: ...


TabT = TypeVar("TabT", bound=UnsavedTab)


class Leaving(Generic[TabT]):
    """The panel's unsaved-changes rules, over its tabs."""

    def __init__(
        self,
        is_open: Callable[[TabT], bool],
        current: Callable[[], TabT | None],
        show: Callable[[TabT], None],
        close: Callable[[TabT], None],
        ask: Ask,
    ) -> None:
        """`is_open(tab)`: whether the tab is still open; `current()`: the tab shown;
        `show(tab)` makes it current; `close(tab)` closes it; `ask` asks the question."""
        self._is_open = is_open
        self._current = current
        self._show = show
        self._close = close
        self._ask = ask

    def close_asking(self, tab: TabT) -> None:
        """Close `tab`; with unsaved changes ask first (a save that fails keeps it open, shown)."""
        if not tab.is_dirty:
            self._close(tab)
            return

        def saved(ok: bool) -> None:
            if self._is_open(tab):
                (self._close if ok else self._show)(tab)

        def answered(choice: DiscardChoice) -> None:
            if not self._is_open(tab):
                return  # closed meanwhile
            if choice is DiscardChoice.DISCARD:
                self._close(tab)
            elif choice is DiscardChoice.SAVE:
                tab.save(saved)

        self._show(tab)
        self._ask([tab.title], answered)

    def leave(self, then: Callable[[], object], tabs: Sequence[TabT]) -> None:
        """Run `then` once the unsaved changes of `tabs` are saved or the user chose to
        discard them; Cancel, or a save that fails, runs nothing. Asks once for all."""
        dirty = [tab for tab in tabs if tab.is_dirty]
        if not dirty:
            then()
            return

        def answered(choice: DiscardChoice) -> None:
            if choice is DiscardChoice.DISCARD:
                then()
            elif choice is DiscardChoice.SAVE:
                self._save_all([tab for tab in dirty if self._is_open(tab)], then)

        if self._current() not in dirty:
            self._show(dirty[0])
        self._ask([tab.title for tab in dirty], answered)

    def _save_all(self, tabs: list[TabT], then: Callable[[], object]) -> None:
        """Save `tabs`; `then` once every one is saved, else show the first that was not."""
        outcomes: dict[int, bool] = {}

        def saved(index: int, ok: bool) -> None:
            outcomes[index] = ok
            if len(outcomes) < len(tabs):
                return
            failed = [tab for i, tab in enumerate(tabs) if not outcomes[i] and self._is_open(tab)]
            if failed:
                self._show(failed[0])
            else:
                then()

        if not tabs:
            then()
        for index, tab in enumerate(tabs):
            tab.save(functools.partial(saved, index))
