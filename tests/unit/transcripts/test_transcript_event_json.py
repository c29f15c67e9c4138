"""The JSON of a transcript's events (docs/formats.md §10.2), pinned byte for byte: what the
writer's budget measures, sends to a model and trace dumps store. Every event of every real
transcript is written as the section says, and the edge cases are written out in full."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from memtab.transcripts.events import TranscriptEvent, TranscriptToolCall, compact_json
from memtab.transcripts.reader import read_transcript

from .helpers import fixture_file

_REAL = sorted((Path(__file__).resolve().parents[2] / "fixtures" / "shared").glob("*/*.jsonl"))


def _as_formats_md_says(event: TranscriptEvent) -> dict[str, Any]:
    """§10.2: `{"id", "role", "historySequence"?, "timestamp"?, "text"?, "toolCalls"?:
    [{"toolCallId", "toolName", "input", "output"?, "isError"?, "error"?, "exitCode"?}],
    "sidechain"?}` — an optional key only when it says something (a number, 0 too, when it
    is one; a text when not empty; a flag when true; the error when it is not the output)."""
    item: dict[str, Any] = {"id": event.id, "role": event.role}
    item |= {} if event.history_sequence is None else {"historySequence": event.history_sequence}
    item |= {} if event.timestamp is None else {"timestamp": event.timestamp}
    item |= {"text": event.text} if event.text else {}
    calls = [
        {"toolCallId": call.id, "toolName": call.name, "input": call.input}
        | ({} if call.output is None else {"output": call.output})
        | ({"isError": True} if call.is_error else {})
        | ({"error": call.error} if call.error and call.error != call.output else {})
        | ({} if call.exit_code is None else {"exitCode": call.exit_code})
        for call in event.tool_calls
    ]
    item |= {"toolCalls": calls} if calls else {}
    item |= {"sidechain": True} if event.sidechain else {}
    return item


@pytest.mark.parametrize("path", _REAL, ids=lambda path: path.name[:60])
def test_every_real_event_is_written_as_formats_md_says(path: Path) -> None:
    for event in read_transcript(path).events:
        assert compact_json(event.to_json()) == compact_json(_as_formats_md_says(event))


@pytest.mark.parametrize(
    ("fragment", "event_id", "written"),
    [
        (
            "replay-session__chat",
            "user-1",
            '{"id":"user-1","role":"user","historySequence":0,"timestamp":1700000010000,'
            '"text":"Hello! Which file holds the entry point?"}',
        ),
        (  # a sub-agent's call that has no result
            "33333333-3333-4333-8333-333333333333",
            "codex-c68e4493b526a0dd",
            '{"id":"codex-c68e4493b526a0dd","role":"assistant","timestamp":1767413108000,'
            '"toolCalls":[{"toolCallId":"call-spawn-001","toolName":"spawn_agent","input":'
            '{"task_name":"synthetic_researcher","message":"Inspect fixtures."}}],'
            '"sidechain":true}',
        ),
        (  # a Codex call whose input is a text
            "019c8a70-dda7-7f33-98ea-f30553347322",
            "codex-a6c72f6efb5f0869",
            '{"id":"codex-a6c72f6efb5f0869","role":"assistant","timestamp":1771849191441,'
            '"text":"[REDACTED_TEXT len=124 sha=7a220b7e]","toolCalls":[{"toolCallId":'
            '"call_UtYwHmwWekzvq83m8Rb9K8jJ","toolName":"exec_command","input":'
            '"[REDACTED_ARGUMENTS len=456 sha=df6be51a]"}]}',
        ),
        (  # a failed command: its output, the flag, its exit code
            "edge_cases",
            "edge_004",
            '{"id":"edge_004","role":"assistant","timestamp":1749898890000,"toolCalls":'
            '[{"toolCallId":"tool_edge_001","toolName":"FailingTool","input":{"test_param":'
            '"This tool will fail to demonstrate error handling"},"output":"Error: Tool '
            'execution failed with error: Command not found","isError":true}]}',
        ),
        (
            "edge_cases",
            "edge_011",
            '{"id":"edge_011","role":"user","timestamp":1749899010000,"text":"Testing special '
            "characters: café, naïve, résumé, 中文, العربية, русский, 🎉 emojis 🚀 and symbols "
            '∑∆√π∞"}',
        ),
    ],
)
def test_real_events_written_out(fragment: str, event_id: str, written: str) -> None:
    path = next(path for path in _REAL if fragment in path.name)
    assert path == fixture_file(path.parents[1], fragment)
    (event,) = [event for event in read_transcript(path).events if event.id == event_id]
    assert compact_json(event.to_json()) == written


def _call(**given: Any) -> TranscriptToolCall:
    return TranscriptToolCall(**{"id": "c1", "name": "bash", "input": {"script": "make"}} | given)


@pytest.mark.parametrize(
    ("event", "written"),
    [
        (  # no text, no calls: what mux leaves of an aborted message
            TranscriptEvent(id="a1", role="assistant", source="mux"),
            '{"id":"a1","role":"assistant"}',
        ),
        (  # what is not the JSON's is not written; 0 is a number
            TranscriptEvent(
                id="a1", role="assistant", source="claude", text="hi", timestamp=0,
                history_sequence=0, message_id="m", model="x", completed_turn=True, cwd="/w",
            ),
            '{"id":"a1","role":"assistant","historySequence":0,"timestamp":0,"text":"hi"}',
        ),
        (  # a call with no result yet
            TranscriptEvent(id="a1", role="assistant", source="mux", tool_calls=[_call()]),
            '{"id":"a1","role":"assistant","toolCalls":[{"toolCallId":"c1","toolName":"bash",'
            '"input":{"script":"make"}}]}',
        ),
        (  # an error that is the output is written once
            TranscriptEvent(
                id="a1", role="assistant", source="mux",
                tool_calls=[_call(output="boom", error="boom", is_error=True)],
            ),
            '{"id":"a1","role":"assistant","toolCalls":[{"toolCallId":"c1","toolName":"bash",'
            '"input":{"script":"make"},"output":"boom","isError":true}]}',
        ),
        (  # an error apart from the output, in its place; exit code 0 is written
            TranscriptEvent(
                id="a1", role="assistant", source="mux", text="ran",
                tool_calls=[
                    _call(output="", error="killed", is_error=True, exit_code=0),
                    _call(id="c2", input="tools.exec_command({cmd:\"ls\"})", output="a"),
                ],
                sidechain=True,
            ),
            '{"id":"a1","role":"assistant","text":"ran","toolCalls":[{"toolCallId":"c1",'
            '"toolName":"bash","input":{"script":"make"},"output":"","isError":true,'
            '"error":"killed","exitCode":0},{"toolCallId":"c2","toolName":"bash","input":'
            '"tools.exec_command({cmd:\\"ls\\"})","output":"a"}],"sidechain":true}',
        ),
        (  # an error with no output; a call not failed is not said to be
            TranscriptEvent(
                id="u1", role="user", source="claude", sidechain=True,
                tool_calls=[_call(error="denied"), _call(is_error=False, exit_code=2)],
            ),
            '{"id":"u1","role":"user","toolCalls":[{"toolCallId":"c1","toolName":"bash",'
            '"input":{"script":"make"},"error":"denied"},{"toolCallId":"c1","toolName":"bash",'
            '"input":{"script":"make"},"exitCode":2}],"sidechain":true}',
        ),
    ],
)  # fmt: skip
def test_edge_cases_written_out(event: TranscriptEvent, written: str) -> None:
    assert compact_json(event.to_json()) == written
    assert compact_json(event.to_json()) == compact_json(_as_formats_md_says(event))


def test_an_event_is_built_field_by_field_as_its_lines_come() -> None:
    call = _call()
    event = TranscriptEvent(id="a1", role="assistant", source="claude", tool_calls=[call])
    call.output, call.is_error, call.exit_code = "no rule", True, 2
    event.text += "made"
    event.tool_calls.append(_call(id="c2"))
    assert compact_json(event.to_json()) == (
        '{"id":"a1","role":"assistant","text":"made","toolCalls":[{"toolCallId":"c1",'
        '"toolName":"bash","input":{"script":"make"},"output":"no rule","isError":true,'
        '"exitCode":2},{"toolCallId":"c2","toolName":"bash","input":{"script":"make"}}]}'
    )
    other = TranscriptEvent(id="a1", role="assistant", source="claude", tool_calls=[call])
    assert event != other and len({event, other}) == 2  # events are told apart by identity
