"""The user's rules said in a clause of their own, and values set right (issue 95; shapes read
in tests/quality/writer_sessions/batch3, tuned on): a prohibition after what it is about ("…;
don't call X from Y", "…, so don't use …"), "make sure every …", "do X, not Y" after what it is
about, a step gating the work ("… before you call it done"), what to do with every new thing of a
kind — each kept in the user's words, never a one-off task, a remark or a question; and a number
someone got wrong, set right ("the timeout is 30 s, not 10") by the user or the agent."""

from __future__ import annotations

import pytest

from memtab.writer.offline.corrections import corrections_in
from memtab.writer.offline.directives import directives_in
from memtab.writer.offline.extract import extract_findings

from .events import answer, user


@pytest.mark.parametrize(
    "message",
    [
        "The billing API is behind a gateway; don't call Stripe from the frontend.",
        "Prod runs Python 3.9, so don't use match statements anywhere.",
        "Make sure each endpoint you add has an OpenAPI example.",
        "Ensure that every fixture is scoped to the function.",
        "Dates in the database are UTC; show them in the user's locale, not the server's.",
        "Run `make e2e` before you tell me a feature works.",
        "For anything new, use the `Result` type from lib/errors.",
        "Write new components in TypeScript with strict mode.",
    ],
)
def test_a_rule_said_in_a_clause_or_as_a_gate_is_kept_in_the_users_words(message: str) -> None:
    assert directives_in(message) == [message]


@pytest.mark.parametrize(
    "message",
    [
        "Fix the first one, not the second.",
        "Good idea, not yet though.",
        "I looked at it; don't know why it fails.",
        "The build broke, so don't worry about the docs for now.",
        "Make sure it builds.",
        "Check the logs before you restart it?",
        "Add a new column to the users table.",
        "The cache is per process; it is 5 minutes, not 10.",
    ],
)
def test_a_task_a_remark_or_a_question_is_no_rule(message: str) -> None:
    assert directives_in(message) == []


@pytest.mark.parametrize(
    ("text", "note"),
    [
        (
            "And the retry limit is 5 attempts, not 3, it's in config/retry.yml.",
            "The retry limit is 5 attempts, not 3, it's in config/retry.yml.",
        ),
        (
            "Tests pass now, and the API listens on port 8443 (docker-compose.yml), not 8080 "
            "as I said.",
            "The API listens on port 8443 (docker-compose.yml), not 8080 as I said.",
        ),
        (
            "Done. (The minimum iOS version is 16.4, not 17 as I wrote earlier.)",
            "The minimum iOS version is 16.4, not 17 as I wrote earlier.",
        ),
    ],
)
def test_a_number_set_right_is_kept_as_the_clause_that_says_it(text: str, note: str) -> None:
    assert corrections_in(text) == [note]


@pytest.mark.parametrize(
    "text",
    [
        "It is 7, not 3.",
        "Use the newer client, not the old one.",
        "We got 42 passed, not 41.",
    ],
)
def test_no_subject_or_no_two_numbers_is_no_correction(text: str) -> None:
    assert corrections_in(text) == []


def test_a_value_set_right_is_a_finding_beside_the_surest_facts() -> None:
    events = [
        user("Bump the client timeout. The gateway timeout is 30 s, not 10, see infra/gw.tf."),
        answer("Right. The client timeout now matches the gateway's 30 s."),
    ]
    findings = extract_findings(events).findings
    assert "The gateway timeout is 30 s, not 10, see infra/gw.tf." in findings
