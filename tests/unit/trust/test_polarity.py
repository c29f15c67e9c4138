"""`trust.polarity.rule_of` reads a rule in any phrasing (issue 83): "avoid X", "refrain
from X", "X is banned", "we stopped Xing", "X — don't", "no X" / "X is fine", "X every
time", the passive — its action the stems of what is done, never who does it."""

from __future__ import annotations

import pytest

from memtab.trust.polarity import opposite, rule_of

RULES = [
    ("Force pushes to shared branches are banned.", "never", {"forc", "push", "share", "branch"}),
    ("Committing generated files — don't.", "never", {"commit", "generat", "file"}),
    ("`console.log` in committed code is fine.", "always", {"consol", "log", "commit", "code"}),
    ("We stopped squashing commits on merge.", "never", {"squash", "commit", "merg"}),
    ("Lockfiles are never committed in this repo.", "never", {"lockfil", "commit"}),
    ("We've banned `any` in the TypeScript code.", "never", {"any", "typescript", "code"}),
    ("Please refrain from rebasing public branches.", "never", {"rebas", "public", "branch"}),
    ("Translations should never be edited by hand.", "never", {"translat", "edit", "hand"}),
    ("Snapshot tests are banned here.", "never", {"snapshot", "test"}),
    ("Mock the database in integration tests, every time.", "always",
     {"mock", "databas", "integr", "test"}),
    ("Type hints are required in the test files.", "always", {"type", "hint", "test", "file"}),
    ("Force-push shared branches after rebasing them.", "always",
     {"forc", "push", "share", "branch", "rebas"}),
    ("user prefers that the agent never runs database migrations automatically", "never",
     {"run", "databas", "migrat", "automat"}),
    ("NEVER use `git add .`", "never", {"git add ."}),
    ("Under no circumstances push to prod on a Friday.", "never", {"push", "product", "friday"}),
    ("Disabling the linter inline is discouraged.", "never", {"disabl", "linter", "inlin"}),
    ("It's OK to skip the e2e suite for docs PRs.", "always",
     {"skip", "e2e", "suit", "doc", "prs"}),
]  # fmt: skip
NO_RULE = [
    "Seed data comes from the staging dump.",
    "Cache entries expire after an hour.",
    "We stopped at the second step.",
    "Card numbers must be masked in logs, except the last 4 digits.",
]


@pytest.mark.parametrize(("sentence", "polarity", "action"), RULES)
def test_a_rule_is_read_in_any_phrasing(sentence: str, polarity: str, action: set[str]) -> None:
    rule = rule_of(sentence)
    assert rule is not None
    assert (rule.polarity, set(rule.action)) == (polarity, action)


@pytest.mark.parametrize("sentence", NO_RULE)
def test_a_statement_of_what_is_states_no_rule(sentence: str) -> None:
    assert rule_of(sentence) is None


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("No `console.log` in committed code.", "`console.log` in committed code is fine."),
        ("Snapshot tests are banned here.", "Write snapshot tests for every component."),
        ("NEVER use `git add .`", "Use `git add .` to stage everything."),
    ],
)
def test_a_rule_said_one_way_opposes_its_opposite_said_another(one: str, other: str) -> None:
    rule, their_rule = rule_of(one), rule_of(other)
    assert rule is not None and their_rule is not None
    assert opposite(rule, their_rule)
