"""Fuzzy matching for Quick open and the command palette, as in VS Code: the typed letters in
order, case ignored, ranked by word starts, runs and shortness; `rank` keeps the best `limit`,
ties in given order."""

from __future__ import annotations

import heapq
import itertools
import operator
from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

T = TypeVar("T")

_WORD_STARTS = frozenset(" /_-.:·")
_AT_WORD_START = 8
_AFTER_PREVIOUS = 5
_MATCHED = 1
_BY_SCORE = operator.itemgetter(0, 1)  # score, then the earlier: never the candidates


def fuzzy_score(query: str, text: str) -> int | None:
    """How well `text` matches `query` (higher is better), or None when it does not: every
    letter of `query` (spaces ignored) in order in `text` (`fuzzy_positions`)."""
    found = fuzzy_positions(query, text)
    if not found:
        return None if found is None else 0
    haystack = text.casefold()
    at_starts = sum(at == 0 or haystack[at - 1] in _WORD_STARTS for at in found)
    in_runs = sum(at == before + 1 for before, at in itertools.pairwise(found))
    score = len(found) * _MATCHED + at_starts * _AT_WORD_START + in_runs * _AFTER_PREVIOUS
    return score * 100 - len(text)


def fuzzy_positions(query: str, text: str) -> tuple[int, ...] | None:
    """Where in `text` the letters of `query` matched, each at its first place after the
    one before (greedy and linear in `text`), to score and highlight them; None when it
    does not match."""
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
    return [candidate for _, _, candidate in heapq.nlargest(limit, scored, key=_BY_SCORE)]
