"""`memtab contradictions` on the labelled pairs of tests/support/tool_status.py (issue 83):
a tool named without being the choice now — left, turned down, planned, tried, compared,
of an old part of the project, an example — is no choice of it; a choice said through what
was left ("We stopped using Lerna; Nx runs the monorepo") is; a name two tools share (Bun,
`sqlx`) is read as the one whose job the sentence says."""

from __future__ import annotations

import pytest

from memtab.trust.claims import contradict, sentence_claims
from memtab.trust.reading.tool_kinds import kind_of
from memtab.trust.reading.tools import moved_tools, tools
from support import contradiction_voices
from support.contradiction_cases import Case
from support.tool_status import AFTER, CASES, UNDONE, UNDONE_AFTER

NOT_READ = {"Styles were converted from Less to Sass."}
"""Cases' first notes whose contradiction is not found, and why: "Write the styles in
Less" names Less after "in" a verb of writing no list holds ("written in" is)."""
AFTER_WRONG = (
    [
        "Karma got the boot in 2023 and Vitest took its place. | Unit tests: jest.",
        "Pipenv has been retired; the lockfile is poetry's now. | Dependencies are managed "
        "with pipenv.",
    ],
    [],
)
"""The batch written after the change, as it reads (missed, flagged): a test runner no
taxonomy lists, "has been retired" with the new tool as a possessive. (Its errand, "a
ticket to move to Bun", was read as done until `_PLANNED` took errands in: that near miss
is no longer held out.)"""
found, test_each_kind_s_contradictions_found_and_near_misses_not = contradiction_voices.each_kind(
    CASES, NOT_READ
)


def test_the_cases_not_read_are_still_missed(found: dict[int, bool]) -> None:
    assert [found[n] for n, case in enumerate(CASES) if case.one in NOT_READ] == [False]


def test_the_batch_written_after_reads_as_measured() -> None:
    """The held-out batch: what it misses and flags is known (a change to either shows)."""
    joined = contradiction_voices.found(AFTER)
    wrong: tuple[list[str], list[str]] = ([], [])
    for kind in sorted({case.kind for case in AFTER}):
        missed, flagged = contradiction_voices.wrong_of_kind(AFTER, joined, kind)
        wrong[0].extend(missed)
        wrong[1].extend(flagged)
    assert (sorted(wrong[0]), sorted(wrong[1])) == (sorted(AFTER_WRONG[0]), AFTER_WRONG[1])


def test_the_corpus_holds_enough_of_each_side() -> None:
    expected = [case.expected for case in CASES]
    assert expected.count("contradiction") >= 25 and expected.count("neither") >= 30
    assert [case.expected for case in AFTER].count("neither") == 8


@pytest.mark.parametrize(
    ("sentence", "values"),
    [
        ("We stopped using Lerna.", ["not:lerna"]),
        ("We stopped using Lerna; Nx orchestrates the monorepo now.", ["nx", "not:lerna"]),
        ("Sentry was retired in favour of Rollbar.", ["rollbar", "not:sentry"]),
        ("uv took over from pipenv in 2024.", ["uv", "not:pipenv"]),
        ("Pytest replaced unittest across the repo.", ["pytest", "not:unittest"]),
        ("Went back from pnpm to npm after the CI issues.", ["not:pnpm"]),  # "npm after"
        ("- black → ruff format (done in v2)", ["ruff format", "not:black"]),
        ("Flake8 is out; ruff lints the Python.", ["ruff", "not:flake8"]),
        ("Jenkins is legacy; every pipeline runs on GitHub Actions.",
         ["github actions", "not:jenkins"]),
        ("We used to prefer yarn over npm.", []),  # what was, no change told
        ("- [tooling.md](tooling.md) — switched npm → pnpm", []),  # an index's entry
    ],
)  # fmt: skip
def test_a_change_says_the_tool_left_and_the_one_used(sentence: str, values: list[str]) -> None:
    assert [value for _, value, _ in moved_tools(sentence)] == values


@pytest.mark.parametrize(
    "sentence",
    [
        "If we ever drop Docker, Podman is the candidate.",
        "We may move to Bun one day.",
        "For comparison, pnpm installs in 40 s and npm in 90 s.",
        "Terraform vs Pulumi was debated in ADR-7.",
    ],
)
def test_a_tool_planned_tried_or_compared_is_not_chosen(sentence: str) -> None:
    assert [c for c in sentence_claims(sentence) if c.kind == "tool"] == []


def test_a_tool_kept_after_a_trial_is_chosen_and_the_one_tried_not() -> None:
    assert [value for _, value, _ in tools("Evaluated Vitest, kept Jest.")] == ["jest"]


@pytest.mark.parametrize(
    ("sentence", "kind"),
    [
        ("install dependencies with bun.", "JavaScript package manager"),
        ("the api server runs on bun.", "JavaScript runtime"),
        ("the go api maps rows with bun.", "Go ORM"),
        ("the go services query postgres with sqlx.", "Go ORM"),
        ("the rust worker talks to postgres through sqlx.", "Rust database library"),
    ],
)
def test_a_name_two_tools_share_is_read_by_the_job_said(sentence: str, kind: str) -> None:
    tool = "bun" if "bun" in sentence else "sqlx"
    assert kind_of(tool, sentence) == kind


def test_a_choice_for_an_old_part_meets_no_choice_for_the_whole_project() -> None:
    """ "The old admin still builds with webpack" and "Bundle with Vite": two parts."""
    old, whole, other = (
        next(c for c in sentence_claims(sentence) if c.kind == "tool")
        for sentence in (
            "The old admin still builds with webpack.",
            "Bundle with Vite.",
            "The old admin is bundled with vite.",
        )
    )
    assert not contradict(old, whole) and contradict(old, other)


@pytest.mark.parametrize("cases", [UNDONE, UNDONE_AFTER], ids=["undone", "undone-after"])
def test_a_change_undone_keeps_the_tool_it_left(cases: tuple[Case, ...]) -> None:
    """ "Rolled back the switch to Rspack", "the Biome adoption was backed out of": the
    target of the change undone is not the choice, its source is; "reverted to yarn" goes
    back to it."""
    assert contradiction_voices.wrong_of_kind(
        cases, contradiction_voices.found(cases), "undone"
    ) == (
        [],
        [],
    )


@pytest.mark.parametrize(
    ("sentence", "values"),
    [
        ("Rolled back the switch to Rspack.", ["not:rspack"]),
        ("Reverted the switch from npm to pnpm.", ["npm", "not:pnpm"]),
        ("The move from Jest to Vitest was reverted.", ["jest", "not:vitest"]),
        ("Gave up on the Bun migration, pnpm still installs.", ["pnpm", "not:bun"]),
        ("The cutover to Podman stalled, so docker it is.", ["not:podman"]),
        ("We reverted to npm.", ["npm"]),
        ("Went back to yarn.", ["yarn"]),
        ("Went back from pnpm to npm after the CI issues.", ["not:pnpm"]),
        ("Reverted the bundler to webpack.", ["webpack"]),
        ("Never rolled back the switch to pnpm.", ["pnpm"]),
        ("Dependabot's pull request bumping ruff failed CI with 14 new findings.", []),
        ("Reverted the upgrade to Vite 5; still on Vite 4.", ["vite"]),
    ],
)  # fmt: skip
def test_an_undoing_verb_reads_the_change_it_governs(sentence: str, values: list[str]) -> None:
    said = [claim.value for claim in sentence_claims(sentence) if claim.kind == "tool"]
    assert said == values
