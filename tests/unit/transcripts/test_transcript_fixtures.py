"""Every shared real-world transcript reads cleanly, with what each one is known to hold."""

from __future__ import annotations

from pathlib import Path

import pytest

from memtab.transcripts.events import TranscriptEvent, compact_json
from memtab.transcripts.reader import Transcript, TranscriptTail, read_transcript

from .helpers import append, fixture_file

_FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "shared"
_ALL_FIXTURES = sorted(_FIXTURES.glob("*/*.jsonl"))
_FORMAT_BY_DIR = {"mux": "mux", "claude-code": "claude", "codex": "codex"}


def _read(fixtures_dir: Path, fragment: str) -> Transcript:
    return read_transcript(fixture_file(fixtures_dir, fragment))


def _calls(transcript: Transcript) -> list:
    return [call for event in transcript.events for call in event.tool_calls]


def _by_id(transcript: Transcript, event_id: str) -> TranscriptEvent:
    return next(event for event in transcript.events if event.id == event_id)


@pytest.mark.parametrize("path", _ALL_FIXTURES, ids=lambda path: path.name[:60])
def test_every_fixture_reads_into_valid_events(path: Path) -> None:
    transcript = read_transcript(path)

    assert transcript.format == _FORMAT_BY_DIR[path.parent.name]
    ids = [event.id for event in transcript.events]
    assert len(ids) == len(set(ids)), "event ids are unique"
    for event in transcript.events:
        assert event.source == transcript.format
        assert event.role in ("user", "assistant", "system", "summary")
        assert event.timestamp is None or event.timestamp > 1_000_000_000_000
        compact_json(event.to_json()).encode("utf-8")  # serializable, encodable
    assert not any("unreadable record" in skip.reason for skip in transcript.skipped)


@pytest.mark.parametrize("path", _ALL_FIXTURES, ids=lambda path: path.name[:60])
def test_tailing_a_fixture_written_in_pieces_gives_the_same_events(
    path: Path, tmp_path: Path
) -> None:
    whole = read_transcript(path)
    data = path.read_bytes()
    growing = tmp_path / "growing.jsonl"
    growing.write_bytes(b"")
    tail = TranscriptTail(growing)
    seen: list[TranscriptEvent] = []
    for start in range(0, len(data), 997):  # cut mid-line, mid-character
        append(growing, data[start : start + 997])
        seen.extend(tail.read_new())
    seen.extend(tail.read_all().events)

    assert [event.id for event in seen] == [event.id for event in whole.events]
    assert [event.to_json() for event in seen] == [event.to_json() for event in whole.events]
    assert tail.skipped_lines == whole.skipped_lines


# --- mux ---------------------------------------------------------------------------------


def test_mux_replay_session(fixtures_dir: Path) -> None:
    transcript = _read(fixtures_dir, "replay-session__chat")

    assert [event.role for event in transcript.events] == ["user", "assistant"] * 3
    assert [event.history_sequence for event in transcript.events] == list(range(6))
    assert [event.completed_turn for event in transcript.events] == [False, True] * 3
    first = transcript.events[0]
    assert first.id == first.message_id == "user-1"
    assert first.text == "Hello! Which file holds the entry point?"
    assert first.timestamp == 1700000010000
    assert transcript.events[1].model == "anthropic:claude-sonnet-4-5"
    assert transcript.session_id == "replay-fixture"
    assert transcript.skipped_lines == 0


