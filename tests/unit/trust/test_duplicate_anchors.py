"""`memtab duplicates` on tests/support/duplicate_anchors.py (issue 83): a fact said twice
in other words, sharing what it names and its value (a number in another unit or in
words, a name in a code span and in words, a path, a product), is found; the same anchor
said of another fact, or the same value of another thing, is not."""

from __future__ import annotations

from pathlib import Path

from support.duplicate_anchors import BATCH, NEAR
from unit.trust.test_duplicate_voices import _scored


def test_a_fact_reworded_around_what_it_names_is_found(tmp_path: Path) -> None:
    found = _scored(BATCH, tmp_path)
    assert found.found["reworded"][0] >= 15
    assert found.across == [] and found.polarity == 0


def test_the_same_anchor_or_value_said_of_another_thing_is_rarely_joined(tmp_path: Path) -> None:
    found = _scored(NEAR, tmp_path)
    assert sum(hit for hit, _ in found.near.values()) + len(found.across) <= 3
    assert found.polarity == 0
