"""Near-duplicate texts, the one mechanism (the offline consolidator, `memtab duplicates`): feature
sets alike by plain or weighted Jaccard, candidate pairs from an inverted index without boilerplate
features, and groups of a keeper with what is alike to it (docs/trust-quality.md "Duplicates")."""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from itertools import combinations, repeat
from typing import Any, TypeVar

COMMON_FILES = 50
"""A feature held by more sets than this is boilerplate: it makes no candidate pair alone."""

F = TypeVar("F", bound=Hashable)

_WORD = re.compile(r"\w+")
# What `\w` matches in ASCII; every other ASCII character becomes a space.
_ASCII_WORD_CHARS = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")
_ASCII_NON_WORD_TO_SPACE = bytes(c if c in _ASCII_WORD_CHARS else 0x20 for c in range(256))


def lowered_words(text: str) -> list[str]:
    r"""`\w+` runs of the lowercased text, ASCII text split by a byte table, not the regex."""
    if text.isascii():
        return (
            text.encode("ascii").translate(_ASCII_NON_WORD_TO_SPACE).decode("ascii").lower().split()
        )
    return _WORD.findall(text.lower())


def jaccard(a: frozenset[Any], b: frozenset[Any]) -> float:
    """|a ∩ b| / |a ∪ b| (0 when either is empty)."""
    if not a or not b:
        return 0.0
    shared = len(a & b)
    return shared / (len(a) + len(b) - shared)


def idf_weights(sets: Iterable[frozenset[F]]) -> dict[F, float]:
    """Each feature's smoothed inverse document frequency: log(1 + N / sets holding it)."""
    counts: Counter[F] = Counter()
    total = 0
    for features in sets:
        counts.update(features)
        total += 1
    return {feature: math.log1p(total / held) for feature, held in counts.items()}


def near_duplicate_pairs(
    sets: Sequence[frozenset[F]],
    threshold: float,
    *,
    weight: Mapping[F, float] | None = None,
    common: int = COMMON_FILES,
) -> list[tuple[float, int, int]]:
    """(similarity, i, j) for every pair at or above the threshold, most alike first (weighted with
    `weight`)."""
    seen: set[F] = set()
    repeated: set[F] = set()
    for features in sets:
        repeated |= features & seen
        seen |= features
    del seen
    postings: dict[F, list[int]] = defaultdict(list)
    for index, features in enumerate(sets):
        for feature in features & repeated:
            postings[feature].append(index)
    candidates: set[tuple[int, int]] = set()
    for members in postings.values():
        if 1 < len(members) <= common:
            candidates.update(combinations(members, 2))
    # Each set's size once: the union is the sizes less the intersection, and a pair whose sizes
    # differ past the threshold is never compared. Summed by `map`, in order: the same sums to the
    # bit.
    if weight is None:
        sizes = [float(len(features)) for features in sets]
    else:
        get = weight.get
        sizes = [sum(map(get, features, repeat(0.0))) for features in sets]
    pairs = []
    for i, j in candidates:
        size_i, size_j = sizes[i], sizes[j]
        if size_i <= 0.0 or size_j <= 0.0:
            continue
        if min(size_i, size_j) < threshold * max(size_i, size_j):
            continue
        both = sets[i] & sets[j]
        shared = float(len(both)) if weight is None else sum(map(get, both, repeat(0.0)))
        similarity = shared / (size_i + size_j - shared)
        if similarity >= threshold:
            pairs.append((similarity, i, j))
    return sorted(pairs, key=lambda pair: (-pair[0], pair[1], pair[2]))


def alike_groups(
    pairs: Iterable[tuple[float, int, int]], rank: Callable[[int], Any]
) -> list[tuple[list[int], float]]:
    """Groups of alike items (indexes, keeper first, two or more) with the lowest similarity to the
    keeper, the best-ranked item keeping."""
    alike: dict[int, dict[int, float]] = defaultdict(dict)
    for similarity, i, j in pairs:
        alike[i][j] = alike[j][i] = similarity
    taken: set[int] = set()
    groups: list[tuple[list[int], float]] = []
    for keeper in sorted(alike, key=rank):
        if keeper in taken:
            continue
        members = sorted(j for j in alike[keeper] if j not in taken)
        if members:
            taken.update((keeper, *members))
            groups.append(([keeper, *members], min(alike[keeper][j] for j in members)))
    return groups