def test_mux_real_session_with_tools_failures_and_aborted_turns(fixtures_dir: Path) -> None:
    transcript = _read(fixtures_dir, "openai-reasoning-error-repro")

    assert len(transcript.events) == 6
    work = transcript.events[1]
    assert work.role == "assistant" and work.completed_turn
    assert work.text.startswith("Done. I gave the docs a cohesive aesthetic refresh")
    assert "**Expl" not in work.text, "reasoning parts are not text"
    assert len(work.tool_calls) == 17
    assert all(call.name == "bash" and call.has_output for call in work.tool_calls)
    assert work.tool_calls[7].command == "bun run docs:build"
    assert work.tool_calls[7].exit_code == 0 and not work.tool_calls[7].is_error

    failed = [call for call in work.tool_calls if call.is_error]
    assert [call.id for call in failed] == [
        "call_p7MnDv68975N9ME4yp7qFJIo",
        "call_6HQWM67dMXFNjHn1fuXTuon7",
    ]
    for call in failed:
        assert call.exit_code == 1
        assert call.error == call.error_text == "Command exited with code 1"
        assert call.to_json()["isError"] is True
    assert (
        failed[1].command == "TEST_INTEGRATION=1 bun x jest tests --reporters=default --runInBand"
    )
    assert "Failed to find package" in (failed[1].output or "")

    aborted = [transcript.events[3], transcript.events[5]]
    for event in aborted:
        assert event.role == "assistant" and not event.completed_turn
        assert not event.text and not event.tool_calls  # aborted before any output
    assert sum(event.completed_turn for event in transcript.events) == 1


# --- Claude Code -------------------------------------------------------------------------


def test_claude_real_init_session_merges_lines_and_pairs_results(fixtures_dir: Path) -> None:
    transcript = _read(fixtures_dir, "1af7fc5e-8455-4414-9ccd-011d40f70b2a")

    assert len(transcript.events) == 9
    assert transcript.cwd == "/path/to/Demo"
    assert transcript.session_id == "1af7fc5e-8455-4414-9ccd-011d40f70b2a"
    # msg_018mu4… is one API message written as five lines, one tool_use each.
    merged = _by_id(transcript, "msg_018mu4atNCkxSiLt7VVQquTL")
    assert [call.name for call in merged.tool_calls] == ["Bash", "Glob", "Glob", "Glob", "Glob"]
    # msg_01TqDZ… is a text line then a tool_use line.
    text_then_tool = _by_id(transcript, "msg_01TqDZoU6FcpxB4u2AmpgWfZ")
    assert text_then_tool.text.startswith("I'll analyze the codebase")
    assert [call.name for call in text_then_tool.tool_calls] == ["TodoWrite"]

    calls = _calls(transcript)
    assert len(calls) == 12 and all(call.has_output for call in calls)
    errors = [call for call in calls if call.is_error]
    assert [call.name for call in errors] == ["Write"]
    assert "requested permissions" in errors[0].error_text
    assert _by_id(transcript, "d78d1de2-52bd-4e64-ad0f-affcbcc1dabf").role == "system"  # isMeta
    assert [event.completed_turn for event in transcript.events].count(True) == 1
    assert transcript.events[-1].completed_turn


def test_claude_sidechain_agent_file(fixtures_dir: Path) -> None:
    transcript = _read(fixtures_dir, "agent-test-hash-123")

    assert [event.role for event in transcript.events] == ["user", "assistant"]
    assert all(event.sidechain for event in transcript.events)
    assert not transcript.events[1].completed_turn, "a sub-agent's turn is not the user's"
    assert transcript.events[0].to_json()["sidechain"] is True


def test_claude_compaction_after_rewind(fixtures_dir: Path) -> None:
    transcript = _read(fixtures_dir, "dag_compact_after_rewind")

    assert len(transcript.events) == 12
    boundary = _by_id(transcript, "cb")
    assert (boundary.role, boundary.text) == ("system", "Conversation compacted")
    assert _by_id(transcript, "cs").role == "summary"
    assert transcript.events[-1].text == "Final answer" and transcript.events[-1].completed_turn


