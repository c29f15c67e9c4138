"""read_newest_events (streamed, bounded) selects exactly what select_event_budget selects
over the whole transcript: real fixtures, generated big files, and messy records where
later lines change, shrink or complete events that were already released."""

from __future__ import annotations

import json
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memtab.transcripts.budget as budget_module
import memtab.transcripts.window as window_module
from bench.transcript_gen import claude_lines, huge_log, mux_lines, write_transcript
from memtab.transcripts.events import TranscriptEvent, TranscriptFormat
from memtab.transcripts.reader import TranscriptTail, read_transcript
from memtab.transcripts.window import BudgetWindow, NewestEvents, read_newest_events
from support.property_examples import examples

from .helpers import append, jsonl

_FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "shared"
_ALL_FIXTURES = sorted(_FIXTURES.glob("*/*.jsonl"))


def _main_thread(event: TranscriptEvent) -> bool:
    return not event.sidechain


def _whole(
    path: Path,
    max_json_chars: int,
    *,
    redact: bool = True,
    main_only: bool = True,
    format: TranscriptFormat | None = None,
) -> NewestEvents:
    """Today's selection: every event in memory, then the budget."""
    events = read_transcript(path, format).events
    if main_only:
        events = [event for event in events if _main_thread(event)]
    return NewestEvents.of(events, max_json_chars, redact=redact)


def _streamed(
    path: Path,
    max_json_chars: int,
    *,
    redact: bool = True,
    main_only: bool = True,
    format: TranscriptFormat | None = None,
    trim_every: int = 1,
    max_weight: int = 10**9,
) -> NewestEvents:
    return read_newest_events(
        path,
        format,
        max_json_chars=max_json_chars,
        redact=redact,
        include=_main_thread if main_only else None,
        trim_every=trim_every,
        max_weight=max_weight,
    )


def _event_view(event: TranscriptEvent | None, *, whole: bool = True) -> Any:
    if event is None:
        return None
    return (event.id, event.message_id, event.completed_turn, event.to_json() if whole else "")


def _view(selection: NewestEvents) -> dict[str, Any]:
    budget = selection.budget
    return {
        "summary": budget.summary(),
        "items": budget.json_text(),
        "json_chars": budget.json_chars,
        "clamped": budget.clamped,
        "redacted": budget.redacted,
        "events": [_event_view(event) for event in budget.events],
        "newest": _event_view(selection.newest),
        "newest_completed_turn": _event_view(selection.newest_completed_turn, whole=False),
    }


def _assert_same(path: Path, max_json_chars: int, **options: Any) -> NewestEvents:
    whole_options = {k: v for k, v in options.items() if k in ("redact", "main_only", "format")}
    expected = _view(_whole(path, max_json_chars, **whole_options))
    streamed = _streamed(path, max_json_chars, **options)
    assert _view(streamed) == expected
    return streamed


@pytest.mark.slow
@pytest.mark.parametrize("path", _ALL_FIXTURES, ids=lambda path: path.name[:60])
@pytest.mark.parametrize("max_json_chars", [2, 60, 400, 2_000, 10_000, 80_000])
def test_every_fixture_selects_the_same_events_streamed(path: Path, max_json_chars: int) -> None:
    _assert_same(path, max_json_chars)  # trimming after every event
    _assert_same(path, max_json_chars, max_weight=0)  # sizing oversized events at once
    _assert_same(path, max_json_chars, trim_every=10**9)  # never trimming
    _assert_same(path, max_json_chars, redact=False, main_only=False)


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["mux", "claude"])
def test_a_generated_big_transcript_selects_the_same_events(kind: str, tmp_path: Path) -> None:
    path = tmp_path / "big.jsonl"
    write_transcript(
        path,
        {"mux": mux_lines, "claude": claude_lines}[kind],
        3 * 2**20,
        huge_at=(0.3, 0.6, 0.97),
        huge_output=huge_log(0.25),
    )
    for max_json_chars in (80_000, 5_000):
        streamed = _assert_same(path, max_json_chars, trim_every=32 * 1024)
        assert 0 < streamed.budget.trimmed_count < streamed.budget.original_count
    _assert_same(path, 80_000, trim_every=32 * 1024, max_weight=0)
    _assert_same(path, 80_000, trim_every=10**9)


