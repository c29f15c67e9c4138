"""A Codex command still running when its call returned ends in a later `write_stdin` poll
of its session, from real lines of jdx/fnox's and jdx/mise's Codex sessions
(tests/fixtures/shared/codex, h26en's block A): it is judged by the exit code of that poll,
never counted as a success because its call returned."""

from __future__ import annotations

from memtab.transcripts.codex import polled_session, running_session
from memtab.transcripts.events import TranscriptToolCall
from memtab.writer.offline.extract import extract_findings

from .events import calls

STARTED = (
    "Chunk ID: 3a4172\nWall time: 30.0014 seconds\nProcess running with session ID 99248\n"
    "Original token count: 4915\nOutput:\n[build] $ cargo build\n   Compiling fnox v1.28.0\n"
)
STILL = "Chunk ID: 246aca\nWall time: 30.0027 seconds\nProcess running with session ID 99248\n"
ENDED = (
    "Chunk ID: 3e76f0\nWall time: 17.7855 seconds\nProcess exited with code {code}\n"
    "Original token count: 31\nOutput:\n   Compiling fnox v1.28.0 (/Users/jdx/src/fnox)\n"
)


def _exec(command: str, output: str) -> TranscriptToolCall:
    return TranscriptToolCall(id="c1", name="exec_command", input={"cmd": command}, output=output)


def _poll(output: str, exit_code: int | None) -> TranscriptToolCall:
    arguments = {"session_id": 99248, "chars": "", "yield_time_ms": 30000}
    return TranscriptToolCall(
        id="c2",
        name="write_stdin",
        input=arguments,
        output=output,
        exit_code=exit_code,
        is_error=exit_code not in (None, 0),
    )


def test_a_running_command_is_judged_by_the_poll_that_saw_it_end() -> None:
    started = _exec("mise run build", STARTED)
    assert running_session(started) == "99248"
    assert polled_session(_poll(STILL, None)) == "99248"
    assert running_session(_poll(STILL, None)) is None  # a poll is no command
    ended = [calls(started), calls(_poll(STILL, None)), calls(_poll(ENDED.format(code=0), 0))]
    [tool] = extract_findings(ended).tools
    assert (tool.program, tool.examples) == ("mise", ("mise run build",))


def test_a_running_command_that_then_failed_or_never_ended_did_not_work() -> None:
    failed = [calls(_exec("mise run build", STARTED)), calls(_poll(ENDED.format(code=1), 1))]
    assert extract_findings(failed).tools == []
    assert extract_findings([calls(_exec("mise run build", STARTED))]).tools == []
    # a poll of a session whose start was not seen says nothing
    assert extract_findings([calls(_poll(ENDED.format(code=0), 0))]).empty
