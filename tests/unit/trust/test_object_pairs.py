"""`memtab contradictions` on tests/support/object_pairs.py (issue 83): a rule and its
opposite whose action's object is said two ways are put side by side — a compound written
as one word, two or hyphenated is one object — and its near misses stay apart."""

from __future__ import annotations

import pytest

from memtab.trust.claims import Claim, contradict, group_keys
from memtab.trust.words import compounds_alike, compounds_once
from support import contradiction_voices
from support.object_pairs import AFTER, CASES

NOT_READ = {
    "- Avoid amending pushed commits.",
    "- Never delete merged branches.",
    "- Never write end-to-end tests for the admin panel.",
    "- Don't touch the team's CI secrets.",
    "- Never cache dependencies in GitHub Actions.",
    "- Don't run migrations against PostgreSQL directly.",
    "- Don't pin the Node.js version in the Dockerfile.",
    "- Never put emojis in commit messages.",
    "- Don't use TypeScript enums.",
}
"""Pairs not found, and why: a rule said with "when" is not read ("Amend … when the
message is wrong"), nor a relative clause's passive ("Branches that are merged always get
deleted"); an abbreviation ("e2e"), another verb ("touch" / "update", "put" / "use"), a
product's name and its short name ("GitHub Actions" / "Actions", "PostgreSQL" / "Postgres",
"Node.js" / "Node", "TypeScript" / "TS") and a prefix of a name ("gitmoji") are other words."""
FLAGGED = {
    "- Never force push.",
    "- Never squash commits.",
    "- Never deploy on Fridays.",
}
"""Near misses found all the same: an `always` of a narrower case than a `never`, read as
its opposite (an `always` may say up to three stems more than its `never`)."""


AFTER_NOT_READ = {
    "- Don't rewrite the git history of main.",
    "- Never auto-format the generated SQL.",
    "- Never check in the node_modules folder.",
    "- Don't hot-patch production servers.",
}
"""The batch written after: a possessive is its own mark ("main's"), a prefix of one
consonant ("auto") and a name with an underscore ("node_modules") are not read as a
compound's part, and a rule said "when paged" is not read."""


found, test_rules_whose_object_is_said_two_ways_are_found_and_near_misses_not = (
    contradiction_voices.each_kind(CASES, NOT_READ | FLAGGED)
)
(
    test_what_is_not_read_is_still_not_found,
    test_the_batch_written_after_holds_its_near_misses_and_most_contradictions,
) = contradiction_voices.held_apart(CASES, NOT_READ, AFTER, AFTER_NOT_READ)


def test_the_flagged_near_misses_are_still_flagged(found: dict[int, bool]) -> None:
    """`FLAGGED` is found (when one is not, it leaves the list)."""
    assert [found[n] for n, case in enumerate(CASES) if case.one in FLAGGED] == [True] * 3


def _rule(key: str, polarity: str) -> Claim:
    return Claim(0, "always-never", key, polarity, "")


@pytest.mark.parametrize(
    ("never", "always"),
    [
        ("forcepush main", "forc main push ~after"),  # "Forcepushing…" / "force push…"
        ("linter mode run watch", "linter run watchmod"),  # "watch mode" / "watchmode"
        ("commit hook pre precommit run", "hook precommit run"),  # "pre-commit" / "precommit"
    ],
)
def test_a_compound_in_one_word_or_two_is_one_object(never: str, always: str) -> None:
    one, other = _rule(never, "never"), _rule(always, "always")
    assert set(group_keys(one)) & set(group_keys(other))
    assert contradict(one, other)


def test_a_word_that_only_looks_like_two_others_joined_is_kept_apart() -> None:
    """Two stems are joined only where the other side says their compound: "commit" and
    "hook" alone are never merged, and neither side loses a stem it alone says."""
    never, always = frozenset({"commit", "hook"}), frozenset({"commit", "hook", "secret"})
    assert compounds_alike(never, always) == (never, always)
    assert compounds_once(frozenset({"pre", "commit", "precommit"})) == {"precommit"}
    assert not contradict(_rule("forc push", "never"), _rule("fork push", "always"))
