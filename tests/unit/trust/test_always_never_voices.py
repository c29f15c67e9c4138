"""`memtab contradictions` on tests/support/always_never_voices.py (issue 83): a rule and
its opposite about one action, polarity said in any way English marks it and in every
agent's voice — found; a narrower or conditional rule, an exception, another object, a
reason, another project, what happened — not."""

from __future__ import annotations

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


def test_a_rule_and_its_opposite_are_found_in_every_voice_and_near_misses_are_not() -> None:
    assert _wrong(FIRST, contradiction_voices.found(FIRST)) == ([], [])


def test_the_batch_written_after_the_change_holds_at_what_it_measured() -> None:
    """`SECOND`, never tuned on: 8 of its 14 contradictions found (a wish said "wants X on
    every Y", "said to always", "forbids", "leave X out", "X: not in Y" and a `never` more
    precise than its `always` are not), 2 of its 13 near misses flagged ("Never rebase
    `main`" / "Rebase … onto `main`" and "tests for generated code" / "for the code
    generator": what is done to a thing and where or of what are one action's stems)."""
    joined = contradiction_voices.found(SECOND)
    found = [joined[n] for n, case in enumerate(SECOND) if case.expected == "contradiction"]
    flagged = [joined[n] for n, case in enumerate(SECOND) if case.expected == "neither"]
    assert sum(found) >= 8 and sum(flagged) <= 2


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
    second = [case for case in SECOND if case.expected == "contradiction"]
    assert len(second) >= 10 and len(SECOND) - len(second) >= 10
