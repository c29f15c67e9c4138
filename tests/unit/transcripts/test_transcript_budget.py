"""select_event_budget: exact fit, newest-first suffix, clamping, counts, redaction."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memtab.transcripts.budget import EventBudget, select_event_budget
from memtab.transcripts.events import (
    EventRole,
    TranscriptEvent,
    TranscriptToolCall,
    compact_json,
    json_len,
)
from support.property_examples import examples


def _event(
    index: int, text: str = "", calls: list[TranscriptToolCall] | None = None
) -> TranscriptEvent:
    role: EventRole = "user" if index % 2 == 0 else "assistant"
    return TranscriptEvent(
        id=f"e{index}", role=role, source="mux", text=text, tool_calls=calls or []
    )


def _array_len(events: list[TranscriptEvent]) -> int:
    return json_len([event.to_json() for event in events])


def test_everything_fits_at_exactly_the_budget() -> None:
    events = [_event(i, "x" * (10 * i)) for i in range(6)]
    exact = _array_len(events)

    budget = select_event_budget(events, exact)
    assert budget.trimmed_count == budget.original_count == 6
    assert budget.json_chars == len(budget.json_text()) == exact
    assert budget.items == [event.to_json() for event in events]
    assert not budget.clamped

    one_less = select_event_budget(events, exact - 1)
    assert [event.id for event in one_less.events] == ["e1", "e2", "e3", "e4", "e5"]
    assert one_less.json_chars == _array_len(events[1:]) <= exact - 1


def test_newest_events_are_kept_in_chronological_order_with_mux_counts() -> None:
    events = [_event(i, f"message {i}") for i in range(10)]
    budget = select_event_budget(events, _array_len(events[-3:]) + 5)

    assert [event.id for event in budget.events] == ["e7", "e8", "e9"]
    assert [item["id"] for item in budget.items] == ["e7", "e8", "e9"]
    assert (budget.original_count, budget.trimmed_count) == (10, 3)
    assert budget.summary() == {
        "originalCount": 10,
        "trimmedCount": 3,
        "maxJsonChars": budget.max_json_chars,
    }
    assert json.loads(budget.json_text()) == budget.items


def test_an_old_event_that_fits_is_not_kept_past_a_gap() -> None:
    events = [_event(0, "tiny"), _event(1, "y" * 500), _event(2, "newest")]
    budget = select_event_budget(events, _array_len([events[0], events[2]]) + 10)

    assert [event.id for event in budget.events] == ["e2"]  # a suffix: no gap


def test_an_oversized_newest_event_is_clamped_keeping_head_tail_and_identity() -> None:
    output = "building...\n" + "log line\n" * 30_000 + "ERROR: missing header foo.h"
    call = TranscriptToolCall(
        id="call-1",
        name="bash",
        input={"script": "make all"},
        output=output,
        is_error=True,
        exit_code=2,
    )
    events = [_event(0, "older"), _event(1, "Running the build.", [call])]

    budget = select_event_budget(events, 80_000)
    assert budget.clamped and (budget.original_count, budget.trimmed_count) == (2, 1)
    assert budget.events == [events[1]]
    assert budget.json_chars == len(budget.json_text()) <= 80_000
    assert budget.json_chars > 70_000, "uses the budget, not a stub"
    (clamped_call,) = budget.items[0]["toolCalls"]
    assert clamped_call["toolCallId"] == "call-1" and clamped_call["toolName"] == "bash"
    assert clamped_call["output"].startswith("building...")
    assert clamped_call["output"].endswith("ERROR: missing header foo.h")
    assert "chars truncated for memory-writer budget" in clamped_call["output"]
    assert (clamped_call["isError"], clamped_call["exitCode"]) == (True, 2)
    assert budget.items[0]["text"] == "Running the build."  # short fields stay whole
    assert call.output == output, "the event itself is not modified"


def test_a_tiny_budget_degrades_to_a_stub_then_to_nothing() -> None:
    calls = [
        TranscriptToolCall(id=f"c{i}", name="bash", input={"script": "x" * 100}) for i in range(50)
    ]
    event = _event(1, "t" * 5_000, calls)

    stub = select_event_budget([event], 120)
    assert stub.clamped and stub.json_chars <= 120
    assert stub.items == [
        {"id": "e1", "role": "assistant", "text": "[omitted oversized event payload]"}
    ]

    role_only = select_event_budget([event], 40)
    assert role_only.items == [{"id": "e1", "role": "assistant"}]

    nothing = select_event_budget([event], 10)
    assert (nothing.items, nothing.trimmed_count, nothing.json_text()) == ([], 0, "[]")


def test_empty_input_and_invalid_budget() -> None:
    assert select_event_budget([]) == EventBudget(
        events=[],
        items=[],
        original_count=0,
        trimmed_count=0,
        max_json_chars=80_000,
        clamped=False,
        json_chars=2,
    )
    with pytest.raises(ValueError, match="at least 2"):
        select_event_budget([], 1)


def test_redaction_happens_before_sizing() -> None:
    secret = "sk-" + "Ab3xQ9" * 7  # one character repeated would be a placeholder (`sk-xxxx`)
    events = [_event(0, f"my key is {secret}"), _event(1, "ok")]
    budget = select_event_budget(events, 80_000, redact=True)

    assert secret not in budget.json_text()
    assert budget.items[0]["text"] == "my key is [REDACTED_SECRET]"
    assert budget.json_chars == len(budget.json_text())
    assert events[0].text.endswith(secret), "events keep their raw text"


@settings(max_examples=examples(30), deadline=None)
@given(
    lengths=st.lists(st.integers(min_value=0, max_value=300), max_size=25),
    limit=st.integers(min_value=2, max_value=3_000),
)
def test_the_selection_is_the_longest_suffix_that_fits(lengths: list[int], limit: int) -> None:
    events = [_event(i, "é" * length) for i, length in enumerate(lengths)]
    budget = select_event_budget(events, limit)

    assert len(budget.json_text()) == budget.json_chars <= limit
    fitting = [k for k in range(len(events) + 1) if _array_len(events[len(events) - k :]) <= limit]
    longest = max(fitting)
    if longest > 0:
        assert budget.trimmed_count == longest and not budget.clamped
        assert compact_json(budget.items) == compact_json([e.to_json() for e in events[-longest:]])
    elif events:
        assert budget.trimmed_count <= 1 and budget.clamped == (budget.trimmed_count == 1)
