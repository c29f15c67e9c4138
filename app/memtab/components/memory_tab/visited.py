"""Back and Forward through the files the editor showed, as in a browser or VS Code: after
following a link from an index to a file, Back returns to the index and Forward to the file
again (`gui/memory_tab/navigation.py` has the actions and their keys).

Each file made current — by a link, the tree, Quick open, a tab — is a step
(`VisitedFiles.visited`); Back steps to the one before, Forward to the one after, and a step
elsewhere after going back drops what was ahead. Files are kept by their ref's key (the
tree's row key); one the tree no longer shows (deleted, another workspace's) is skipped.
"""

from __future__ import annotations

from collections.abc import Callable

HISTORY_LIMIT = 100
"""The most steps kept: the oldest go first."""


class VisitedFiles:
    """The files shown, in order, and where Back and Forward stand among them."""

    def __init__(self, limit: int = HISTORY_LIMIT) -> None:
        self._keys: list[str] = []
        self._at = -1
        self._limit = limit

    @property
    def current(self) -> str | None:
        """The key of the step Back and Forward stand at."""
        return self._keys[self._at] if self._at >= 0 else None

    def visited(self, key: str) -> None:
        """`key`'s file is shown: a new step, unless it is the step already current (as
        when Back's file arrives)."""
        if self.current == key:
            return
        del self._keys[self._at + 1 :]
        self._keys.append(key)
        del self._keys[: -self._limit]
        self._at = len(self._keys) - 1

    def can_go(self, step: int) -> bool:
        """Whether there is a step `step` (-1: back, +1: forward) away."""
        return 0 <= self._at + step < len(self._keys)

    def go(self, step: int, opens: Callable[[str], bool]) -> bool:
        """Step back (-1) or forward (+1) to the nearest file `opens` can open (it says
        False for a file that is gone, which is then forgotten); False if none."""
        while self.can_go(step):
            self._at += step
            key = self._keys[self._at]
            if opens(key):
                return True
            del self._keys[self._at]
            if step > 0:
                self._at -= 1
        return False
