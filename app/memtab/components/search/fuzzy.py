"""Fuzzy matching for Quick open (Ctrl+P) and the command palette (Ctrl+Shift+P), as in
VS Code: the letters typed must appear in order in the candidate, case ignored; a candidate
ranks higher the more of them start a word or follow each other, and the shorter it is.

`rank` keeps the best `limit` candidates, best first; ties keep the given order."""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

T = TypeVar("T")

_WORD_STARTS = frozenset(" /_-.:·")
_AT_WORD_START = 8
_AFTER_PREVIOUS = 5
_MATCHED = 1


def fuzzy_score(query: str, text: str) -> int | None:
    """How well `text` matches `query` (higher is better), or None when it does not: every
    letter of `query` (spaces ignored) in order in `text`. Greedy and linear in `text`."""
    wanted = "".join(query.split()).casefold()
    if not wanted:
        return 0
    haystack = text.casefold()
    score = 0
    position = -2
    index = 0
    for letter in wanted:
        found = haystack.find(letter, index)
        if found < 0:
            return None
        score += _MATCHED
        if found == 0 or haystack[found - 1] in _WORD_STARTS:
            score += _AT_WORD_START
        if found == position + 1:
            score += _AFTER_PREVIOUS
        position = found
        index = found + 1
    return score * 100 - len(text)


def fuzzy_positions(query: str, text: str) -> tuple[int, ...] | None:
    """Where in `text` the letters of `query` matched (`fuzzy_score`'s greedy walk), to
    highlight them; None when it does not match."""
    wanted = "".join(query.split()).casefold()
    haystack = text.casefold()
    found: list[int] = []
    index = 0
    for letter in wanted:
        at = haystack.find(letter, index)
        if at < 0:
            return None
        found.append(at)
        index = at + 1
    return tuple(found)


def rank(
    query: str, candidates: Sequence[T], text_of: Callable[[T], str], limit: int = 200
) -> list[T]:
    """The candidates `query` matches, best first, at most `limit`."""
    scored: Iterable[tuple[int, int, T]] = (
        (score, -order, candidate)
        for order, candidate in enumerate(candidates)
        if (score := fuzzy_score(query, text_of(candidate))) is not None
    )
    return [candidate for _, _, candidate in heapq.nlargest(limit, scored, key=_by_score)]


def _by_score(entry: tuple[int, int, object]) -> tuple[int, int]:
    return entry[0], entry[1]
