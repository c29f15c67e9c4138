"""Where a writer's lines came from: the writer records it, suggestions carry it through
acceptance, and blame tells it line by line."""

from __future__ import annotations

from pathlib import Path

import pytest

from memtab.blame.records import TranscriptSource
from memtab.blame.service import blame_memory_file
from memtab.store.history.provenance import ProvenanceLog
from memtab.store.history.records import (
    MAX_LINE_CHARS,
    MAX_MESSAGE_IDS,
    MAX_NOTES,
    NoteOrigin,
    ProvenanceRecord,
)
from memtab.store.home import Home
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.registry import Workspace, add_workspace, load_registry
from memtab.traces.names import parse_trace_file_name
from memtab.writer.config import DEFAULT_MEMORY_PATH, OfflineNotes, WriterSettings
from memtab.writer.inbox.suggestions import SuggestionQueue
from support.writer_models import run_model, run_offline, write_demo_transcript

WS = "a1b2c3d4e5"


@pytest.fixture
def home(tmp_path: Path) -> Home:
    home = Home(tmp_path / "home")
    add_workspace(home, "/src/acme", "main", workspace_id=WS, workspace_path="/src/acme")
    return home


@pytest.fixture
def workspace(home: Home) -> Workspace:
    return load_registry(home).require_workspace(WS)


@pytest.fixture
def transcript(home: Home) -> Path:
    return write_demo_transcript(home, WS)


def transcript_source(line_source: object) -> TranscriptSource:
    assert isinstance(line_source, TranscriptSource), line_source
    return line_source


def test_the_offline_writer_says_which_messages_each_line_came_from(
    home: Home, workspace: Workspace, transcript: Path
) -> None:
    settings = WriterSettings(offline_notes=OfflineNotes.WRITE)
    result, _ = run_offline(home, workspace, transcript, settings)
    assert result.outcome == "wrote"
    blame = blame_memory_file(MemoryStore(home, workspace), DEFAULT_MEMORY_PATH)
    lines = {line.text: line for line in blame.lines}
    directive = next(line for text, line in lines.items() if "make check" in text.lower())
    fix = next(line for text, line in lines.items() if "make db-up" in text)
    assert directive.actor == fix.actor == "writer" and directive.run_id == result.run_id
    said = transcript_source(directive.source)
    assert said.message_ids == ("user-0001",) and said.drawn_from == "note"
    assert said.workspace_id == WS and said.transcript_path == str(transcript)
    assert said.run_id == result.run_id
    # The failure and the command that then worked are in the same assistant message.
    assert transcript_source(fix.source).message_ids == ("assistant-0001",)
    # A heading the notes format adds was drawn from no message.
    heading = next(line for text, line in lines.items() if text.startswith("## "))
    assert heading.actor == "writer" and heading.source is None


def test_suggestions_carry_their_origin_through_acceptance(
    home: Home, workspace: Workspace, transcript: Path
) -> None:
    result, bound = run_offline(home, workspace, transcript, WriterSettings())
    assert result.outcome == "suggested" and bound.proposed
    queue = SuggestionQueue(home, WS)
    pending = queue.pending()
    assert all(s.origin and s.origin.run_id == result.run_id for s in pending)
    directive = next(s for s in pending if "make check" in s.text.lower())
    others = [s for s in pending if s is not directive]
    queue.accept([directive.id], workspace=workspace)
    queue.accept([others[0].id], workspace=workspace, text="My own words instead")
    blame = blame_memory_file(MemoryStore(home, workspace), DEFAULT_MEMORY_PATH)
    lines = {line.text: line for line in blame.lines}
    accepted = lines[f"- {directive.text}"]
    assert accepted.actor == "writer" and accepted.run_id == result.run_id
    source = transcript_source(accepted.source)
    assert source.suggestion_id == directive.id and source.edited is False
    assert source.message_ids == ("user-0001",)
    edited = lines["- My own words instead"]
    assert edited.actor == "user" and transcript_source(edited.source).edited is True
    # The lines the acceptance added around them are the user's own change.
    assert lines["# Workspace notes"].actor == "user" and lines["# Workspace notes"].source is None


def test_a_models_lines_say_the_window_it_was_shown_and_its_trace_dump(
    home: Home, workspace: Workspace, transcript: Path
) -> None:
    settings = WriterSettings(dump_successful_runs=True)
    result = run_model(home, workspace, transcript, "# Notes\n\n- one\n- two\n", settings)
    assert result.outcome == "wrote" and result.trace_path is not None
    blame = blame_memory_file(MemoryStore(home, workspace), DEFAULT_MEMORY_PATH)
    one = next(line for line in blame.lines if line.text == "- one")
    source = transcript_source(one.source)
    assert source.drawn_from == "window"
    assert source.message_ids == ("user-0001", "assistant-0002")
    assert source.trace_dump == result.trace_path.name
    assert parse_trace_file_name(source.trace_dump) is not None
    # A dump pruned since is no longer named.
    result.trace_path.unlink()
    again = blame_memory_file(MemoryStore(home, workspace), DEFAULT_MEMORY_PATH)
    assert transcript_source(again.lines[2].source).trace_dump is None


def test_a_writer_run_without_provenance_says_the_message_that_started_it(
    home: Home, workspace: Workspace, transcript: Path
) -> None:
    run_model(home, workspace, transcript, "# Notes\n\n- one\n- two\n")
    home.provenance_log_path.unlink()  # as a run logged before provenance was recorded
    blame = blame_memory_file(MemoryStore(home, workspace), DEFAULT_MEMORY_PATH)
    source = transcript_source(blame.lines[2].source)
    assert source.drawn_from == "trigger" and source.message_ids == ("assistant-0002",)


def test_a_record_is_bounded_whatever_it_is_given() -> None:
    note = NoteOrigin(line="x" * 5000, message_ids=[f"m{i}" for i in range(50)] + ["", "m1"])
    assert len(note.line) == MAX_LINE_CHARS and note.line.endswith("…")
    assert note.message_ids == tuple(f"m{i}" for i in range(MAX_MESSAGE_IDS))
    record = ProvenanceRecord(at=1, kind="writer-run", versions=["v"], notes=[note] * 500)
    assert len(record.notes) == MAX_NOTES
    read = ProvenanceRecord.read(
        {"at": 2, "kind": "writer-run", "versions": ["v"], "notes": [{"line": 5}, {"line": "- a"}]}
    )
    assert read is not None and [n.line for n in read.notes] == ["- a"]  # the bad one dropped


@pytest.mark.expect_log(
    "memtab.store.history.jsonlines", "WARNING", r"^Skipped 2 unreadable line\(s\) of .*provenance"
)
def test_a_damaged_log_loses_only_its_damaged_lines(home: Home) -> None:
    record = ProvenanceRecord(at=5, kind="writer-run", versions=["v1"], run_id="run-1")
    ProvenanceLog(home).append(record)
    with home.provenance_log_path.open("a") as handle:
        handle.write('{"at": "soon", "kind": "writer-run"}\n[1, 2]\n')
    ProvenanceLog(home).append(record)
    assert ProvenanceLog(home).by_version()["v1"] == [record, record]