def _mux_record(index: int, role: str, text: str, output: str | None) -> dict[str, Any]:
    parts: list[dict[str, Any]] = [{"type": "text", "text": text}]
    if output is not None:
        parts.append(
            {
                "type": "dynamic-tool",
                "toolCallId": f"c{index}",
                "toolName": "bash",
                "state": "output-available",
                "input": {"script": "make"},
                "output": {"success": True, "output": output, "exitCode": 0},
            }
        )
    return {
        "id": f"m{index}",
        "role": role,
        "metadata": {"timestamp": 1_760_000_000_000 + index, "historySequence": index},
        "parts": parts,
    }


def _record_redactions(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The JSON length of every item redacted from now on."""
    sizes: list[int] = []
    real_redact_json = budget_module.redact_json

    def recording_redact_json(value: Any) -> Any:
        sizes.append(len(json.dumps(value)))
        return real_redact_json(value)

    monkeypatch.setattr(budget_module, "redact_json", recording_redact_json)
    monkeypatch.setattr(window_module, "redact_json", recording_redact_json)
    return sizes


def test_an_oversized_event_pushed_out_by_newer_ones_is_never_redacted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    redacted_sizes = _record_redactions(monkeypatch)
    records = [_mux_record(0, "assistant", "ran the build", "log line\n" * 200_000)]
    records += [
        _mux_record(i, "user" if i % 2 else "assistant", f"step {i} " * 40, None)
        for i in range(1, 400)
    ]
    path = tmp_path / "chat.jsonl"
    path.write_bytes(jsonl(*records))

    streamed = _streamed(path, 80_000, trim_every=64 * 1024)

    assert streamed.budget.original_count == 400
    assert streamed.budget.events[0].id != "m0"
    assert max(redacted_sizes) < 10_000, "the 1.8 MB output was redacted"
    redacted_sizes.clear()
    assert _view(_whole(path, 80_000)) == _view(streamed)
    assert max(redacted_sizes) < 10_000, "nor today, where it is far from the budget's edge"


def test_an_event_sized_on_the_way_is_not_redacted_again_to_see_it_does_not_fit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    redacted_sizes = _record_redactions(monkeypatch)
    records = [_mux_record(0, "user", "go", None)]
    records.append(_mux_record(1, "assistant", "built", "log line\n" * 6_000))  # 60 KB
    records += [_mux_record(i, "user", f"step {i} " * 40, None) for i in range(2, 90)]  # 35 KB
    path = tmp_path / "chat.jsonl"
    path.write_bytes(jsonl(*records))

    # A trim right after the 60 KB event sizes it (the window is over max_weight), none after.
    streamed = _streamed(path, 80_000, trim_every=50_000, max_weight=0)

    assert sum(size > 50_000 for size in redacted_sizes) == 1
    assert streamed.budget.events[0].id == "m2"
    assert _view(streamed) == _view(_whole(path, 80_000))


def test_the_window_stays_small_while_the_stream_is_long() -> None:
    window = BudgetWindow(1_000, redact=True, trim_every=2_000)
    for index in range(5_000):
        window.add(TranscriptEvent(id=f"e{index}", role="user", source="mux", text="x" * 100))
        assert window.kept < 40
    selection = window.result()
    assert selection.budget.original_count == 5_000
    assert selection.budget.events[-1].id == "e4999"


def test_an_oversized_newest_event_is_kept_and_clamped() -> None:
    window = BudgetWindow(500, trim_every=1, max_weight=0)
    window.add(TranscriptEvent(id="old", role="user", source="mux", text="a" * 100))
    window.add(TranscriptEvent(id="big", role="user", source="mux", text="b" * 5_000))
    window.trim()
    selection = window.result()
    assert [event.id for event in selection.budget.events] == ["big"]
    assert selection.budget.clamped and selection.budget.json_chars <= 500


# --- Later lines that change events already released: each mechanism on its own.


def _claude_user(uuid: str, text: str) -> dict[str, Any]:
    return {"type": "user", "uuid": uuid, "sessionId": "s", "message": {"content": text}}


def _claude_assistant(
    uuid: str, message_id: str, block: dict[str, Any], stop: str | None
) -> dict[str, Any]:
    message = {"id": message_id, "content": [block], "stop_reason": stop}
    return {"type": "assistant", "uuid": uuid, "sessionId": "s", "message": message}


def _claude_result(uuid: str, tool_use_id: str, output: str) -> dict[str, Any]:
    block = {"type": "tool_result", "tool_use_id": tool_use_id, "content": output}
    return {"type": "user", "uuid": uuid, "sessionId": "s", "message": {"content": [block]}}


def _codex(kind: str, **payload: Any) -> dict[str, Any]:
    return {"timestamp": "2026-01-01T00:00:00Z", "type": kind, "payload": payload}


def _codex_message(role: str, text: str, phase: str | None = None) -> dict[str, Any]:
    item = {"type": "message", "role": role, "content": [{"type": "output_text", "text": text}]}
    return _codex("response_item", **item, **({"phase": phase} if phase else {}))


def _write(tmp_path: Path, *records: dict[str, Any]) -> Path:
    path = tmp_path / "t.jsonl"
    path.write_bytes(jsonl(*records))
    return path


def _assert_same_sized_early_or_late(
    path: Path, max_json_chars: int, **options: Any
) -> NewestEvents:
    """Trimming after every event, once sizing only events smaller than the budget and
    once sizing every event (oversized ones are not sized until the window grows)."""
    _assert_same(path, max_json_chars, **options)
    return _assert_same(path, max_json_chars, max_weight=0, **options)


def test_a_repeated_claude_result_that_shrinks_an_event_is_waited_for(tmp_path: Path) -> None:
    tool_use = {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "ls"}}
    # 65 newer API messages: M1 can no longer be continued, but its call can still be paired.
    newer = [
        _claude_assistant(f"a{n}", f"M{n}", {"type": "text", "text": "k"}, stop="end_turn")
        for n in range(2, 67)
    ]
    path = _write(
        tmp_path,
        _claude_user("u0", "o" * 300),
        _claude_assistant("a1", "M1", tool_use, stop="tool_use"),
        _claude_result("r1", "t1", "x" * 3_000),
        *newer,  # were M1's output final, M1 and these would push u0 out
        _claude_result("r2", "t1", "ok"),  # it is not: a repeated result replaces it
    )
    streamed = _assert_same_sized_early_or_late(path, 5_000)
    assert [event.id for event in streamed.budget.events][:2] == ["u0", "M1"]


def test_a_repeated_codex_output_that_shrinks_an_event_is_waited_for(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        _codex("session_meta", id="s"),
        _codex_message("user", "o" * 300),
        _codex("response_item", type="function_call", call_id="c1", name="shell", arguments="{}"),
        _codex("response_item", type="function_call_output", call_id="c1", output="x" * 700),
        _codex_message("user", "u" * 100),
        _codex("response_item", type="function_call_output", call_id="c1", output="ok"),
    )
    streamed = _assert_same_sized_early_or_late(path, 450, format="codex")
    assert len(streamed.budget.events) == 2


def test_a_claude_turn_undone_after_its_event_was_dropped_is_not_the_trigger(
    tmp_path: Path,
) -> None:
    path = _write(
        tmp_path,
        _claude_assistant("a1", "M1", {"type": "text", "text": "Done."}, stop="end_turn"),
        _claude_user("u1", "u" * 300),
        _claude_user("u2", "v" * 300),
        # The same API message goes on with a tool call: it did not end the turn after all.
        _claude_assistant(
            "a2", "M1", {"type": "tool_use", "id": "t", "name": "Bash", "input": {}}, stop=None
        ),
        _claude_user("u3", "w" * 300),
    )
    streamed = _assert_same_sized_early_or_late(path, 450)
    assert streamed.newest_completed_turn is None


def test_a_codex_turn_completed_after_its_event_was_dropped_is_the_trigger(
    tmp_path: Path,
) -> None:
    path = _write(
        tmp_path,
        _codex("session_meta", id="s"),
        _codex_message("assistant", "Working on it.", phase="commentary"),
        _codex_message("user", "u" * 300),
        _codex_message("user", "v" * 300),
        _codex("event_msg", type="task_complete"),
    )
    streamed = _assert_same_sized_early_or_late(path, 450, format="codex")
    assert streamed.newest_completed_turn is not None
    assert streamed.newest_completed_turn.text == "Working on it."


def test_a_codex_final_answer_copy_completes_a_dropped_event(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        _codex("session_meta", id="s"),
        _codex("event_msg", type="agent_message", message="All green."),
        _codex("event_msg", type="user_message", message="u" * 300),
        _codex("event_msg", type="user_message", message="v" * 300),
        _codex_message("assistant", "All green.", phase="final_answer"),
    )
    streamed = _assert_same_sized_early_or_late(path, 450, format="codex")
    assert streamed.newest_completed_turn is not None


# --- Messy records: continuation lines, late and repeated results, turns completed later.

_texts = st.sampled_from(
    [
        "",
        "ok",
        "Done, tests pass.",
        "x" * 90,
        "y" * 700,
        "password: hunter2hunter2",  # redaction makes it longer
        "export API_KEY=abcdefgh",
        "key sk-" + "a" * 60,  # redaction makes it shorter
        "-----BEGIN PRIVATE KEY-----\n" + "QUJD" * 200 + "\n-----END PRIVATE KEY-----",
        "Exit code 1\nboom",
    ]
)
_small_id = st.sampled_from(["1", "2", "3"])


def _claude_records() -> st.SearchStrategy[dict[str, Any]]:
    uuid = st.one_of(st.uuids().map(str), _small_id.map(lambda n: f"dup-{n}"))
    base = st.fixed_dictionaries(
        {"uuid": uuid, "sessionId": st.just("s"), "isSidechain": st.booleans()}
    )
    user_text = st.fixed_dictionaries(
        {"type": st.just("user"), "message": st.fixed_dictionaries({"content": _texts})}
    )
    block = st.one_of(
        st.fixed_dictionaries({"type": st.just("text"), "text": _texts}),
        st.fixed_dictionaries(
            {
                "type": st.just("tool_use"),
                "id": _small_id.map(lambda n: f"t{n}"),
                "name": st.just("Bash"),
                "input": st.fixed_dictionaries({"command": _texts}),
            }
        ),
    )
    assistant = st.fixed_dictionaries(
        {
            "type": st.just("assistant"),
            "message": st.fixed_dictionaries(
                {
                    "id": _small_id.map(lambda n: f"msg{n}"),
                    "content": st.lists(block, min_size=1, max_size=2),
                    "stop_reason": st.sampled_from([None, "end_turn", "tool_use"]),
                }
            ),
        }
    )
    result = st.fixed_dictionaries(
        {
            "type": st.just("user"),
            "message": st.fixed_dictionaries(
                {
                    "content": st.lists(
                        st.fixed_dictionaries(
                            {
                                "type": st.just("tool_result"),
                                "tool_use_id": _small_id.map(lambda n: f"t{n}"),
                                "content": _texts,
                                "is_error": st.booleans(),
                            }
                        ),
                        min_size=1,
                        max_size=2,
                    )
                }
            ),
        }
    )
    return st.tuples(base, st.one_of(user_text, assistant, result)).map(
        lambda pair: {**pair[0], **pair[1]}
    )


def _codex_records() -> st.SearchStrategy[dict[str, Any]]:
    call_id = _small_id.map(lambda n: f"call{n}")
    message = st.fixed_dictionaries(
        {
            "type": st.just("message"),
            "role": st.sampled_from(["user", "assistant", "developer"]),
            "content": st.lists(
                st.fixed_dictionaries({"type": st.just("output_text"), "text": _texts}),
                min_size=1,
                max_size=2,
            ),
        },
        optional={"phase": st.sampled_from(["commentary", "final_answer"])},
    )
    call = st.fixed_dictionaries(
        {
            "type": st.just("function_call"),
            "call_id": call_id,
            "name": st.just("shell"),
            "arguments": st.sampled_from(['{"cmd": "make"}', '{"cmd": "pytest -x"}']),
        }
    )
    output = st.fixed_dictionaries(
        {"type": st.just("function_call_output"), "call_id": call_id, "output": _texts}
    )
    events = st.one_of(
        st.fixed_dictionaries(
            {
                "type": st.sampled_from(["user_message", "agent_message"]),
                "message": _texts,
            }
        ),
        st.fixed_dictionaries({"type": st.sampled_from(["task_complete", "turn_aborted"])}),
        st.fixed_dictionaries(
            {
                "type": st.just("exec_command_end"),
                "call_id": call_id,
                "exit_code": st.integers(-1, 2),
                "aggregated_output": _texts,
            }
        ),
    )
    return st.one_of(
        st.fixed_dictionaries(
            {"type": st.just("response_item"), "payload": st.one_of(message, call, output)}
        ),
        st.fixed_dictionaries({"type": st.just("event_msg"), "payload": events}),
        st.fixed_dictionaries(
            {
                "type": st.just("compacted"),
                "payload": st.fixed_dictionaries({"message": _texts}),
            }
        ),
    )


def _mux_records() -> st.SearchStrategy[dict[str, Any]]:
    return st.builds(
        lambda index, role, text, output: _mux_record(int(index), role, text, output),
        _small_id,
        st.sampled_from(["user", "assistant"]),
        _texts,
        st.none() | _texts,
    )


_SESSION_META = {"type": "session_meta", "payload": {"id": "s", "cwd": "/r"}}
_SUBAGENT_META = {"type": "session_meta", "payload": {"id": "s", "source": {"subagent": "x"}}}

_transcripts = st.one_of(
    st.tuples(st.just("claude"), st.just([]), st.lists(_claude_records(), max_size=30)),
    st.tuples(
        st.just("codex"),
        st.sampled_from([[_SESSION_META], [_SUBAGENT_META], []]),
        st.lists(_codex_records(), max_size=30),
    ),
    st.tuples(st.just("mux"), st.just([]), st.lists(_mux_records(), max_size=30)),
)


@pytest.mark.slow
@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    transcript=_transcripts,
    max_json_chars=st.sampled_from([2, 40, 150, 600, 1_500, 5_000]),
    trim_every=st.sampled_from([1, 300, 10**9]),
    max_weight=st.sampled_from([0, 10**9]),
    main_only=st.booleans(),
)
def test_messy_records_select_the_same_events_streamed(
    transcript: tuple[TranscriptFormat, list[dict[str, Any]], list[dict[str, Any]]],
    max_json_chars: int,
    trim_every: int,
    max_weight: int,
    main_only: bool,
) -> None:
    format, head, records = transcript
    with TemporaryDirectory() as directory:
        path = Path(directory) / "t.jsonl"
        path.write_bytes(jsonl(*head, *records))
        _assert_same(
            path,
            max_json_chars,
            format=format,
            main_only=main_only,
            trim_every=trim_every,
            max_weight=max_weight,
        )


def test_the_tail_says_which_released_events_later_lines_may_still_change(
    tmp_path: Path,
) -> None:
    path = tmp_path / "session.jsonl"
    tool_use = {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "ls"}}
    path.write_bytes(
        jsonl(
            _claude_assistant("a1", "M1", {"type": "text", "text": "Done."}, stop="end_turn"),
            _claude_assistant("a2", "M2", tool_use, stop="tool_use"),
            _claude_user("u1", "thanks"),
        )
    )
    tail = TranscriptTail(path)
    done, calling, thanks = tail.read_new()
    assert tail.may_change(done) and tail.may_complete(done)  # its message may go on
    assert tail.may_change(calling)  # and a result may still come for its call
    assert not tail.may_change(thanks) and not tail.may_complete(thanks)

    before = done.to_json()
    append(path, jsonl(_claude_assistant("a3", "M1", {"type": "text", "text": "More."}, None)))
    tail.read_new()
    assert done.to_json() != before

    newer = [
        _claude_assistant(f"n{n}", f"N{n}", {"type": "text", "text": "k"}, stop="end_turn")
        for n in range(64)
    ]
    append(path, jsonl(*newer))
    tail.read_new()
    assert not tail.may_change(done) and not tail.may_complete(done)  # M1 is closed now
    assert tail.may_change(calling)  # t1 can still be paired
