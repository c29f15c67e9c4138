"""The open document's saves take turns, without Qt: one save at a time.

`components.editor.document.OpenDocument` writes a save on the window's file channel and hears
of it later. Meanwhile the user may save again (Ctrl+S twice; closing the tab saves) and
the watcher may say the file changed (most likely the save's own write). The rules:

- a save asked while one is on its way does not start: it waits (`ask` says whether to
  start now); when the one on its way lands (`landed`), who asked for it is told first;
  the saves asked meanwhile are one more save, from what was written — when it was
  written and the buffer is still dirty — else they are told the outcome at once
  (`again`);
- following the disk waits until no save is on its way (`follow_later`), then happens
  once (`follow_due`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

Then = Callable[[bool], None] | None
"""Who waits for a save: told whether it was written (None: nobody)."""


class SaveTurns:
    """One save at a time (see the module docstring)."""

    def __init__(self) -> None:
        self._waiting: list[Then] | None = None  # the save on its way's, first; None: none
        self._follow = False

    @property
    def busy(self) -> bool:
        """Whether a save is on its way to disk."""
        return self._waiting is not None

    def ask(self, then: Then) -> bool:
        """A save is asked for (`then` is told its outcome): whether to start it now
        (False: it waits for the one on its way)."""
        if self._waiting is not None:
            self._waiting.append(then)
            return False
        self._waiting = [then]
        return True

    def landed(self) -> tuple[Then, tuple[Then, ...]]:
        """The save on its way landed: who asked for it, and who asked meanwhile."""
        waiting, self._waiting = self._waiting or [None], None
        return waiting[0], tuple(waiting[1:])

    @staticmethod
    def again(later: Sequence[Then], *, saved: bool, dirty: bool) -> bool:
        """Whether the saves asked meanwhile (`later`) are one more save (the last one was
        `saved` and the buffer is still `dirty`) rather than told its outcome."""
        return bool(later) and saved and dirty

    def follow_later(self) -> bool:
        """The disk changed: whether following it waits for the save on its way."""
        if self._waiting is None:
            return False
        self._follow = True
        return True

    def follow_due(self) -> bool:
        """Whether a follow of the disk put off is due now (no save on its way), once."""
        if not self._follow or self._waiting is not None:
            return False
        self._follow = False
        return True


def tell_all(waiting: Sequence[Then], saved: bool) -> None:
    """Tell every one of `waiting` whether the save was written."""
    for then in waiting:
        if then is not None:
            then(saved)
