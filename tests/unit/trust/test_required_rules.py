"""A requirement in the passive is a rule (issue 83): "X must be removed", "X has to go",
"X is to be regenerated", a label's "X: fine" oppose the rule denied; "must be masked"
(no rule's verb) still states what is (tests/support/required_rules.py)."""

from __future__ import annotations

import pytest

from memtab.trust.polarity import MAY, required_rule, rule_of
from support import contradiction_voices
from support.contradiction_cases import Case
from support.required_rules import REQUIRED, REQUIRED_AFTER

NOT_READ = {"The legacy cron must be removed."}
"""Missed, and why: "legacy" says what was (`claims._PAST`), so neither note claims."""


@pytest.mark.parametrize("cases", [REQUIRED, REQUIRED_AFTER], ids=["before", "after"])
def test_a_requirement_in_the_passive_opposes_the_rule_denied(cases: tuple[Case, ...]) -> None:
    joined = contradiction_voices.found(cases)
    unread = frozenset(NOT_READ)
    assert contradiction_voices.wrong_of_kind(cases, joined, "required", unread) == ([], [])


@pytest.mark.parametrize(
    ("sentence", "action"),
    [
        ("The old Dockerfile has to go.", {"old", "dockerfil", "delet"}),
        ("Lockfiles must be committed.", {"lockfil", "commit"}),
        ("API docs are to be regenerated on release.", {"api", "doc", "regener", "releas"}),
        ("Tests should be written first.", {"test", "write", "first"}),
        ("Commits straight to main: fine.", {"commit", "straight", "main", MAY}),
    ],
)
def test_what_a_requirement_requires(sentence: str, action: set[str]) -> None:
    rule = required_rule(sentence)
    assert rule is not None and rule.polarity == "always" and set(rule.action) == action


@pytest.mark.parametrize(
    "sentence",
    [
        "Card numbers must be masked in logs, except the last 4 digits.",
        "The old Dockerfile has to go through review.",
    ],
)
def test_a_participle_of_no_rule_s_verb_states_what_is(sentence: str) -> None:
    assert required_rule(sentence) is None


def test_the_duplicates_read_a_requirement_as_a_statement() -> None:
    """`rule_of` (the duplicates') reads no rule in it: "Answers should be written in German"
    says what "Always answer me in German" does, not a narrower rule."""
    assert rule_of("Answers should be written in German.") is None
