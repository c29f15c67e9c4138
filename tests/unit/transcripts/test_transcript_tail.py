"""TranscriptTail: partial lines, truncation, replacement, resuming, held and late data."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memtab.transcripts import reader
from memtab.transcripts.reader import TranscriptTail

from .helpers import append, jsonl


def _mux(message_id: str, text: str, role: str = "user") -> dict:
    return {
        "id": message_id,
        "role": role,
        "metadata": {},
        "parts": [{"type": "text", "text": text}],
    }


def _ids(events: list) -> list[str]:
    return [event.id for event in events]


def test_a_partial_line_waits_for_its_newline(tmp_path: Path) -> None:
    path = tmp_path / "chat.jsonl"
    first, second = jsonl(_mux("m1", "one")), jsonl(_mux("m2", "two"))
    path.write_bytes(first + second[:10])
    tail = TranscriptTail(path)

    assert _ids(tail.read_new()) == ["m1"]
    assert tail.offset == len(first)
    assert tail.read_new() == []
    append(path, second[10:-1])  # everything but the newline
    assert tail.read_new() == []
    append(path, b"\n")
    assert _ids(tail.read_new()) == ["m2"]
    assert tail.offset == len(first) + len(second)
    assert tail.format == "mux" and tail.skipped_lines == 0


def test_a_missing_file_reads_as_nothing_until_it_appears(tmp_path: Path) -> None:
    path = tmp_path / "later.jsonl"
    tail = TranscriptTail(path)
    assert tail.read_new() == []
    path.write_bytes(jsonl(_mux("m1", "hi")))
    assert _ids(tail.read_new()) == ["m1"]


def test_truncation_restarts_without_returning_old_events_again(tmp_path: Path) -> None:
    path = tmp_path / "chat.jsonl"
    path.write_bytes(jsonl(_mux("m1", "a"), _mux("m2", "b"), _mux("m3", "c")))
    tail = TranscriptTail(path)
    assert _ids(tail.read_new()) == ["m1", "m2", "m3"]

    # mux rewrites history in place (an edit truncates after the edited message).
    with path.open("r+b") as handle:
        handle.truncate(0)
        handle.write(jsonl(_mux("m1", "a"), _mux("m4", "edited")))
    assert _ids(tail.read_new()) == ["m4"]
    assert tail.restarts == 1


def test_a_replaced_file_is_reread_from_the_start(tmp_path: Path) -> None:
    path = tmp_path / "chat.jsonl"
    path.write_bytes(jsonl(_mux("m1", "a")))
    tail = TranscriptTail(path)
    assert _ids(tail.read_new()) == ["m1"]

    replacement = tmp_path / "chat.jsonl.tmp"
    replacement.write_bytes(jsonl(_mux("summary", "compacted"), _mux("m5", "after")))
    os.replace(replacement, path)  # an atomic rewrite: new inode, larger file
    assert _ids(tail.read_new()) == ["summary", "m5"]
    assert tail.restarts == 1


def test_an_in_place_rewrite_that_moves_line_ends_restarts(tmp_path: Path) -> None:
    path = tmp_path / "chat.jsonl"
    path.write_bytes(jsonl(_mux("m1", "abcd")))
    tail = TranscriptTail(path)
    tail.read_new()
    with path.open("r+b") as handle:  # same inode, grown, no line ends where we stopped
        handle.write(jsonl(_mux("m8", "x"), _mux("m9", "y" * 50)))
    assert _ids(tail.read_new()) == ["m8", "m9"]
    assert tail.restarts == 1


def test_resuming_from_a_saved_offset_detects_the_format_from_the_head(tmp_path: Path) -> None:
    path = tmp_path / "chat.jsonl"
    path.write_bytes(jsonl(_mux("m1", "a"), _mux("m2", "b")))
    saved = TranscriptTail(path)
    saved.read_new()
    append(path, jsonl(_mux("m3", "c")))

    resumed = TranscriptTail(path, offset=saved.offset)
    assert _ids(resumed.read_new()) == ["m3"]
    assert resumed.format == "mux"
    # A saved offset beyond the end (the file was rewritten meanwhile) restarts from 0.
    beyond = TranscriptTail(path, offset=10**9)
    assert _ids(beyond.read_new()) == ["m1", "m2", "m3"]


def test_broken_lines_are_counted_with_where_they_are(tmp_path: Path) -> None:
    path = tmp_path / "chat.jsonl"
    path.write_bytes(jsonl(_mux("m1", "a")) + b"{oops\n" + jsonl(_mux("m2", "b")))
    tail = TranscriptTail(path)

    assert _ids(tail.read_new()) == ["m1", "m2"]
    assert tail.skipped_lines == 1
    skip = tail.skipped[0]
    assert (skip.line_number, skip.byte_offset) == (2, len(jsonl(_mux("m1", "a"))))
    assert str(skip).startswith("line 2 at byte")


def _claude_assistant(uuid: str, message_id: str, block: dict, stop: str | None = None) -> dict:
    message = {"id": message_id, "role": "assistant", "content": [block], "stop_reason": stop}
    return {"type": "assistant", "uuid": uuid, "sessionId": "s", "message": message}


def _claude_result(uuid: str, tool_use_id: str, output: str) -> dict:
    content = [{"type": "tool_result", "tool_use_id": tool_use_id, "content": output}]
    return {
        "type": "user",
        "uuid": uuid,
        "sessionId": "s",
        "message": {"role": "user", "content": content},
    }


def test_a_claude_message_split_across_reads_is_returned_once_merged(tmp_path: Path) -> None:
    path = tmp_path / "session.jsonl"
    prompt = {
        "type": "user",
        "uuid": "u1",
        "sessionId": "s",
        "message": {"role": "user", "content": "go"},
    }
    text_line = jsonl(_claude_assistant("a1", "M", {"type": "text", "text": "Checking."}))
    path.write_bytes(jsonl(prompt) + text_line)
    tail = TranscriptTail(path)

    assert _ids(tail.read_new()) == ["u1"]  # M may still grow: held back
    assert tail.offset == len(jsonl(prompt))  # resuming would re-read M's lines
    append(
        path,
        jsonl(
            _claude_assistant(
                "a2",
                "M",
                {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "ls"}},
            )
        ),
    )
    append(path, jsonl(_claude_result("r1", "t1", "file.txt")))
    assert tail.read_new() == []  # a tool result alone does not close the message
    append(
        path,
        jsonl(_claude_assistant("a3", "N", {"type": "text", "text": "Done."}, stop="end_turn")),
    )

    merged, done = tail.read_new()
    assert (merged.id, merged.text, merged.completed_turn) == ("M", "Checking.", False)
    assert merged.tool_calls[0].output == "file.txt"
    assert (done.id, done.completed_turn) == ("N", True)
    assert tail.offset == path.stat().st_size


def test_late_results_land_in_place_on_events_already_returned(tmp_path: Path) -> None:
    path = tmp_path / "rollout.jsonl"

    def line(kind: str, payload: dict) -> dict:
        return {"timestamp": "2026-01-01T00:00:00Z", "type": kind, "payload": payload}

    path.write_bytes(
        jsonl(
            line("session_meta", {"id": "s"}),
            line(
                "response_item",
                {
                    "type": "function_call",
                    "name": "exec_command",
                    "arguments": '{"cmd":"make"}',
                    "call_id": "c1",
                },
            ),
            line("event_msg", {"type": "turn_aborted"}),
        )
    )
    tail = TranscriptTail(path)
    (running,) = tail.read_new()
    assert not running.tool_calls[0].has_output

    append(
        path,
        jsonl(
            line(
                "response_item",
                {
                    "type": "function_call_output",
                    "call_id": "c1",
                    "output": "Process exited with code 2",
                },
            )
        ),
    )
    assert tail.read_new() == []
    assert running.tool_calls[0].output == "Process exited with code 2"
    assert running.tool_calls[0].is_error and running.tool_calls[0].exit_code == 2


def test_records_read_before_the_format_is_known_are_parsed_once_it_is(tmp_path: Path) -> None:
    path = tmp_path / "chat.jsonl"
    path.write_bytes(b'{"note": "no format yet"}\n')
    tail = TranscriptTail(path)

    assert tail.read_new() == [] and tail.format is None
    assert tail.offset == 0, "the undecided record would be read again on resume"
    append(path, jsonl(_mux("m1", "hi")))
    assert _ids(tail.read_new()) == ["m1"]
    assert (tail.format, tail.ignored_records, tail.offset) == ("mux", 1, path.stat().st_size)


def test_only_the_newest_returned_ids_are_remembered_across_a_restart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(reader, "REMEMBERED_EVENT_IDS", 3)
    path = tmp_path / "chat.jsonl"
    history = [_mux(f"m{n}", "x") for n in range(1, 6)]
    path.write_bytes(jsonl(*history[:2]))
    tail = TranscriptTail(path)
    assert len(tail.read_new()) == 2
    append(path, jsonl(*history[2:]))
    assert len(tail.read_new()) == 3

    replacement = tmp_path / "chat.jsonl.tmp"
    replacement.write_bytes(jsonl(*history, _mux("m6", "new")))
    os.replace(replacement, path)  # rewritten whole, one message longer
    # m1 and m2 are forgotten (a follower filters them by time); m3..m5 are not repeated.
    assert _ids(tail.read_new()) == ["m1", "m2", "m6"]


def test_repeated_ids_within_one_read_are_all_returned(tmp_path: Path) -> None:
    path = tmp_path / "chat.jsonl"
    path.write_bytes(jsonl(_mux("m1", "a"), _mux("m1", "b")))
    assert [event.text for event in TranscriptTail(path).read_new()] == ["a", "b"]


def test_streaming_hands_over_each_event_before_reading_the_next_line(tmp_path: Path) -> None:
    path = tmp_path / "chat.jsonl"
    lines = [jsonl(_mux(f"m{n}", "x" * 100)) for n in range(50)]
    path.write_bytes(b"".join(lines))
    tail = TranscriptTail(path)
    offsets: list[int] = []
    tail.stream_new(lambda event: offsets.append(tail.offset))
    assert offsets == [len(b"".join(lines[: n + 1])) for n in range(50)]