def test_claude_edge_cases_skip_non_records_and_keep_the_error(fixtures_dir: Path) -> None:
    transcript = _read(fixtures_dir, "edge_cases")

    assert transcript.skipped_lines == 3  # "massive error", 42, [1]
    assert all("not a JSON object" in skip.reason for skip in transcript.skipped)
    assert [skip.line_number for skip in transcript.skipped] == [13, 15, 16]
    # {"silly": ...}, a `message: "error"` line and a line without `content`.
    assert transcript.ignored_records == 3
    failing = _by_id(transcript, "edge_004").tool_calls[0]
    assert failing.name == "FailingTool" and failing.is_error
    assert failing.output == "Error: Tool execution failed with error: Command not found"
    assert _by_id(transcript, "edge_006").role == "system"  # local-command caveat
    assert (
        "中文" in _by_id(transcript, "edge_011").text
        and "🎉" in _by_id(transcript, "edge_011").text
    )
    assert transcript.events[-1].role == "summary"
    assert len(transcript.events) == 12


def test_claude_representative_messages(fixtures_dir: Path) -> None:
    transcript = _read(fixtures_dir, "representative_messages")

    assert len(transcript.events) == 10
    bash = _by_id(transcript, "msg_008").tool_calls[0]
    assert bash.id == "tool_002" and bash.command == "python /tmp/decorator_example.py"
    assert bash.output is not None and bash.output.startswith("Hello, Alice!")
    assert transcript.events[-1].role == "summary"
    assert transcript.events[-1].text.startswith("User learned about Python decorators")


def test_claude_todowrite_and_session_b(fixtures_dir: Path) -> None:
    todo = _read(fixtures_dir, "todowrite_examples")
    assert len(todo.events) == 9
    assert [call.name for call in _calls(todo)] == ["TodoWrite"] * 3
    assert all(call.has_output and isinstance(call.input, dict) for call in _calls(todo))

    session_b = _read(fixtures_dir, "session_b")
    assert [event.role for event in session_b.events] == ["user", "assistant", "user"]


def test_claude_ccusage_usage_only_lines_are_skipped_cleanly(fixtures_dir: Path) -> None:
    transcript = _read(fixtures_dir, "project-alpha__session-alpha__chat")

    assert transcript.format == "claude"
    assert transcript.events == []
    assert transcript.skipped_lines == 0
    assert transcript.ignored_records == 3


def test_claude_simonw_sample_session(fixtures_dir: Path) -> None:
    transcript = _read(fixtures_dir, "simonw-claude-code-transcripts")

    assert len(transcript.events) == 6
    assert transcript.events[0].role == "summary"
    assert transcript.cwd == "/project"
    calls = _calls(transcript)
    assert [(call.name, call.output) for call in calls] == [
        ("Write", "File written successfully"),
        ("Bash", calls[1].output),
    ]
    assert calls[1].command == "git add . && git commit -m 'Add hello function'"


def test_claude_mem_session_roles_and_truncated_last_line(fixtures_dir: Path) -> None:
    transcript = _read(fixtures_dir, "thedotmack-claude-mem")

    assert transcript.skipped_lines == 1
    assert "truncated last line" in transcript.skipped[0].reason
    assert transcript.skipped[0].line_number == 17
    texts = {event.text.split()[0]: event for event in transcript.events if event.text}
    assert texts["<system-reminder>SYSTEM-REMINDER-MARKER"].role == "system"
    assert texts["Caveat:"].role == "system"  # isMeta
    assert texts["COMPACT-SUMMARY-MARKER"].role == "summary"
    assert (
        texts["SIDECHAIN-USER-MARKER"].sidechain and texts["SIDECHAIN-USER-MARKER"].role == "user"
    )
    assert texts["[image]"].role == "user"
    suite = next(event for event in transcript.events if event.text == "Running the suite now.")
    assert suite.tool_calls[0].command == "bun test"
    assert suite.tool_calls[0].output == "MIXED-TOOL-RESULT-MARKER 3 pass"
    interrupted = texts["[Request"]
    assert interrupted.role == "user" and "also run typecheck" in interrupted.text
    assert transcript.events[-1].text.startswith("Tests added.")
    assert len(transcript.events) == 15


# --- Codex -------------------------------------------------------------------------------


