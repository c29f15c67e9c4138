"""Which line of a text now is which line a line margin was told of, no Qt
(`gui.toolkit.text.line_margin`): marks follow lines added and removed as the user types, so
nothing is said of the wrong line before the next check or blame catches up."""

from __future__ import annotations

from collections.abc import Callable


class ToldLines:
    """Each line of the text now → its number when the margin was told (None: a new line)."""

    def __init__(self, count: int) -> None:
        """Told of a text of `count` lines, as it is now."""
        self._lines: list[int | None] | None = None  # None: every line is where it was
        self.count = count

    def told(self, count: int) -> None:
        """The margin was told of the text as it is now (`count` lines)."""
        self._lines = None
        self.count = count

    def line(self, now: int) -> int | None:
        """The number, when the margin was told, of line `now` (None: it was not there)."""
        if self._lines is None:
            return now
        return self._lines[now] if now < len(self._lines) else None

    def replaced(self, count: int) -> None:
        """The text was replaced whole (a reload, a merge taken): no line was told of."""
        self.count = count
        self._lines = [None] * count

    def edited(self, count: int, at: Callable[[], int]) -> None:
        """The text has `count` lines after an edit; if that is more or fewer than before,
        they came or went at line `at()` (asked only then: typing within a line costs
        nothing)."""
        delta, self.count = count - self.count, count
        if delta == 0:
            return
        lines = self._lines
        if lines is None:
            lines = self._lines = list(range(count - delta))
        first = at()
        if delta > 0:
            lines[first:first] = [None] * delta
        else:
            del lines[first : first - delta]
