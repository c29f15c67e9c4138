"""Issue 94's target with a perfect judge (tests/quality/perfect_judge.py): a stand-in model
answering every pair by the answer key, configured as a user configures a model, through
`memtab duplicates --json` and `memtab contradictions --json`; after three runs on each half
of the trust corpus, duplicates and contradictions recall ≥ 0.85 and no false finding — the
candidates reach the judge."""

from __future__ import annotations

import functools
from typing import Any

import pytest
from tests.quality.perfect_judge import measured
from tests.quality.trust_homes import CORPUS
from tests.quality.trust_homes import HALVES as TRUST_HALVES

# slow: each half is laid out and both commands run three times in their own processes
pytestmark = pytest.mark.slow

SHORT = {
    "fresh8": "contradictions 28 of 34: two projects' memories where neither names the other, "
    "pairs that share too few words or rank past the net (docs/trust-quality-halves.md)",
}
"""Halves written after the net where a perfect judge still reaches too little: held to the
target strictly, so a half that comes to meet it says so."""
HALVES = [half for half in TRUST_HALVES if (CORPUS / half / "key.json").exists()]


@functools.cache
def _last_run(half: str) -> dict[str, Any]:
    *_, last = measured(half, runs=3)
    return last


@pytest.mark.parametrize("half", HALVES)
def test_a_perfect_judge_finds_nothing_false(half: str) -> None:
    last = _last_run(half)
    duplicates, contradictions = last["duplicates"], last["contradictions"]
    assert duplicates["precisionLabelled"] == contradictions["precisionLabelled"] == 1.0
    assert duplicates["nearMisses"][0] == contradictions["nearMisses"][0] == 0
    assert duplicates["polarityGroups"] == 0
    assert contradictions["unlabelled"] == []


@pytest.mark.parametrize(
    "half",
    [
        pytest.param(half, marks=pytest.mark.xfail(strict=True, reason=SHORT[half]))
        if half in SHORT
        else half
        for half in HALVES
    ],
)
def test_a_perfect_judge_reaches_the_seeded_pairs_in_three_runs(half: str) -> None:
    last = _last_run(half)
    assert last["duplicates"]["recall"] >= 0.85, last["duplicates"]["missed"]
    assert last["contradictions"]["recall"] >= 0.85, last["contradictions"]["missed"]
