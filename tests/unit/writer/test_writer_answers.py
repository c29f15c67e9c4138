"""Findings: what the agent told the user about the project when it finished."""

from __future__ import annotations

import pytest

from memtab.writer.answers import facts_in, findings_in_answers

from .events import answer, user


@pytest.mark.parametrize(
    ("text", "facts"),
    [
        (
            "**Key fix in this session:** Resolved the Dialyzer false positive by using "
            "`:otel_span.hex_trace_id/1` instead of manually extracting trace_id from the span "
            "context record.",
            [
                "Resolved the Dialyzer false positive by using `:otel_span.hex_trace_id/1` "
                "instead of manually extracting trace_id from the span context record."
            ],
        ),
        (
            "Done. The integration tests require `OPENAI_API_KEY` and `ANTHROPIC_API_KEY`.",
            ["The integration tests require `OPENAI_API_KEY` and `ANTHROPIC_API_KEY`."],
        ),
        (
            "- Added OpenTelemetry dependencies\n- Created `Spotter.Telemetry.Otel` module\n"
            "All 297 tests passing with 0 failures.",
            [],
        ),
        ("Want me to add the CI condition so docs-only changes skip `Integration Tests`?", []),
        ("I'll read `worker-service.ts` first because it owns the queue.", []),
        ("The build is slow because of the machine.", []),  # nothing concrete
        ("```\nthe fix requires `x`\n```", []),
    ],
)
def test_facts_of_a_final_answer(text: str, facts: list[str]) -> None:
    assert facts_in(text) == facts


def test_only_final_answers_count_and_at_most_three_each() -> None:
    many = "\n".join(f"- `step{n}.sh` must run before `deploy.sh`." for n in range(5))
    events = [
        user("`x` requires `y` because reasons."),  # the user's words: not the agent's finding
        answer(many),
    ]
    assert findings_in_answers(events) == [
        "`step0.sh` must run before `deploy.sh`.",
        "`step1.sh` must run before `deploy.sh`.",
        "`step2.sh` must run before `deploy.sh`.",
    ]
