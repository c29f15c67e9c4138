"""Near-duplicate texts: the one mechanism (the offline consolidator's combines, `memtab
duplicates`).

Each text is a set of features — the offline consolidator's are word 3-shingles of its
bullets and paragraphs (`consolidation.offline.units`: lines nearly the same), `memtab
duplicates`' the stems of its words (`trust.words`: the same note in other words) — and two
texts are alike when the Jaccard similarity of their sets reaches a threshold: plain, or
weighted (each feature counts its weight, as IDF weights a word by how few texts hold it:
`idf_weights`). Candidate pairs come from an inverted index of the features, so only sets
sharing a feature that is not boilerplate are compared: a feature held by more than
`common` sets never makes a pair on its own, and the index holds just the features in two
sets or more (found with set operations, in C), which keeps it small and quick on 20,000
texts.

Alike is not transitive: A~B and B~C say nothing of A and C. So a group (`alike_groups`)
is a keeper and the items alike to *it* — the best-ranked item with every item still free
that is alike to it, then the next best-ranked free item, and so on.

Why by hand, when libraries for near-duplicate text exist? Measured on the seeded
duplicates of `tests/support/seeded_duplicates.py` (260 notes, 70 pairs that say the
same, the rest siblings, variants and unrelated notes; docs/trust-quality.md "Duplicates"):
the weighted Jaccard of stems separates them best (every pair at 0.34–1.0 but one, the
highest other pair 0.33); rapidfuzz's `token_set_ratio` (8 µs a pair) puts a sibling
above the lowest true pair (0.95 against 0.74), its `token_sort_ratio` and Indel
distance over the sorted stems do worse than plain Jaccard, and datasketch's MinHash
approximates plain Jaccard (worse than weighted) at 0.59 s to import (numpy, scipy),
over a quarter of a command's 2 s. The library kept is the one that fits: Snowball's
stemmer (`snowballstemmer`), by which reworded notes share their words.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from itertools import combinations, repeat
from typing import Any, TypeVar

COMMON_FILES = 50
"""A feature held by more sets than this is boilerplate: it never makes two sets a
candidate pair on its own (keeps candidate generation near-linear on big stores)."""

F = TypeVar("F", bound=Hashable)

_WORD = re.compile(r"\w+")
# What `\w` matches in ASCII text; every other ASCII character becomes a space.
_ASCII_WORD_CHARS = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")
_ASCII_NON_WORD_TO_SPACE = bytes(c if c in _ASCII_WORD_CHARS else 0x20 for c in range(256))


def lowered_words(text: str) -> list[str]:
    """`\\w+` runs of the lowercased text: the words features are made of. ASCII text
    (nearly every note) is split by a byte table instead of the regex: the same words in
    a third of the time, which counts when every note of a 20,000-file home is read."""
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
    """Each feature's inverse document frequency, smoothed: log(1 + N / sets holding it).
    A feature a single set holds weighs most, one every set holds least — but not
    nothing, so two texts alone are still compared by what they share."""
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
    """(similarity, i, j) for every pair of sets at or above the threshold, the most alike
    first: Jaccard, or weighted Jaccard when `weight` is given (see the module doc)."""
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
    # Each set's size (its weight, weighted) once: the union is the two sizes less what
    # they share, so only the intersection is summed a pair; and a pair whose sizes differ
    # more than the threshold allows (the smaller over the larger is the best similarity
    # the two can reach) is never compared.
    # The weights are summed by `map` over the sets in their order (a generator's step a
    # feature took twice as long): the same sums, to the bit.
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
    """Groups of alike items (indexes, keeper first, at least two each) with the lowest
    similarity of a member to the keeper, the keeper the best-ranked (smallest `rank`)
    item of its group (see the module doc)."""
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
