"""`memtab contradictions` and `duplicates` on tests/support/polarity_voices.py (issue 83):
a rule and its opposite, polarity said by a modal, a deontic adjective or noun, a verb of
not doing, a team's policy, in each agent's voice — found; near misses (another action, a
condition, a past incident, a question, a permission against a requirement, an excuse
against a prohibition) — not; one rule said as a requirement and as a prohibition of its
order ("Don't say done before the linters pass" / "Run lint before saying you're done") is
no contradiction and never a polarity group."""

from __future__ import annotations

from pathlib import Path

import pytest

from memtab.store.home import Home
from memtab.trust.claims import claims_of
from memtab.trust.duplicates.engine import DuplicatesEngine
from memtab.trust.polarity import opposite, rule_of
from support import contradiction_voices
from support.duplicate_voices import Case as Dup
from support.duplicate_voices import Note, laid_out, score
from support.polarity_voices import AFTER, FIRST, SAME_RULE, same_rule_duplicates

NOT_READ = {
    "Long-lived feature branches are frowned upon.",
    "Committing `.env.example` is encouraged.",
    "House rule — nobody merges their own PR.",
    "## What Dana expects\n\nDana asked that generated files never be committed.",
    "## What Dana expects\n\nDana is fine with the agent rebasing her branches.",
    "Keep `Cargo.lock` under version control.",
}
"""Contradictions still missed, and why: "work on" is a verb no list names; a file name in a
code span ("`.env.example` is encouraged") is read as a path, not a rule; "their own"
against "your own"; a reported wish ("asked that…", "is fine with…") names its asker;
"keep" and "put" are one action only to one rule's key (`rule_key`, removed with issue 94:
it found nothing on held-out data)."""
FLAGGED = {
    "Don't run `terraform apply` locally.",
    "The CI bot never signs its commits.",
}
"""Near misses found all the same: two commands in code spans read as one setting's
values ("local"); a thing's habit ("The CI bot never signs") read as a rule for anyone."""


def test_a_rule_and_its_opposite_are_found_however_english_marks_them() -> None:
    assert contradiction_voices.read_wrong(
        FIRST,
        contradiction_voices.found(FIRST),
        NOT_READ | FLAGGED,
        lambda c: f"{c.one} | {c.other}",
    ) == ([], [])


def test_the_batch_written_after_the_change_holds_at_what_it_measured() -> None:
    """Written after the reader changed and never tuned on (main: 5/12, 0/10): still
    missed, "No hotfixes straight to `prod`" against a statement ("Hotfixes go…")."""
    joined = contradiction_voices.found(AFTER)
    found = [joined[n] for n, case in enumerate(AFTER) if case.expected == "contradiction"]
    flagged = [joined[n] for n, case in enumerate(AFTER) if case.expected == "neither"]
    assert sum(found) >= 11 and sum(flagged) == 0
    assert len(found) >= 10 and len(AFTER) >= 15


def test_what_is_not_read_is_still_missed_and_the_flagged_still_flagged() -> None:
    """`NOT_READ` is missed and `FLAGGED` found (when one changes, it leaves its list)."""
    joined = contradiction_voices.found(FIRST)
    missed = [joined[n] for n, case in enumerate(FIRST) if case.one in NOT_READ]
    flagged = [joined[n] for n, case in enumerate(FIRST) if case.one in FLAGGED]
    assert (missed, flagged) == ([False] * len(NOT_READ), [True] * len(FLAGGED))


def test_one_rule_said_as_a_requirement_and_as_a_prohibition_of_its_order_is_no_contradiction() -> (
    None
):
    joined = contradiction_voices.found(SAME_RULE)
    assert [SAME_RULE[n].one for n, hit in joined.items() if hit] == []


def test_one_rule_said_both_ways_is_never_a_polarity_group(tmp_path: Path) -> None:
    """Held at what it measures: the form whose order is a precondition ("until the
    migration has run") reads as the requirement it is — a candidate, in other words —;
    the others stay apart, neither finding nor candidate."""
    cases = same_rule_duplicates()
    documents, ids = laid_out(cases)
    shown = DuplicatesEngine(Home(tmp_path)).found_in(documents)
    groups = [*shown.groups, *shown.candidates]
    found = score([[m.path for m in g.members] for g in groups], ids, cases)
    assert found.polarity == 0 and found.across == []
    assert found.found["reworded"][0] >= 1


@pytest.mark.parametrize(
    ("one", "other", "expected"),
    [
        ("Changelog entries are mandatory.", "Changelog entries are optional.", True),
        ("You needn't sign the release tags.", "Always sign the release tags.", True),
        ("You needn't sign the release tags.", "Never sign the release tags.", False),
        ("Signing the release tags is fine.", "Signing the release tags is optional.", False),
        ("Signing the release tags is fine.", "Signing the release tags is forbidden.", True),
        ("Never skip the release checklist.", "Skip the release checklist.", True),
        ("Don't forget to tag the release.", "Always tag the release.", False),
        ("It's OK to skip the smoke tests.", "Never skip the smoke tests.", True),
    ],
)
def test_required_allowed_excused_and_forbidden_oppose_as_english_says(
    one: str, other: str, expected: bool
) -> None:
    """What is required opposes what is excused or forbidden; what is allowed opposes what
    is forbidden; an excuse and a prohibition, a permission and an excuse both hold; a
    negated verb of not doing ("never skip", "don't forget to") requires."""
    rule, their_rule = rule_of(one), rule_of(other)
    assert rule is not None and their_rule is not None
    assert opposite(rule, their_rule) is expected


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("## Don'ts\n\n- force-push to `main`\n- vendoring `node_modules`\n", "never"),
        ("### Not allowed\n\n- Rebase shared branches.\n", "never"),
        ("## Don'ts\n\n- Always rebase shared branches.\n", "always"),
        ("## Anti-patterns\n\n- Rebase shared branches.\n", "always"),
        (
            "## Don'ts\n\n- Rebase shared branches.\n\n## Habits\n\n- Rebase shared branches.\n",
            "never always",
        ),
    ],
)
def test_a_heading_that_forbids_says_so_of_each_line_under_it(text: str, value: str) -> None:
    """A heading that is a prohibition ("## Don'ts") makes each line under it, up to the
    next heading, a rule not to — a line saying its own polarity aside; a heading naming
    what failed ("Anti-patterns") is no rule."""
    said = [c.value for c in claims_of(text) if c.kind == "always-never"]
    assert " ".join(dict.fromkeys(said)) == value


def test_a_line_under_a_heading_that_forbids_is_never_grouped_with_its_opposite(
    tmp_path: Path,
) -> None:
    cases = (
        Dup("opposite", "neither",
            Note("global", "donts.md", "# Git\n\n## Don'ts\n\n- force-push to `main`\n"),
            Note("project:shop", "push.md", "# Pushing\n\n- Force-push to `main`.\n")),
    )  # fmt: skip
    documents, ids = laid_out(cases)
    groups = DuplicatesEngine(Home(tmp_path)).groups_of(documents)
    assert score([[m.path for m in g.members] for g in groups], ids, cases).polarity == 0
