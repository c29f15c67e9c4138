"""`memtab contradictions` on the labelled pairs of tests/support/choice_voices.py (issue
83): a choice between two named alternatives no taxonomy lists, in any phrasing, opposed
by the opposite choice or a use of the other for the same purpose — found; the same pair
for other purposes, a past choice, a hedge, a comparison — not."""

from __future__ import annotations

from pathlib import Path

import pytest

from memtab.store.home import Home
from memtab.trust.claims import sentence_claims
from memtab.trust.contradictions.engine import ContradictionsEngine
from support.choice_voices import CASES, notes
from support.contradiction_voices import FILLERS
from support.seeded_memories import memory

KINDS = sorted({case.kind for case in CASES})


@pytest.fixture(scope="module")
def found() -> dict[int, bool]:
    """Whether a contradiction joins each case's two notes, each case read alone with a
    background of unrelated notes."""
    made = notes()
    background = [
        memory("global", f"bg-{i}.md", f"# Bg {i}\n\n- {line}\n") for i, line in enumerate(FILLERS)
    ]
    home = Home(Path("/nowhere"))
    joined = {}
    for number in range(len(CASES)):
        pair = [memory(place, name, text) for place, name, case, text in made if case == number]
        engine = ContradictionsEngine(home, line_time=lambda d, line: 0)
        joined[number] = any(
            {d.path for d in pair}
            <= {p.path for side in (c.first, c.second, *c.others) for p in side.places}
            for c in engine.pairs_of([*pair, *background])
        )
    return joined


@pytest.mark.parametrize("kind", KINDS)
def test_each_kind_s_contradictions_found_and_near_misses_not(
    found: dict[int, bool], kind: str
) -> None:
    missed, flagged = [], []
    for number, case in enumerate(CASES):
        if case.kind != kind:
            continue
        if case.expected == "contradiction" and not found[number]:
            missed.append(f"{case.one} | {case.other}")
        if case.expected == "neither" and found[number]:
            flagged.append(f"{case.one} | {case.other}")
    assert (missed, flagged) == ([], [])


def test_a_choice_between_two_is_no_rule_about_both() -> None:
    """ "Use pnpm, not npm" chooses between the two: no `always` rule keyed by both, which
    a "never" of either could be read to oppose."""
    said = [*sentence_claims("Use pnpm, not npm."), *sentence_claims("Use polars, not pandas.")]
    assert [c.kind for c in said if c.kind == "always-never"] == []
    assert {c.value for c in said} == {"pnpm", "not:npm", "polars"}
