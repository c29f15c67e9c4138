"""Codex's code mode: the model runs a JavaScript cell that calls its tools (`const r =
await tools.exec_command({cmd:"…"}); text(JSON.stringify(r))`). Real lines of a jdx/mise
session (tests/fixtures/shared/codex, h26en's block A): the cell's one command is the
call's command; the result it printed tells the session still running it, or its exit
code; a later cell polls that session (`tools.write_stdin({session_id:…})`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from memtab.transcripts.codex import polled_session, running_session
from memtab.transcripts.events import TranscriptEvent, TranscriptToolCall, code_mode_command
from memtab.transcripts.reader import read_transcript
from memtab.writer.offline.extract import extract_findings

from .helpers import jsonl

WORKDIR = "/Users/jdx/.codex/worktrees/8d51/mise"
START = (
    'const r = await tools.exec_command({cmd:"git switch -c codex/fix-copr-pie-probe && '
    f'mise run lint-fix","workdir":"{WORKDIR}","yield_time_ms":1000,"max_output_tokens":12000}}); '
    "text(JSON.stringify(r));\n"
)
POLL = (
    'const r = await tools.write_stdin({session_id:95161,chars:"",yield_time_ms:30000,'
    "max_output_tokens:12000}); text(JSON.stringify(r));\n"
)
RUNNING = {
    "chunk_id": "ea6a22",
    "wall_time_seconds": 1.001601291,
    "session_id": 95161,
    "original_token_count": 558,
    "output": "Switched to a new branch 'codex/fix-copr-pie-probe'\n[lint-fix] $ lint-fix.sh\n",
}
ENDED = {
    "chunk_id": "09c1a4",
    "wall_time_seconds": 1.816349292,
    "exit_code": 0,
    "original_token_count": 27,
    "output": "  cargo-check –     Finished `dev` profile\n✔ cargo-check\n",
}


def calls(call: TranscriptToolCall) -> TranscriptEvent:
    return TranscriptEvent(id="a1", role="assistant", source="codex", tool_calls=[call])


def _line(kind: str, payload: dict[str, Any]) -> dict[str, Any]:
    return {"timestamp": "2026-07-13T21:09:22.961Z", "type": kind, "payload": payload}


def _cell(call_id: str, cell: str, result: dict[str, Any]) -> list[dict[str, Any]]:
    printed = [
        {"type": "input_text", "text": "Script completed\nWall time 5.0 seconds\nOutput:\n"},
        {"type": "input_text", "text": json.dumps(result, separators=(",", ":"))},
    ]
    return [
        _line(
            "response_item",
            {"type": "custom_tool_call", "call_id": call_id, "name": "exec", "input": cell},
        ),
        _line(
            "response_item",
            {"type": "custom_tool_call_output", "call_id": call_id, "output": printed},
        ),
    ]


def test_a_code_mode_cell_runs_its_command_to_the_poll_that_saw_it_end(tmp_path: Path) -> None:
    records = [
        _line("session_meta", {"id": "sess", "cwd": WORKDIR}),
        *_cell("c1", START, RUNNING),
        *_cell("c2", POLL, ENDED),
    ]
    path = tmp_path / "rollout.jsonl"
    path.write_bytes(jsonl(*records))
    transcript = read_transcript(path)
    start, poll = [call for event in transcript.events for call in event.tool_calls]
    assert start.command == "git switch -c codex/fix-copr-pie-probe && mise run lint-fix"
    assert (start.exit_code, running_session(start)) == (None, "95161")
    assert (poll.command, poll.exit_code, polled_session(poll)) == (None, 0, "95161")
    [tool] = extract_findings(transcript.events).tools
    assert (tool.program, tool.examples) == ("mise", ("mise run lint-fix",))
    # the same cell ending with a failure: no command worked
    failed = {**ENDED, "exit_code": 1}
    path.write_bytes(jsonl(*records[:3], *_cell("c2", POLL, failed)))
    assert extract_findings(read_transcript(path).events).tools == []


def test_a_cell_that_runs_several_commands_is_not_read() -> None:
    two = START + 'const s = await tools.exec_command({cmd:"mise run test"});'
    assert code_mode_command(two) is None
    assert code_mode_command('const r = await tools.exec_command({cmd:"cargo test"});') == (
        "cargo test"
    )


def test_a_cell_that_printed_only_the_output_is_judged_by_it() -> None:
    # hk: `text(r.output)` prints what the command printed, not how it ended
    cell = 'const r = await tools.exec_command({cmd:"mise run test:bats"});text(r.output)\n'
    shown = "Script completed\nWall time 0.1 seconds\nOutput:\n\n\n"
    failed = TranscriptToolCall(id="c1", name="exec", input=cell, output=shown + "not ok 3 races\n")
    assert extract_findings([calls(failed)]).tools == []
    passed = TranscriptToolCall(
        id="c2", name="exec", input=cell, output=shown + "ok 1 a\n\n2 tests, 0 failures\n"
    )
    [tool] = extract_findings([calls(passed)]).tools
    assert tool.examples == ("mise run test:bats",)


def test_an_ended_cells_output_is_what_its_command_printed(tmp_path: Path) -> None:
    # mise: `cargo test … --lib` failed, and the fix note quoted the printed result whole
    cell = 'const r = await tools.exec_command({cmd:"cargo test test_retry_remove_all --lib"});'
    failed = {
        "chunk_id": "9b85e3",
        "wall_time_seconds": 0.95441275,
        "exit_code": 101,
        "original_token_count": 13,
        "output": "error: no library targets found in package `mise`\n",
    }
    records = [_line("session_meta", {"id": "sess", "cwd": WORKDIR}), *_cell("c1", cell, failed)]
    path = tmp_path / "rollout.jsonl"
    path.write_bytes(jsonl(*records))
    [call] = [call for event in read_transcript(path).events for call in event.tool_calls]
    assert (call.exit_code, call.is_error) == (101, True)
    assert call.output.strip() == "error: no library targets found in package `mise`"
    # a cell that printed more than the one result keeps all it printed
    more = _cell("c1", cell, failed)
    more[1]["payload"]["output"].append({"type": "input_text", "text": "\nand more"})
    path.write_bytes(jsonl(records[0], *more))
    [call] = [call for event in read_transcript(path).events for call in event.tool_calls]
    assert call.exit_code == 101
    assert '"chunk_id"' in call.output