def test_codex_structured_session(fixtures_dir: Path) -> None:
    transcript = _read(fixtures_dir, "11111111-1111-4111-8111-111111111111")

    assert transcript.session_id == "11111111-1111-4111-8111-111111111111"
    assert transcript.cwd == "/workspace/synthetic-project"
    assert [event.role for event in transcript.events] == ["user", "assistant", "assistant"]
    assert transcript.events[0].text == "List the synthetic files."  # event_msg copy dropped
    exec_call, patch, mcp = transcript.events[1].tool_calls
    assert exec_call.command == "find . -maxdepth 1 -type f"
    assert exec_call.output == "./alpha.txt\n./beta.txt"
    assert patch.name == "apply_patch" and isinstance(patch.input, str)
    assert patch.output == "Done!"
    assert (mcp.name, mcp.input, mcp.output) == (
        "mcp__synthetic__lookup",
        {"query": "fixture"},
        '{"status":"ok"}',
    )
    assert transcript.events[2].completed_turn
    assert transcript.ignored_records == 1  # future_synthetic_record
    dumped = compact_json([event.to_json() for event in transcript.events])
    assert "SYNTHETIC_ENCRYPTED_CONTENT" not in dumped and "inspect the synthetic" not in dumped


def test_codex_spawned_subagent_rollouts(fixtures_dir: Path) -> None:
    parent = _read(fixtures_dir, "22222222-2222-4222-8222-222222222222")
    child = _read(fixtures_dir, "33333333-3333-4333-8333-333333333333")

    spawn = parent.events[1].tool_calls[0]
    assert spawn.name == "spawn_agent" and spawn.output is not None
    assert not any(event.sidechain for event in parent.events)
    assert child.events and all(event.sidechain for event in child.events)
    assert child.events[-1].text == "The fixtures are fully synthetic."
    assert not child.events[-1].completed_turn


def test_codex_legacy_archived_and_malformed_rollouts(fixtures_dir: Path) -> None:
    legacy = _read(fixtures_dir, "44444444-4444-4444-8444-444444444444")
    assert legacy.format == "codex"
    assert legacy.session_id == "44444444-4444-4444-8444-444444444444"
    assert [event.text for event in legacy.events] == [
        "Open the synthetic legacy session.",
        "The synthetic legacy session is open.",
    ]

    archived = _read(fixtures_dir, "55555555-5555-4555-8555-555555555555")
    assert [event.text for event in archived.events] == ["Archived synthetic prompt."]

    malformed = _read(fixtures_dir, "66666666-6666-4666-8666-666666666666")
    assert [event.text for event in malformed.events] == ["Safe line before malformed input."]
    assert malformed.skipped_lines == 1
    assert malformed.skipped[0].line_number == 3
    assert "not valid JSON" in malformed.skipped[0].reason


def test_codex_real_rollout_with_five_call_pairs(fixtures_dir: Path) -> None:
    transcript = _read(fixtures_dir, "019c8bfe-ec25-79e0-97d7-bda6a9c575ff")

    calls = _calls(transcript)
    assert len(calls) == 5 and all(call.has_output for call in calls)
    assert calls[0].name == "mcp__cloud-associates__search_workflows"
    assert isinstance(calls[0].input, str)  # the author redacted the arguments
    assert {event.role for event in transcript.events[:2]} == {"system"}  # developer messages
    final = transcript.events[-1]
    assert final.completed_turn and final.tool_calls == []
    assert sum(event.completed_turn for event in transcript.events) == 1


def test_codex_rollout_ending_in_a_call_without_output(fixtures_dir: Path) -> None:
    transcript = _read(fixtures_dir, "019c8a70-dda7-7f33-98ea-f30553347322")

    last_call = transcript.events[-1].tool_calls[-1]
    assert last_call.name == "exec_command"
    assert last_call.output is None and not last_call.has_output
    assert "output" not in last_call.to_json()


def test_codex_usage_only_rollout(fixtures_dir: Path) -> None:
    transcript = _read(fixtures_dir, "ccusage__apps__ccusage__test__fixtures__codex")

    assert transcript.format == "codex"
    assert transcript.events == [] and transcript.skipped_lines == 0
