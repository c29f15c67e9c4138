"""The writer records where the lines it writes come from (docs/formats.md §20.1): per
note for the offline writer, the transcript window and dump for a model's run, and the
suggestions' origin through acceptance."""

from __future__ import annotations

from pathlib import Path

import pytest

from memtab.store.history.provenance import ProvenanceLog
from memtab.store.home import Home
from memtab.store.restore.from_history import file_history
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.registry import Workspace
from memtab.transcripts.reader import read_transcript
from memtab.writer.config import DEFAULT_MEMORY_PATH, OfflineNotes, WriterSettings
from memtab.writer.inbox.suggestions import SuggestionQueue
from memtab.writer.offline.extract import extract_findings
from support.memory_paths import vpath
from support.writer_models import run_model, run_offline, write_demo_transcript

from .helpers import WORKSPACE_ID


@pytest.fixture
def transcript(home: Home, workspace: Workspace) -> Path:
    return write_demo_transcript(home, workspace.id)


def test_every_finding_knows_the_messages_it_came_from(transcript: Path) -> None:
    findings = extract_findings(read_transcript(transcript, "mux").events)
    (directive,) = [d for d in findings.directives if "make check" in d.lower()]
    assert findings.origin_of("directive", directive) == ("user-0001",)
    (fix,) = findings.solved_problems
    assert findings.origin_of("fix", f"{fix.action}\n{fix.signature}") == ("assistant-0001",)
    for command in findings.commands:
        assert findings.origin_of("command", command.command), command


def test_an_offline_write_logs_each_notes_line_and_messages(
    home: Home, workspace: Workspace, transcript: Path
) -> None:
    settings = WriterSettings(offline_notes=OfflineNotes.WRITE)
    result, _ = run_offline(home, workspace, transcript, settings)
    assert result.outcome == "wrote"
    (record,) = ProvenanceLog(home).records()
    store = MemoryStore(home, workspace)
    newest = file_history(store, vpath(DEFAULT_MEMORY_PATH))[0]
    assert record.kind == "writer-run" and record.run_id == result.run_id
    assert record.versions == (newest.id,) and record.workspace_id == WORKSPACE_ID
    assert record.window is not None and record.window.transcript_path == str(transcript)
    assert record.window.message_ids == ("user-0001", "assistant-0002")
    lines = store.read(vpath(DEFAULT_MEMORY_PATH)).content.splitlines()
    assert record.notes and all(note.line in lines for note in record.notes)
    assert all(note.message_ids and note.run_id == result.run_id for note in record.notes)


def test_suggestions_carry_their_origin_and_acceptance_logs_it(
    home: Home, workspace: Workspace, transcript: Path
) -> None:
    result, _ = run_offline(home, workspace, transcript, WriterSettings())
    assert result.outcome == "suggested" and ProvenanceLog(home).records() == []
    queue = SuggestionQueue(home, WORKSPACE_ID)
    first, second, *_ = queue.pending()
    origin = first.origin
    assert origin is not None and origin.run_id == result.run_id and origin.message_ids
    assert (origin.workspace_id, origin.transcript_path) == (WORKSPACE_ID, str(transcript))
    assert first.to_json()["origin"] == {
        "messageIds": list(origin.message_ids),
        "workspaceId": WORKSPACE_ID,
        "transcriptPath": str(transcript),
        "runId": result.run_id,
    }
    queue.accept([first.id], workspace=workspace)
    queue.accept([second.id], workspace=workspace, text="Said my own way")
    kept, edited = ProvenanceLog(home).records()
    history = file_history(MemoryStore(home, workspace), vpath(DEFAULT_MEMORY_PATH))
    assert kept.kind == "accepted-suggestions" and kept.run_id is None
    assert kept.versions == (history[1].id,) and edited.versions == (history[0].id,)
    (note,) = kept.notes
    assert (note.line, note.suggestion_id, note.edited) == (f"- {first.text}", first.id, False)
    assert note.run_id == result.run_id and note.message_ids == origin.message_ids
    assert edited.notes[0].line == "- Said my own way" and edited.notes[0].edited is True


def test_a_models_run_logs_its_window_and_dump(
    home: Home, workspace: Workspace, transcript: Path
) -> None:
    settings = WriterSettings(dump_successful_runs=True)
    result = run_model(home, workspace, transcript, "# Notes\n\n- one\n", settings)
    assert result.trace_path is not None
    (record,) = ProvenanceLog(home).records()
    assert record.trace_dump == result.trace_path.name and record.notes == ()
    assert record.window is not None and record.window.message_count == 4


@pytest.mark.expect_log(
    "memtab.store.history.provenance", "WARNING", r"^Could not record where the new lines"
)
def test_a_log_that_cannot_be_written_never_fails_the_run(
    home: Home, workspace: Workspace, transcript: Path
) -> None:
    home.provenance_log_path.mkdir(parents=True)  # a directory where the log should be
    result = run_model(home, workspace, transcript, "# Notes\n\n- one\n")
    assert result.outcome == "wrote"
    assert (
        MemoryStore(home, workspace).read(vpath(DEFAULT_MEMORY_PATH)).content
        == "# Notes\n\n- one\n"
    )
