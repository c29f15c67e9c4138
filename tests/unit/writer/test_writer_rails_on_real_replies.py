"""The writer on what real local models answered (issue 82): Qwen2.5-Coder 1.5B and 0.5B
on llama-server, their replies recorded on the shared fixture transcripts and replayed.
Whatever they answer, nothing harmful reaches the notes: no secret, no copied
instruction, no invented rule or word of the user's, no command never run — each such
line named in the result — and what they got right is written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memtab.redact import redact_outgoing
from memtab.store.home import Home
from memtab.store.paths import parse_file_path
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.registry import Workspace
from memtab.transcripts.window import NewestEvents
from memtab.writer.job.rails import WriterRails
from memtab.writer.job.run import load_writer_events, run_writer
from support.logfail import ExpectLog
from support.real_model import CASSETTES, FIXTURES
from support.recorded_replies import Replay, cassette_replies, fixture_transcript, recorded

NOTES = "/memories/workspace/notes.md"
RECORDINGS = [
    "writer/qwen2.5-coder-1.5b.json",
    "writer/qwen2.5-coder-1.5b-run2.json",
    "writer/qwen2.5-coder-1.5b-run3.json",
    "writer/qwen2.5-coder-1.5b-run4.json",
    "writer/qwen2.5-coder-0.5b.json",
    "writer/qwen2.5-coder-0.5b-run2.json",
    "writer/qwen2.5-coder-0.5b-run3.json",
]
RUNS = [(name, transcript) for name in RECORDINGS for transcript in recorded(name)]
FAILING = {
    (
        "writer/qwen2.5-coder-0.5b.json",
        "simonw-claude-code-transcripts__tests__sample_session.jsonl",
    ),
    (
        "writer/qwen2.5-coder-0.5b-run2.json",
        "daaain-claude-code-log__test__test_data__representative_messages.jsonl",
    ),
    (
        "writer/qwen2.5-coder-0.5b-run2.json",
        "daaain-claude-code-log__test__test_data__codex__sessions__2026__01__02__rollout-2026-01-02T03-04-05-11111111-1111-4111-8111-111111111111.jsonl",
    ),
}
"""Runs whose model never wrote anything the rails let through nor declared nothing new
(the 0.5B copied its prompt and the tool's answers back as notes until its attempts were
spent)."""


def notes(home: Home, workspace: Workspace) -> str:
    store = MemoryStore(home, workspace)
    if not store.physical(parse_file_path(NOTES)).exists():
        return ""
    return store.read(parse_file_path(NOTES)).content


def check_run(
    home: Home, workspace: Workspace, events: NewestEvents, model: Replay, failing: bool
) -> None:
    """Run the writer on `events` with `model`'s replies: nothing the rails refuse
    reached the notes, each refused line is named in the result, no secret anywhere."""
    result = run_writer(home, workspace, events, model)
    # A run may fail once the recorded replies are spent (the model, answered otherwise
    # now, said something else next): what matters is what reached the notes.
    assert (result.outcome == "failed") == failing, result.error
    written = notes(home, workspace)
    assert redact_outgoing(written) == written
    lines = written.split("\n")
    assert WriterRails(events.budget.events).rails.refusals(written, range(len(lines))) == {}
    for line, _ in result.refused:
        assert line not in lines and redact_outgoing(line) == line


@pytest.mark.parametrize(("recording", "transcript"), RUNS)
def test_nothing_the_rails_refuse_is_written_and_each_refusal_is_named(
    home: Home, workspace: Workspace, recording: str, transcript: str, expect_log: ExpectLog
) -> None:
    failing = (recording, transcript) in FAILING
    if failing:
        expect_log("memtab.writer.job.run", "WARNING", r"Memory writer failed: the model ended")
    events = load_writer_events(fixture_transcript(transcript))
    check_run(home, workspace, events, Replay(recorded(recording)[transcript]), failing)


WRITER_CASSETTES = [
    path
    for path in sorted(CASSETTES.glob("*/*.json"))
    if json.loads(path.read_text(encoding="utf-8"))["kind"] == "writer"
]
CASSETTE_IDS = [f"{path.parent.name}-{path.stem}" for path in WRITER_CASSETTES]


@pytest.mark.parametrize("path", WRITER_CASSETTES, ids=CASSETTE_IDS)
def test_a_recorded_run_replayed_leniently_writes_nothing_the_rails_refuse(
    home: Home, workspace: Workspace, path: Path, expect_log: ExpectLog
) -> None:
    """Each run `scripts/real-model --record` kept, its replies given in order whatever
    today's rails answered them (`Replay`), then `no_new_memories`."""
    data = json.loads(path.read_text(encoding="utf-8"))
    failing = data["outcome"] == "failed"
    if failing:
        expect_log("memtab.writer.job.run", "WARNING", r"Memory writer failed: the model ended")
    events = load_writer_events(FIXTURES / data["fixture"])
    check_run(home, workspace, events, Replay(list(cassette_replies(path))), failing)


@pytest.mark.parametrize("path", WRITER_CASSETTES, ids=CASSETTE_IDS)
def test_what_a_recorded_run_wrote_holds_nothing_the_rails_refuse(path: Path) -> None:
    """The notes each run of `scripts/real-model --record` left (its cassette's `after`)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    events = load_writer_events(FIXTURES / data["fixture"])
    written = data["after"] or ""
    lines = written.split("\n")
    assert redact_outgoing(written) == written
    assert WriterRails(events.budget.events).rails.refusals(written, range(len(lines))) == {}
