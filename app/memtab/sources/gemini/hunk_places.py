"""Where jsdiff places a hunk, found in linear time: each line coded as two characters, a hunk's
old lines searched as one string in rings of doubling distance; past `MAX_PLACING_WORK`
refused (`PatchTooCostlyError`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

MAX_PLACING_WORK = 64_000_000
"""Lines searched, at most, to place one patch's hunks (a Python-read line counts
`_PYTHON_LINE`)."""
_PYTHON_LINE = 16
_FIRST_RING = 4096
"""Lines searched on each side before the search doubles its distance."""
_HIGH = 0x88000
"""A line's code is two characters from ranges that never meet, so a hunk matches only at a
line's start."""


class PatchTooCostlyError(ValueError):
    """Placing the patch's hunks would search more lines than Memtab gives it."""


class PlacingWork:
    """The lines searched so far for one patch, and the check that may cancel it."""

    def __init__(self, check: Callable[[], None] | None = None) -> None:
        self.spent = 0
        self._check = check

    def spend(self, lines: int, *, python: bool = False) -> None:
        """Count `lines` searched; refuses past the bound, and lets the caller's check cancel."""
        self.spent += lines * (_PYTHON_LINE if python else 1)
        if self.spent > MAX_PLACING_WORK:
            raise PatchTooCostlyError(
                "its hunks are far from the lines they name: placing them would search more "
                f"than {MAX_PLACING_WORK // 1_000_000} million lines of the files it changes"
            )
        if self._check is not None:
            self._check()


def old_side(hunk_lines: Sequence[str]) -> list[str]:
    """The lines a hunk expects in the file, as jsdiff's `applyHunk` compares them."""
    return [line[1:] if line else "" for line in hunk_lines if not line or line[0] in " -"]


class HunkPlaces:
    """One file's lines, coded for the hunks of one part of a patch."""

    def __init__(
        self, lines: Sequence[str | None], hunks: Sequence[Sequence[str]], work: PlacingWork
    ) -> None:
        ids: dict[str, int] = {}
        for hunk_lines in hunks:
            for line in old_side(hunk_lines):
                ids.setdefault(line, len(ids) + 1)  # 0: a line no hunk expects
        self._codes: dict[str | None, str] = {line: _code(n) for line, n in ids.items()}
        other = _code(0)
        work.spend(len(lines), python=True)
        self._text = "".join([self._codes.get(line, other) for line in lines])
        self._lines = len(lines)
        self._work = work

    def place(
        self, hunk_lines: Sequence[str], start: int, min_line: int, max_line: int
    ) -> int | None:
        """The line jsdiff applies the hunk at from `start` within its bounds; None: nowhere."""
        old = old_side(hunk_lines)
        size = len(old)
        if not size:
            return start  # nothing to compare: jsdiff takes its first try
        pattern = "".join([self._codes[line] for line in old])
        self._work.spend(size)
        if 0 <= start <= self._lines - size and self._text.startswith(pattern, 2 * start):
            return start
        # jsdiff goes after `start` up to `max_line`, then before down to `min_line`.
        last = self._lines - size
        ahead = (max(start + 1, 0), min(max_line, last))
        behind = (max(min_line, 0), min(start - 1, last))
        reach = max(ahead[1] - start, start - behind[0])
        near, far = 1, _FIRST_RING
        while near <= reach:
            found_ahead = self._first(pattern, size, _clip(start + near, start + far, ahead))
            found_behind = self._last(pattern, size, _clip(start - far, start - near, behind))
            if found_ahead is not None and (
                found_behind is None or found_ahead - start <= start - found_behind
            ):
                return found_ahead  # at the same distance jsdiff tries after first
            if found_behind is not None:
                return found_behind
            near, far = far + 1, 2 * far
        return None

    def _first(self, pattern: str, size: int, span: tuple[int, int] | None) -> int | None:
        return self._found(self._text.find, pattern, size, span)

    def _last(self, pattern: str, size: int, span: tuple[int, int] | None) -> int | None:
        return self._found(self._text.rfind, pattern, size, span)

    def _found(
        self,
        search: Callable[[str, int, int], int],
        pattern: str,
        size: int,
        span: tuple[int, int] | None,
    ) -> int | None:
        """The line `search` finds the hunk's codes at, starting at a line of `span`."""
        if span is None:
            return None
        self._work.spend(span[1] - span[0] + size)
        at = search(pattern, 2 * span[0], 2 * (span[1] + size))
        return at // 2 if at >= 0 else None


def _clip(low: int, high: int, bounds: tuple[int, int]) -> tuple[int, int] | None:
    low, high = max(low, bounds[0]), min(high, bounds[1])
    return (low, high) if low <= high else None


def _code(n: int) -> str:
    return chr(n // _HIGH) + chr(_HIGH + n % _HIGH)
