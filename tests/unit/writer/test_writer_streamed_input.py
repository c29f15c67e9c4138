"""A run over a transcript read in bounded memory (`load_writer_events`, what `memtab write`
and the app use) sends the model exactly what a run over every event in memory sends."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from memtab.llm.types import (
    ChatProvider,
    Message,
    ModelReply,
    ProviderWrapper,
    ToolSpec,
    UserMessage,
)
from memtab.store.home import Home
from memtab.store.sidecars.registry import add_workspace, load_registry
from memtab.transcripts.budget import DEFAULT_MAX_JSON_CHARS
from memtab.transcripts.events import TranscriptEvent
from memtab.transcripts.reader import read_transcript
from memtab.transcripts.window import NewestEvents
from memtab.writer.config import OfflineNotes, WriterSettings
from memtab.writer.job.offline_provider import OfflineWriterProvider
from memtab.writer.job.providers import bind_to_run
from memtab.writer.job.run import (
    MANUAL_TRIGGER_ID,
    WriterRunResult,
    default_trigger_id,
    load_writer_events,
    run_writer,
    writer_events,
)

from .helpers import PROJECT, WORKSPACE_ID, mux_message, write_chat

_FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "shared"
_TRANSCRIPTS = sorted(_FIXTURES.glob("*/*.jsonl"))


class FirstRequest(ProviderWrapper):
    """A provider that keeps the first message of the first request it is sent."""

    def __init__(self, provider: ChatProvider) -> None:
        super().__init__(provider)
        self.first: str | None = None

    def complete(
        self,
        system: str,
        messages: list[Message],
        tools: list[ToolSpec],
        *,
        cancel: threading.Event | None = None,
    ) -> ModelReply:
        if self.first is None and isinstance(messages[0], UserMessage):
            self.first = messages[0].text
        return self.provider.complete(system, messages, tools, cancel=cancel)


def _run(
    root: Path,
    events: list[TranscriptEvent] | NewestEvents,
    max_json_chars: int,
    notes: OfflineNotes = OfflineNotes.WRITE,
) -> tuple[WriterRunResult, FirstRequest]:
    """A run of the offline writer, given as data the events a model is shown (or, for
    a list, every event, as before streaming)."""
    home = Home(root)
    add_workspace(home, PROJECT, "main", workspace_id=WORKSPACE_ID)
    workspace = load_registry(home).require_workspace(WORKSPACE_ID)
    settings = WriterSettings(offline_notes=notes)
    if not isinstance(events, NewestEvents):
        events = NewestEvents.of(writer_events(events), max_json_chars, redact=True)
    provider = FirstRequest(
        bind_to_run(OfflineWriterProvider(), home, workspace, events.budget, settings)
    )
    result = run_writer(
        home, workspace, events, provider, settings=settings, max_json_chars=max_json_chars
    )
    return result, provider


@pytest.mark.parametrize("path", _TRANSCRIPTS, ids=lambda path: path.name[:60])
@pytest.mark.parametrize("max_json_chars", [1_500, DEFAULT_MAX_JSON_CHARS])
def test_a_streamed_read_sends_what_a_whole_read_sends(
    path: Path, max_json_chars: int, tmp_path: Path
) -> None:
    whole, whole_model = _run(tmp_path / "a", read_transcript(path).events, max_json_chars)
    streamed, streamed_model = _run(
        tmp_path / "b", load_writer_events(path, max_json_chars=max_json_chars), max_json_chars
    )

    assert streamed_model.first is not None and streamed_model.first == whole_model.first
    assert streamed.trigger_message_id == whole.trigger_message_id
    assert (streamed.outcome, streamed.after) == (whole.outcome, whole.after)


def test_events_selected_for_another_run_are_refused(tmp_path: Path) -> None:
    unredacted = NewestEvents.of([], 80_000, redact=False)
    with pytest.raises(ValueError, match="unredacted"):
        _run(tmp_path / "a", unredacted, 80_000)
    resized = NewestEvents.of([], 40_000, redact=True)
    with pytest.raises(ValueError, match="resized"):
        _run(tmp_path / "b", resized, 80_000)


def test_a_run_is_filed_under_the_newest_completed_turn_even_beyond_the_budget(
    tmp_path: Path,
) -> None:
    path = tmp_path / "chat.jsonl"
    messages = [
        mux_message("u0", "user", "please fix the build", sequence=0),
        mux_message("a1", "assistant", "Fixed.", sequence=1),
        mux_message("a2", "assistant", sequence=2),  # aborted: not a completed turn
        *(mux_message(f"u{n}", "user", "more " * 200, sequence=n) for n in range(3, 40)),
    ]
    write_chat(path, messages)

    newest = load_writer_events(path, "mux", max_json_chars=5_000)
    assert newest.budget.events[0].id != "a1"  # far older than what is sent
    assert default_trigger_id(newest) == "a1"
    assert (
        default_trigger_id(
            NewestEvents.of(writer_events(read_transcript(path).events), redact=True)
        )
        == "a1"
    )

    write_chat(path, messages[2:])
    assert default_trigger_id(load_writer_events(path, "mux")) == "u39"  # no turn: newest
    write_chat(path, [])
    assert default_trigger_id(load_writer_events(path, "mux")) == MANUAL_TRIGGER_ID
