"""The writer on what real local models answered (issue 82): Qwen2.5-Coder 1.5B and 0.5B
on llama-server, their replies recorded on the shared fixture transcripts and replayed.
Whatever they answer, nothing harmful reaches the notes: no secret, no copied
instruction, no invented rule or word of the user's, no command never run — each such
line named in the result — and what they got right is written."""

from __future__ import annotations

import pytest

from memtab.redact import redact_outgoing
from memtab.store.home import Home
from memtab.store.paths import parse_file_path
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.registry import Workspace
from memtab.writer.job.rails import WriterRails
from memtab.writer.job.run import load_writer_events, run_writer
from support.recorded_replies import Replay, fixture_transcript, recorded

NOTES = "/memories/workspace/notes.md"
RECORDINGS = [
    "writer-qwen2.5-coder-1.5b.json",
    "writer-qwen2.5-coder-1.5b-run2.json",
    "writer-qwen2.5-coder-0.5b.json",
]
RUNS = [(name, transcript) for name in RECORDINGS for transcript in recorded(name)]


def notes(home: Home, workspace: Workspace) -> str:
    store = MemoryStore(home, workspace)
    if not store.physical(parse_file_path(NOTES)).exists():
        return ""
    return store.read(parse_file_path(NOTES)).content


@pytest.mark.parametrize(("recording", "transcript"), RUNS)
def test_nothing_the_rails_refuse_is_written_and_each_refusal_is_named(
    home: Home, workspace: Workspace, recording: str, transcript: str
) -> None:
    events = load_writer_events(fixture_transcript(transcript))
    model = Replay(recorded(recording)[transcript])
    result = run_writer(home, workspace, events, model)
    # A run may fail once the recorded replies are spent (the model, answered otherwise
    # now, said something else next): what matters is what reached the notes.
    assert result.outcome in ("wrote", "no_new_memories"), result.error
    written = notes(home, workspace)
    assert redact_outgoing(written) == written
    lines = written.split("\n")
    assert WriterRails(events.budget.events).rails.refusals(written, range(len(lines))) == {}
    for line, _ in result.refused:
        assert line not in lines and redact_outgoing(line) == line
