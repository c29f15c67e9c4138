"""Rules from real lines of the sessions tuned on, each kept for a class of notes seen in
several projects or set by the transcript format itself (tests/quality/en_cases_h27.py's block
and the blocks before it)."""

from __future__ import annotations

import pytest

from memtab.writer.answers import facts_in

# jdx/mise (Codex writes the apostrophe as U+2019): the agent's proposal and its progress.
_CURLY_FIRST_PERSON = (
    "Yes—I’d add a narrowly named file helper, because the retry/error classification is "
    "filesystem plumbing, while the decision to tolerate concurrent recreation belongs at "
    "the call site.",
    "One implementation detail surfaced: the helper needs to preserve strict deletion "
    "semantics and expose the final I/O error cleanly so only `cache clear` can tolerate "
    "`DirectoryNotEmpty`; I’m keeping that separation in the API and tests.",
    "On `bamboo`, I’m testing the exact AWS-LC probe source in a Fedora 44 container twice: "
    "first with stock RPM linker flags to confirm the failure, then with the added flag to "
    "confirm the fix.",
)


@pytest.mark.parametrize("line", _CURLY_FIRST_PERSON)
def test_the_agent_speaking_of_itself_is_no_fact_whatever_its_apostrophe(line: str) -> None:
    assert facts_in(line, concluded=True) == []
    assert facts_in(line.replace("’", "'"), concluded=True) == []


def test_a_curly_apostrophe_admits_no_line_a_straight_one_would_not() -> None:
    # the markers that admit a line keep their spelling: "doesn’t work" is no new marker
    line = "The `serve` daemon doesn’t work under `zsh -f` on this machine."
    assert facts_in(line, concluded=True) == []


# How one run went — a job, a task, a test runner — is that moment's news (jdx/hk, jdx/mise,
# jdx/fnox), not how the project is.
_RUN_OUTCOMES = (
    "The [GitHub job](https://github.com/jdx/hk/actions/runs/28549041180/job/84641515103) "
    "exits `13` because the remaining findings are medium severity.",
    "The [macOS/libgit2 CI job](https://github.com/jdx/hk/actions/runs/29281880678/job/"
    "86925275137) failed because of a timing-dependent test assertion.",
    "The task e2e passed and specifically confirms `version 1.2.3` stays intact with "
    '`redactions = ["*_KEY"]`.',
    "Direct bats runner executed, but password-store cases skipped because `pass` is not "
    "installed locally.",
)


@pytest.mark.parametrize("line", _RUN_OUTCOMES)
def test_how_one_run_went_is_no_fact(line: str) -> None:
    assert facts_in(line, concluded=True) == []


def test_a_fact_about_what_passes_through_is_kept() -> None:
    # jdx/mise: "passes" (what the code does) is no run's outcome
    line = (
        "Discussion [#10921](https://github.com/jdx/mise/discussions/10921) actually fails "
        "earlier: `aws-lc-sys` passes Fedora’s PIE linker flags to its compiler probe while "
        "intentionally omitting `CFLAGS`, including the required `-fPIE`."
    )
    assert facts_in(line, concluded=True) == [line]
