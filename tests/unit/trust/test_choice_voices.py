"""`memtab contradictions` on the labelled pairs of tests/support/choice_voices.py (issue
83): a choice between two named alternatives no taxonomy lists, in any phrasing, opposed
by the opposite choice or a use of the other for the same purpose — found; the same pair
for other purposes, a past choice, a hedge, a comparison — not."""

from __future__ import annotations

from memtab.trust.claims import sentence_claims
from support import contradiction_voices
from support.choice_voices import CASES

found, test_each_kind_s_contradictions_found_and_near_misses_not = contradiction_voices.each_kind(
    CASES
)


def test_a_choice_between_two_is_no_rule_about_both() -> None:
    """ "Use pnpm, not npm" chooses between the two: no `always` rule keyed by both, which
    a "never" of either could be read to oppose."""
    said = [*sentence_claims("Use pnpm, not npm."), *sentence_claims("Use polars, not pandas.")]
    assert [c.kind for c in said if c.kind == "always-never"] == []
    assert {c.value for c in said} == {"pnpm", "not:npm", "polars", "not:pandas"}
