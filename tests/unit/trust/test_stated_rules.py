"""A statement is no command (issue 83): a first word that is a noun and a verb followed
by its subject's verb ("Log rotates daily", "Export jobs retry three times") is read as a
statement, and a `never` said of a thing ("Builds never run on forks") is that thing's rule
— neither opposes an imperative of the verb alone (tests/support/stated_rules.py)."""

from __future__ import annotations

import pytest

from memtab.trust.polarity import rule_of
from support import contradiction_voices
from support.contradiction_cases import Case
from support.stated_rules import STATED, STATED_AFTER


@pytest.mark.parametrize("cases", [STATED, STATED_AFTER], ids=["stated", "stated-after"])
def test_a_statement_and_a_thing_s_rule_are_read_as_what_they_say(
    cases: tuple[Case, ...],
) -> None:
    joined = contradiction_voices.found(cases)
    assert contradiction_voices.wrong_of_kind(cases, joined, "stated") == ([], [])


@pytest.mark.parametrize(
    "sentence",
    [
        "Log rotates daily.",
        "Push triggers a deploy.",
        "Merge requires two approvals.",
        "Index rebuilds nightly.",
        "Export jobs retry three times.",
        "Release PRs target `stable`.",
        "semantic-release publishes the packages from tags.",
        "Fatima reviews the mobile release.",
        "Cause: `.bashrc` exits early in non-interactive shells, so the nvm loader never runs.",
    ],
)
def test_a_noun_that_is_also_a_verb_opening_a_statement_is_no_imperative(sentence: str) -> None:
    assert rule_of(sentence) is None


@pytest.mark.parametrize(
    ("sentence", "action"),
    [
        ("Push tags to origin.", {"push", "tag", "origin"}),
        ("Run tests every time.", {"run", "test"}),
        ("Write tests first.", {"write", "test", "first"}),
        ("Keep migrations idempotent.", {"migrat", "idempot"}),
        ("Keep PRs under 400 lines.", {"pr", "400", "line"}),
        ("Builds never run on forks.", {"build", "run", "fork"}),
        ("Customer data never leaves the EU region.", {"custom", "data", "leav", "eu", "region"}),
        ("This workspace doesn't need `Signed-off-by` lines.", {"line", "offbi", "sign"}),
    ],
)
def test_an_imperative_keeps_its_plural_object_and_a_thing_its_rule(
    sentence: str, action: set[str]
) -> None:
    rule = rule_of(sentence)
    assert rule is not None and set(rule.action) == action
