"""The user's rules said as what the team does or never does, as a ban on what the agent keeps
doing, or with an emphatic tail (issue 95; shapes read in tests/quality/writer_sessions/batch4,
tuned on): "we don't <verb> …", "in this repo we <verb> …", "— everything here <verb>s …",
"stop <verb>ing …", "leave <a thing it names> alone", "…, always, …", "…, full stop" — each kept
in the user's words; never a remark, a question, a one-off said to hold for the moment, or a ban
that names nothing but the message before it."""

from __future__ import annotations

import pytest

from memtab.writer.offline.directives import directives_in


@pytest.mark.parametrize(
    "message",
    [
        "We don't mock the database in integration tests — they hit a real Postgres.",
        "Yes thanks — we don't add barrel files, they slow the bundler down.",
        "In this codebase we wrap every handler in withTracing(), no exceptions.",
        "Here, we pin every GitHub Action to a commit SHA.",
        "Not quite — everything here goes through the Makefile, never raw docker compose.",
        "Stop adding print statements to debug — use the logger at debug level.",
        "Leave the generated files under src/gen/ alone — protoc rewrites them on every build.",
        "For fixtures use the factory helpers, always, not hand-written dicts.",
        "Migrations are forward-only, full stop.",
    ],
)
def test_a_house_rule_said_as_what_we_do_or_a_ban_is_kept_in_the_users_words(
    message: str,
) -> None:
    assert directives_in(message) == [message]


@pytest.mark.parametrize(
    "message",
    [
        "We don't know why the build fails on CI.",
        "We don't need the cache for this one.",
        "Should we always run the linter first?",
        "Don't merge anything yet, I'm just thinking out loud here.",
        "Turn the feature flag off, just this once.",
        "For today only, never deploy to staging; QA has it.",
        "Don't tag the release yet, marketing wants Thursday.",
        "Don't touch the billing module this afternoon, finance is closing the month.",
        "Don't run it.",
        "Leave it alone.",
        "Everything here is broken since the upgrade.",
        "In this repo we had a flaky test last year.",
        "Stop the dev server.",
    ],
)
def test_a_remark_a_question_or_a_one_off_is_no_rule(message: str) -> None:
    assert directives_in(message) == []


def test_each_item_of_a_list_the_user_gives_as_rules_is_one_rule_with_its_reason() -> None:
    message = (
        "before you start, our team conventions:\n"
        "- Migrations are reversible. Prod rollbacks run them down, e.g. `make db-down`.\n"
        "- one React component per file\n"
        "\n"
        "then add the export button."
    )
    assert directives_in(message) == [
        "Migrations are reversible. Prod rollbacks run them down, e.g. `make db-down`.",
        "One React component per file.",
    ]
    # a list the line before does not give as rules is read sentence by sentence
    found = "what I found so far:\n- migrations are reversible\n- one component per file"
    assert directives_in(found) == []


def test_a_rule_taken_back_in_its_own_sentence_or_by_a_scrap_that_is_not_kept() -> None:
    within = (
        "Never merge without a review. Always bump the changelog before you tag — actually "
        "forget that, the release script writes it."
    )
    assert directives_in(within) == ["Never merge without a review."]
    scrapped = "always squash before merging. no wait, scrap that, the merge queue squashes."
    assert directives_in(scrapped) == []
