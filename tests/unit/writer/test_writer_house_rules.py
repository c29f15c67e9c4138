"""The user's house rules in English, read in general terms (issue 95; shapes read in
tests/quality/writer_sessions/batch2, tuned on): how the house works said anywhere in a
sentence, kept in the user's words — never a one-off task, a past event or a question."""

from __future__ import annotations

import pytest

from memtab.writer.offline.directives import directives_in


@pytest.mark.parametrize(
    "message",
    [
        "We always run migrations through the Makefile in this repo.",
        "We never vendor dependencies here.",
        "Unit tests are plain pytest, no classes — don't ever add unittest.TestCase.",
        "No ORM in this service, ever.",
        "Merge it when CI is green — but never with a force push.",
        "Format with black and always pass --check in CI scripts.",
        "Ask me before you touch anything under deploy/.",
        "I'd rather you kept the parser dependency-free.",
        "We use Pydantic models for every request body.",
        "Keep every SQL query in queries/, not inline in handlers.",
        "Integration tests live in tests/integration/, one file per endpoint.",
    ],
)
def test_a_house_rule_stated_anywhere_in_a_sentence_is_kept_in_the_users_words(
    message: str,
) -> None:
    assert directives_in(message) == [message]


@pytest.mark.parametrize(
    "message",
    [
        "Fix the failing test in tests/test_api.py.",
        "I tried the staging URL and never got a reply.",
        "We never had that problem before the upgrade.",
        "Should we always run the linter first?",
        "Run all the tests again.",
        "The fix goes in this function.",
        "Thanks, that works now.",
    ],
)
def test_a_one_off_task_a_past_event_or_a_question_is_no_rule(message: str) -> None:
    assert directives_in(message) == []
