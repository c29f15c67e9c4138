"""Rules from real lines of the sessions tuned on, each kept for a class of notes seen in
several projects or set by the transcript format itself (tests/quality/en_cases_h27.py's block
and the blocks before it)."""

from __future__ import annotations

import pytest

from memtab.writer.offline.answers import facts_in
from memtab.writer.offline.directives import directives_in

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


# A line the agent labels as its conclusion: the label is the marker (Safecast/safecast-map-MCP,
# FSM1/cipher-box; the same labels in oh-my-posh's and entireio/cli's sessions).
def test_a_labelled_root_cause_or_rule_is_a_fact_without_other_markers() -> None:
    root_cause = (
        "Root Cause: CloudFront connects to the origin server using the hostname "
        "`origin-simplemap.safecast.org`."
    )
    assert facts_in(root_cause, concluded=True) == [
        "CloudFront connects to the origin server using the hostname "
        "`origin-simplemap.safecast.org`."
    ]
    rule = (
        "Key rule: every new `@Entity()` must have a corresponding `CREATE TABLE` migration — "
        "`synchronize: true` in dev/test masks this gap, and it only surfaces when deploying "
        "to staging/production."
    )
    assert facts_in(rule, concluded=True) == ["E" + rule.removeprefix("Key rule: e")]


def test_a_labelled_fix_still_passes_every_other_gate() -> None:
    # the agent's own report ("so I added …"), a step to take (opens on a verb)
    assert (
        facts_in(
            "The fix: GoReleaser's dirty check honors `.gitignore`, so I added `/src/gomodcache` "
            "next to the existing `/src/dist` entry.",
            concluded=True,
        )
        == []
    )
    assert facts_in("The fix: use `pull_request_target` instead.", concluded=True) == []
    # no label: a plain line without a marker stays out
    assert facts_in("CloudFront connects using the hostname `origin-x.example.org`.") == []


def test_a_changelog_line_about_a_file_is_a_report_of_what_was_done() -> None:
    # matthsena/reef-coder: the final answer's list of what changed, file by file
    line = (
        "`src/components/App.test.tsx` — Updated 3 existing Gemini tests to reflect the new "
        "flow: model-select picker instead of model-input text field, and reconnect error "
        "recovers to model-select."
    )
    assert facts_in(line, concluded=True) == []
    # what a file is for, after its name, is no report
    role = "`src/cli/index.ts` — the CLI entry point; it requires `commander` at version 12."
    assert facts_in(role, concluded=True) == [role]


# The user's rule for every one of a kind, or what to do instead, naming what it is about
# (Safecast/safecast-map-MCP, PackmindHub/context-evaluator; "full schema should not be
# updated ever", FSM1/cipher-box, is the same class, kept before).
@pytest.mark.parametrize(
    "sentence",
    [
        "All refences to api.safecast.org should go to simplemap.safecast.org.",
        'We should not display "AGENTS.md" for GitHub Copilot instructions, but instead '
        '"Copilot instructions".',
    ],
)
def test_a_rule_for_every_one_of_a_kind_or_what_to_do_instead(sentence: str) -> None:
    assert directives_in(sentence) == [sentence]


@pytest.mark.parametrize(
    "sentence",
    [
        "All of these should be fixed in `api.ts`.",  # leans on the message before
        "All tests should pass.",  # names nothing
        "We should add a retry instead.",  # names nothing
        "Should all references to api.safecast.org go to simplemap.safecast.org?",
    ],
)
def test_what_leans_on_the_message_or_names_nothing_is_no_rule(sentence: str) -> None:
    assert directives_in(sentence) == []
