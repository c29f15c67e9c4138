"""`memtab contradictions` on tests/support/always_never_voices.py (issue 83): a rule and
its opposite about one action, polarity said in any way English marks it and in every
agent's voice — found; a narrower or conditional rule, an exception, another object, a
reason, another project, what happened — not."""

from __future__ import annotations

import pytest

from support import contradiction_voices
from support.always_never_voices import FIRST, FOURTH, SECOND, THIRD, voice_of
from support.contradiction_cases import Case

NOT_READ = {
    "- Commit messages in English.",
    "- `kubectl exec` into prod pods is off-limits.",
    "- Feature flags must be removed after launch.",
}
"""Contradictions not found, and why: a rule with no verb ("Commit messages in English")
is not "write commit messages"; a command in a code span as the verb is no verb; "must be
removed" says "removed", which tells what is gone."""
FLAGGED: frozenset[str] = frozenset()
"""Near misses found all the same (none: "We stopped using Lerna" is no use of Lerna)."""


def test_a_rule_and_its_opposite_are_found_in_every_voice_and_near_misses_are_not() -> None:
    assert contradiction_voices.read_wrong(
        FIRST,
        contradiction_voices.found(FIRST),
        NOT_READ | FLAGGED,
        lambda c: f"{voice_of(c)}: {c.one} | {c.other}",
    ) == ([], [])


@pytest.mark.parametrize(
    ("batch", "at_least", "at_most"),
    [(SECOND, 12, 2), (THIRD, 10, 0), (FOURTH, 5, 0)],
    ids=["second", "third", "fourth"],
)
def test_the_batches_written_after_each_change_hold_at_what_they_measured(
    batch: tuple[Case, ...], at_least: int, at_most: int
) -> None:
    """Each batch was written after a change and before the next (its figures then, never
    tuned on: 8/14, 5/12, 5/10). Still missed: "said to always" against "skip", a `never`
    more precise than its `always`, "touch" against "edit", "under 400 lines" against "over
    400 lines are fine", a wish said "wants X written before Y", a passive "never
    throttled"; flagged: "Never rebase `main`" / "Rebase … onto `main`", "tests for
    generated code" / "for the code generator" (what is done to a thing and where or of
    what are one action's stems); the fourth's two rules of a verb no list names went with
    the reader of such verbs (issue 94: it found nothing on any half of the trust corpus)."""
    joined = contradiction_voices.found(batch)
    found = [joined[n] for n, case in enumerate(batch) if case.expected == "contradiction"]
    flagged = [joined[n] for n, case in enumerate(batch) if case.expected == "neither"]
    assert sum(found) >= at_least and sum(flagged) <= at_most


def test_what_is_not_read_is_still_not_found_and_the_flagged_still_flagged() -> None:
    """`NOT_READ` is missed and `FLAGGED` found (when one changes, it leaves its list)."""
    cases = FIRST
    joined = contradiction_voices.found(cases)
    missed = [joined[n] for n, case in enumerate(cases) if case.one in NOT_READ]
    flagged = [joined[n] for n, case in enumerate(cases) if case.one in FLAGGED]
    assert (missed, flagged) == ([False] * len(NOT_READ), [True] * len(FLAGGED))


def test_the_corpus_holds_what_the_issue_asks() -> None:
    """At least 30 contradictions in six voices and 30 near misses written before the
    change; ten and ten after."""
    first = [case for case in FIRST if case.expected == "contradiction"]
    assert len(first) >= 30 and len({voice_of(case) for case in first}) >= 6
    assert len(FIRST) - len(first) >= 30
    for batch in (SECOND, THIRD, FOURTH):
        after = [case for case in batch if case.expected == "contradiction"]
        assert len(after) >= 10 and len(batch) - len(after) >= 10
