"""Every path a transcript's secrets could take out of a writer run is redacted
(docs/formats.md §12.2): the request to the model, the notes written to memory (offline writer and
model), the trace dump and the log. The secrets are the realistic leaks of the redaction table
test."""

from __future__ import annotations

import json
import logging
import threading
from pathlib import Path

import pytest

from memtab.llm.types import ChatProvider, Message, ModelReply, ProviderWrapper, ToolSpec
from memtab.redact import REDACTED
from memtab.store.home import Home
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.registry import Workspace
from memtab.transcripts.reader import read_transcript
from memtab.transcripts.window import NewestEvents
from memtab.trust.rails import HOLDS_A_SECRET
from memtab.writer.config import DEFAULT_MEMORY_PATH, OfflineNotes, WriterSettings
from memtab.writer.inbox.suggestions import SuggestionQueue
from memtab.writer.job.dumps import dump_message
from memtab.writer.job.offline_provider import OfflineWriterProvider
from memtab.writer.job.providers import bind_to_run
from memtab.writer.job.run import load_writer_events, run_writer, writer_events
from support.leaks import LEAKS
from support.memory_paths import vpath
from support.writer_models import WritingModel

from .helpers import bash_part, mux_message, write_chat

SECRETS = [secret for _, secret, _ in LEAKS.values()]
PASTED = "\n".join(before + secret + after for before, secret, after in LEAKS.values())
PG_URL = "postgres://app:Sup3r-s3cret.pw@db.internal:5432/app"
PAT = next(secret for name, (_, secret, _) in LEAKS.items() if "fine-grained" in name)


class Recording(ProviderWrapper):
    """A ChatProvider wrapper that keeps every request's system prompt and messages."""

    def __init__(self, provider: ChatProvider) -> None:
        super().__init__(provider)
        self.requests: list[str] = []

    def complete(
        self,
        system: str,
        messages: list[Message],
        tools: list[ToolSpec],
        *,
        cancel: threading.Event | None = None,
    ) -> ModelReply:
        self.requests.append(system + json.dumps([dump_message(m).to_json() for m in messages]))
        return super().complete(system, messages, tools, cancel=cancel)


def _leaked(text: str) -> list[str]:
    return [secret for secret in SECRETS if secret in text]


@pytest.fixture
def transcript(home: Home, workspace: Workspace) -> Path:
    """A session whose directive, working command, failure and outputs carry secrets."""
    path = home.transcript_path(workspace.id)
    write_chat(
        path,
        [
            mux_message(
                "u1",
                "user",
                f"From now on, always run the migrations with DATABASE_URL={PG_URL} set.\n\n"
                f"Here is my environment:\n{PASTED}",
                sequence=0,
            ),
            mux_message(
                "a1",
                "assistant",
                "Running the tests.",
                sequence=1,
                tools=[
                    bash_part(
                        "c1", f"GH_TOKEN={PAT} make test", ok=False, output=f"FAILED\n{PASTED}"
                    ),
                    bash_part("c2", f"GH_TOKEN={PAT} make test", ok=True, output="12 passed"),
                    bash_part("c3", "env", ok=True, output=PASTED),
                ],
            ),
        ],
    )
    return path


def test_the_offline_writer_request_notes_dump_and_log_hold_no_secret(
    home: Home,
    workspace: Workspace,
    transcript: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    events = writer_events(read_transcript(transcript).events)
    assert all(_leaked(json.dumps([event.to_json() for event in events]))), "secrets are there"
    settings = WriterSettings(dump_successful_runs=True, offline_notes=OfflineNotes.WRITE)
    newest = NewestEvents.of(events, redact=True)
    provider = Recording(
        bind_to_run(OfflineWriterProvider(), home, workspace, newest.budget, settings)
    )

    result = run_writer(home, workspace, newest, provider, settings=settings)

    assert result.outcome == "wrote"
    # The request: every message the model was sent.
    assert provider.requests and not _leaked("\n".join(provider.requests))
    # The notes: the directive and the command were written, with the secrets replaced.
    notes = MemoryStore(home, workspace).read(vpath(DEFAULT_MEMORY_PATH)).content
    assert "DATABASE_URL=postgres://app:" + REDACTED + "@db.internal" in notes
    assert f"GH_TOKEN={REDACTED} make test" in notes
    assert not _leaked(notes)
    # The dump.
    assert result.trace_path is not None
    dump = result.trace_path.read_text(encoding="utf-8")
    assert REDACTED in dump and not _leaked(dump)
    # The log.
    assert not _leaked("\n".join(record.getMessage() for record in caplog.records))


def test_a_model_that_writes_secrets_into_memory_has_each_line_refused_and_named(
    home: Home, workspace: Workspace, transcript: Path
) -> None:
    echoing = WritingModel(f"# Notes\n\n{PASTED}\n")  # every leak, into the file
    result = run_writer(home, workspace, read_transcript(transcript).events, echoing)

    assert result.outcome == "wrote"
    notes = MemoryStore(home, workspace).read(vpath(DEFAULT_MEMORY_PATH)).content
    assert not _leaked(notes) and REDACTED not in notes  # refused, not written redacted
    named = "\n".join(line for line, _ in result.refused)
    # each refused line named once (two leaks redact to the same line)
    assert named.count(REDACTED) >= len(LEAKS) - 3 and not _leaked(named)
    assert HOLDS_A_SECRET in {why for _, why in result.refused}  # some lines are copied output too
    assert not _leaked(result.summary())


def test_suggested_memories_hold_no_secret(
    home: Home, workspace: Workspace, transcript: Path
) -> None:
    events = load_writer_events(transcript)
    provider = bind_to_run(
        OfflineWriterProvider(), home, workspace, events.budget, WriterSettings()
    )
    assert run_writer(home, workspace, events, provider).outcome == "suggested"
    queue = SuggestionQueue(home, workspace.id)
    assert queue.pending() and not _leaked(queue.path.read_text(encoding="utf-8"))
