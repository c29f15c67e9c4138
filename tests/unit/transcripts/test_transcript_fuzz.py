"""Property tests: no input, however broken, makes a reader or the budget fail."""

from __future__ import annotations

from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memtab.transcripts.budget import select_event_budget
from memtab.transcripts.events import TRANSCRIPT_FORMATS, TranscriptFormat, compact_json
from memtab.transcripts.reader import TranscriptTail, read_transcript
from support.property_examples import examples

from .helpers import jsonl

_FORMATS: list[TranscriptFormat | None] = [None, *TRANSCRIPT_FORMATS]

_scalars = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12)
_any = (
    _scalars
    | st.lists(_scalars, max_size=2)
    | st.dictionaries(st.sampled_from(["text", "output", "command"]), _scalars, max_size=2)
)


def _mostly(valid: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Usually (9 times in 10) what a parser expects, sometimes any JSON at all."""
    return st.integers(0, 9).flatmap(lambda roll: _any if roll == 0 else valid)


def _record(required: dict[str, Any], optional: dict[str, Any]) -> st.SearchStrategy[Any]:
    return st.fixed_dictionaries(
        {key: _mostly(value) for key, value in required.items()},
        optional={key: _mostly(value) for key, value in optional.items()},
    )


_ids = st.sampled_from(["M", "N", "c1", "c2", "u1"])
_texts = st.sampled_from(
    ["", "Done.", "<environment_context>x", "Exit code 1\nboom", "sk-" + "a" * 24]
)
_tool_output = _texts | _record(
    {},
    {"success": st.booleans(), "output": _texts, "exitCode": st.integers(-1, 2), "error": _texts},
)
_mux_part = _record(
    {"type": st.sampled_from(["text", "reasoning", "dynamic-tool", "tool-bash", "file"])},
    {
        "text": _texts,
        "toolCallId": _ids,
        "toolName": _texts,
        "input": st.fixed_dictionaries({"script": _texts}),
        "output": _tool_output,
        "state": st.sampled_from(["output-available", "output-error", "input-available"]),
        "errorText": _texts,
    },
)
_mux = _record(
    {
        "id": _ids,
        "role": st.sampled_from(["user", "assistant", "system"]),
        "parts": st.lists(_mostly(_mux_part), min_size=1, max_size=3),
    },
    {
        "metadata": _record(
            {}, {"timestamp": st.integers(), "partial": st.booleans(), "compacted": st.booleans()}
        )
    },
)
_claude_block = _record(
    {"type": st.sampled_from(["text", "tool_use", "tool_result", "thinking", "image"])},
    {
        "text": _texts,
        "id": _ids,
        "tool_use_id": _ids,
        "name": st.just("Bash"),
        "input": st.fixed_dictionaries({"command": _texts}),
        "content": _texts
        | st.lists(_record({"type": st.just("text")}, {"text": _texts}), max_size=2),
        "is_error": st.booleans(),
    },
)
_claude_message = _record(
    {"content": _texts | st.lists(_mostly(_claude_block), max_size=3)},
    {"id": _ids, "stop_reason": st.sampled_from([None, "end_turn", "tool_use"])},
)
_claude = _record(
    {
        "type": st.sampled_from(["user", "assistant", "summary", "system", "progress"]),
        "sessionId": st.just("s"),
    },
    {
        "uuid": _ids,
        "message": _claude_message,
        "summary": _texts,
        "content": _texts,
        "isSidechain": st.booleans(),
        "isMeta": st.booleans(),
        "timestamp": st.just("2026-01-01T00:00:00Z"),
    },
)
_codex_payload = _record(
    {
        "type": st.sampled_from(
            [
                "message",
                "function_call",
                "function_call_output",
                "custom_tool_call",
                "local_shell_call",
                "reasoning",
                "user_message",
                "agent_message",
                "task_complete",
                "exec_command_end",
                "turn_aborted",
            ]
        )
    },
    {
        "role": st.sampled_from(["user", "assistant", "developer"]),
        "content": st.lists(
            _record({"type": st.just("output_text")}, {"text": _texts}), max_size=2
        ),
        "call_id": _ids,
        "name": _texts,
        "arguments": st.sampled_from(['{"cmd": "make"}', "not json", "[1]"]),
        "output": _tool_output,
        "phase": st.sampled_from(["commentary", "final_answer"]),
        "message": _texts,
        "exit_code": st.integers(-1, 2),
        "action": st.fixed_dictionaries({"command": st.lists(_texts, max_size=3)}),
    },
)
_codex = _record(
    {
        "type": st.sampled_from(
            ["session_meta", "turn_context", "response_item", "event_msg", "compacted", "x"]
        ),
        "payload": _codex_payload,
    },
    {"timestamp": st.just("2026-01-01T00:00:00Z")},
)
_transcripts = (
    st.tuples(st.just("mux"), st.lists(_mostly(_mux), max_size=6))
    | st.tuples(st.just("claude"), st.lists(_mostly(_claude), max_size=6))
    | st.tuples(st.just("codex"), st.lists(_mostly(_codex | _codex_payload), max_size=6))
)


# Bytes that look like transcript lines cut at random places.
_byte_soup = st.lists(
    st.sampled_from(
        [
            b'{"type":"assistant","message":{"id":"M","content":[',
            b'{"role":"user","parts":[',
            b'{"type":"response_item","payload":{',
            b'"type":"tool_use","id":"t"',
            b'"text":"\xff\xfe',
            b'"\\ud800"',
            b"}",
            b"]",
            b",",
            b"\n",
            b"\r\n",
            b"\x00",
            b"[" * 50,
            b"1e999",
        ]
    ),
    max_size=40,
).map(b"".join)


def _check(path: Path, format: TranscriptFormat | None) -> None:
    transcript = read_transcript(path, format)
    assert transcript.skipped_lines >= 0
    assert not any("unreadable record" in skip.reason for skip in transcript.skipped)
    for event in transcript.events:
        compact_json(event.to_json()).encode("utf-8")
    budget = select_event_budget(transcript.events, 500, redact=True)
    assert budget.json_chars <= 500


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.binary(max_size=400) | _byte_soup, format=st.sampled_from(_FORMATS))
def test_arbitrary_bytes_never_crash_a_reader(data: bytes, format: TranscriptFormat | None) -> None:
    with TemporaryDirectory() as directory:
        path = Path(directory) / "t.jsonl"
        path.write_bytes(data)
        _check(path, format)
        TranscriptTail(path, format).read_new()


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(transcript=_transcripts, override=st.booleans(), wrong=st.sampled_from(TRANSCRIPT_FORMATS))
def test_arbitrary_records_never_crash_a_reader(
    transcript: tuple[TranscriptFormat, list[Any]], override: bool, wrong: TranscriptFormat
) -> None:
    format, records = transcript
    with TemporaryDirectory() as directory:
        path = Path(directory) / "t.jsonl"
        path.write_bytes(jsonl(*records))
        _check(path, format if override else None)
        _check(path, wrong)
