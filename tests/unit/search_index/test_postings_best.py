"""The warm postings' choice of the best files: exactly the files a full sort by score,
then id, puts first — ties at the cut included."""

from __future__ import annotations

import heapq
import random

import pytest

from memtab.search_index.postings import _best


def _by_sorting(scores: dict[str, float], limit: int) -> list[tuple[str, float]]:
    return heapq.nsmallest(limit, scores.items(), key=lambda item: (-item[1], item[0]))


@pytest.mark.parametrize("seed", range(40))
def test_the_best_are_those_a_full_sort_puts_first(seed: int) -> None:
    rng = random.Random(seed)
    # Few distinct scores, so many ties fall across the cut.
    levels = [rng.random() * 10 for _ in range(rng.randint(1, 6))]
    scores = {
        f"/memories/global/n{i:04d}.md": rng.choice(levels) for i in range(rng.randint(0, 300))
    }
    for limit in (0, 1, 3, 10, 50, 400):
        assert _best(scores, limit) == _by_sorting(scores, limit)
