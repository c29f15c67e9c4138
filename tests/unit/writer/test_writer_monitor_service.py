"""Following transcripts and the service the app runs: what counts as a new turn, which
workspaces are eligible, and leaving a workspace to mux when mux runs its own writer."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from memtab.fs.atomic import atomic_write_json
from memtab.llm.types import ChatProvider, ProviderError
from memtab.store.home import Home
from memtab.store.sidecars.registry import (
    Workspace,
    add_workspace,
    load_registry,
    read_registry_document,
)
from memtab.writer.config import OfflineNotes, WriterMode, WriterSettings
from memtab.writer.inbox.suggestions import SuggestionQueue
from memtab.writer.job.offline_provider import OfflineWriterProvider
from memtab.writer.job.policy import RunTicket, load_state, save_state
from memtab.writer.job.service import (
    TranscriptMonitor,
    WriterService,
    WriterServiceError,
    end_of_last_line,
)
from memtab.writer.records import WriterState

from .helpers import PROJECT, WORKSPACE_ID, bash_part, conversation, mux_message, write_chat


def chat(home: Home, workspace_id: str = WORKSPACE_ID) -> Path:
    return home.transcript_path(workspace_id)


def assistant(message_id: str, sequence: int, **kwargs: object) -> dict[str, object]:
    return mux_message(message_id, "assistant", f"done {message_id}", sequence=sequence, **kwargs)  # type: ignore[arg-type]


# --- the monitor -------------------------------------------------------------------------


def test_history_present_when_following_starts_is_not_new(home: Home) -> None:
    write_chat(chat(home), conversation(3))
    monitor = TranscriptMonitor(home)
    monitor.follow_from_end([WORKSPACE_ID])
    assert monitor.new_turns(WORKSPACE_ID) == []
    write_chat(chat(home), [mux_message("u9", "user", "more"), assistant("a9", 9)], append=True)
    assert [event.id for event in monitor.new_turns(WORKSPACE_ID)] == ["a9"]
    assert monitor.new_turns(WORKSPACE_ID) == []


def test_only_completed_assistant_messages_count(home: Home) -> None:
    monitor = TranscriptMonitor(home)
    monitor.follow_from_end([WORKSPACE_ID])  # no transcript yet: everything will be new
    aborted = mux_message("a2", "assistant", sequence=2)  # no parts: aborted stream
    failed = assistant("a3", 3)
    failed["metadata"]["error"] = "stream failed"  # type: ignore[index]
    write_chat(chat(home), [mux_message("u1", "user", "hi"), assistant("a1", 1), aborted, failed])
    assert [event.id for event in monitor.new_turns(WORKSPACE_ID)] == ["a1"]


def test_a_partly_written_last_line_waits_for_its_newline(home: Home) -> None:
    write_chat(chat(home), conversation(1))
    with chat(home).open("a") as handle:
        handle.write('{"id": "a5", "role": "assis')
    assert end_of_last_line(chat(home)) < chat(home).stat().st_size
    monitor = TranscriptMonitor(home)
    monitor.follow_from_end([WORKSPACE_ID])
    assert monitor.new_turns(WORKSPACE_ID) == []
    # Finish the line: the message was appended after following began, so it counts.
    with chat(home).open("a") as handle:
        handle.write(
            'tant", "metadata": {"timestamp": 1}, "parts": [{"type": "text", "text": "x"}]}\n'
        )
    assert [event.id for event in monitor.new_turns(WORKSPACE_ID)] == ["a5"]


def test_a_rewritten_transcript_does_not_replay_its_history(home: Home) -> None:
    old = conversation(3)  # timestamps of 2023, older than the file
    write_chat(chat(home), old)
    monitor = TranscriptMonitor(home)
    monitor.follow_from_end([WORKSPACE_ID])
    assert monitor.new_turns(WORKSPACE_ID) == []
    # mux rewrites the file (compaction): same history, new inode, one new message.
    replacement = chat(home).with_name("chat.jsonl.new")
    write_chat(replacement, [*old, assistant("a-new", 99, timestamp=2_000_000_000_000)])
    os.replace(replacement, chat(home))
    assert [event.id for event in monitor.new_turns(WORKSPACE_ID)] == ["a-new"]


def test_a_workspace_appearing_later_is_read_from_its_start(home: Home) -> None:
    monitor = TranscriptMonitor(home)
    monitor.follow_from_end([])
    write_chat(chat(home, "newws"), conversation(2))
    assert len(monitor.new_turns("newws")) == 2


# --- the service -------------------------------------------------------------------------


class Settings:
    """A settings loader the test can change."""

    def __init__(self) -> None:
        self.value = WriterSettings()

    def __call__(self) -> WriterSettings:
        return self.value


@pytest.fixture
def settings() -> Settings:
    return Settings()


@pytest.fixture
def service(home: Home, workspace: Workspace, settings: Settings) -> WriterService:
    write_chat(chat(home), conversation(5))  # history: never counted
    made = WriterService(
        home,
        settings_loader=settings,
        provider_factory=lambda: (OfflineWriterProvider(), ()),
    )
    made.prime()
    return made


def append_turns(home: Home, start: int, count: int, workspace_id: str = WORKSPACE_ID) -> None:
    messages = []
    for turn in range(start, start + count):
        messages.append(mux_message(f"nu{turn}", "user", "go on", sequence=100 + 2 * turn))
        messages.append(assistant(f"na{turn}", 101 + 2 * turn))
    write_chat(chat(home, workspace_id), messages, append=True)


def test_poll_starts_a_run_every_interval(home: Home, service: WriterService) -> None:
    append_turns(home, 0, 1)
    assert service.poll([WORKSPACE_ID]).tickets == []
    append_turns(home, 1, 1)
    [ticket] = service.poll([WORKSPACE_ID]).tickets
    assert ticket.workspace_id == WORKSPACE_ID and ticket.message_id == "na1"


def test_a_run_suggests_memories_and_completes_the_ticket(
    home: Home, service: WriterService
) -> None:
    write_chat(
        chat(home),
        [
            mux_message("d1", "user", "Remember that CI runs on Python 3.11.", sequence=200),
            assistant("d2", 201, tools=[bash_part("c", "make test", ok=True, output="ok")]),
            mux_message("d3", "user", "thanks", sequence=202),
            assistant("d4", 203),
        ],
        append=True,
    )
    [ticket] = service.poll().tickets
    result = service.run(ticket, threading.Event())
    # With no model the writer proposes: the notes wait in the review queue.
    assert result.outcome == "suggested" and result.suggested_count == 2
    assert not (home.workspace_root(WORKSPACE_ID) / "notes.md").exists()
    suggested = [s.text for s in SuggestionQueue(home, WORKSPACE_ID).pending()]
    assert suggested == ["CI runs on Python 3.11.", "`make test` (tests)"]
    state = load_state(home.writer_state_path(WORKSPACE_ID))
    assert state.last_run_completed_at is not None and not state.has_incomplete_run
    assert not service.scheduler.is_in_flight(WORKSPACE_ID)


def test_offline_notes_are_written_directly_when_set_so(
    home: Home, service: WriterService, settings: Settings
) -> None:
    settings.value = WriterSettings(offline_notes=OfflineNotes.WRITE)
    write_chat(
        chat(home),
        [
            mux_message("d1", "user", "Remember that CI runs on Python 3.11.", sequence=200),
            assistant("d2", 201, tools=[bash_part("c", "make test", ok=True, output="ok")]),
            mux_message("d3", "user", "thanks", sequence=202),
            assistant("d4", 203),
        ],
        append=True,
    )
    [ticket] = service.poll().tickets
    result = service.run(ticket, threading.Event())
    assert result.outcome == "wrote"
    notes = (home.workspace_root(WORKSPACE_ID) / "notes.md").read_text()
    assert "- CI runs on Python 3.11." in notes and "- `make test` (tests)" in notes
    assert SuggestionQueue(home, WORKSPACE_ID).pending() == []


def test_a_run_that_cannot_start_still_ends_its_ticket(home: Home, workspace: Workspace) -> None:
    def no_key() -> tuple[ChatProvider, tuple[str, ...]]:
        raise ProviderError("config", "anthropic: no API key")

    service = WriterService(home, provider_factory=no_key)
    ticket = service.scheduler.on_completed_turn(WORKSPACE_ID, "m1", 1)
    assert ticket is not None
    with pytest.raises(WriterServiceError, match="no API key"):
        service.run(ticket)
    assert not load_state(home.writer_state_path(WORKSPACE_ID)).has_incomplete_run
    with pytest.raises(WriterServiceError, match="Unknown workspace"):
        service.run(RunTicket("nope", "m", 1))


def set_workspace_fields(home: Home, **fields: str) -> None:
    document = read_registry_document(home)
    document["projects"][0][1]["workspaces"][0].update(fields)
    atomic_write_json(home.config_path, document)


@pytest.mark.parametrize(
    "fields",
    [{"archivedAt": "2026-01-01T00:00:00.000Z"}, {"parentWorkspaceId": "ffffffffff"}],
)
def test_archived_and_child_workspaces_are_skipped(
    home: Home, service: WriterService, fields: dict[str, str]
) -> None:
    set_workspace_fields(home, **fields)
    append_turns(home, 0, 4)
    assert service.poll().tickets == []
    assert load_state(home.writer_state_path(WORKSPACE_ID)) == WriterState()


def test_unregistered_workspaces_are_skipped(home: Home, service: WriterService) -> None:
    append_turns(home, 0, 4, workspace_id="stranger")
    assert service.poll(["stranger"]).tickets == []


def test_the_registry_interval_applies(home: Home, service: WriterService) -> None:
    document = read_registry_document(home)
    document["taskSettings"] = {"memoryWriterIntervalMessages": 3}
    atomic_write_json(home.config_path, document)
    append_turns(home, 0, 2)
    assert service.poll().tickets == []
    append_turns(home, 2, 1)
    assert len(service.poll().tickets) == 1


def test_paused_polls_consume_without_counting(home: Home, service: WriterService) -> None:
    append_turns(home, 0, 4)
    assert service.poll(paused=True).tickets == []
    append_turns(home, 4, 1)
    assert service.poll().tickets == []  # the paused turns were not replayed
    append_turns(home, 5, 1)
    assert len(service.poll().tickets) == 1


def test_off_mode_never_counts(home: Home, service: WriterService, settings: Settings) -> None:
    settings.value = WriterSettings(mode=WriterMode.OFF)
    append_turns(home, 0, 4)
    assert service.poll().tickets == []
    assert not home.writer_state_path(WORKSPACE_ID).exists()


def test_a_workspace_whose_state_mux_advances_is_left_to_mux(
    home: Home, service: WriterService
) -> None:
    append_turns(home, 0, 1)
    service.poll()
    assert service.check_state_changes([WORKSPACE_ID]) == []  # our own write
    save_state(home.writer_state_path(WORKSPACE_ID), WriterState(turns_since_last_run=7))
    assert service.check_state_changes([WORKSPACE_ID]) == [WORKSPACE_ID]
    assert service.check_state_changes([WORKSPACE_ID]) == []  # reported once
    append_turns(home, 1, 4)
    assert service.poll().tickets == []
    assert load_state(home.writer_state_path(WORKSPACE_ID)).turns_since_last_run == 7


def test_always_mode_keeps_writing_beside_mux(
    home: Home, service: WriterService, settings: Settings
) -> None:
    settings.value = WriterSettings(mode=WriterMode.ALWAYS)
    save_state(home.writer_state_path(WORKSPACE_ID), WriterState(turns_since_last_run=1))
    assert service.check_state_changes([WORKSPACE_ID]) == []
    append_turns(home, 0, 1)
    assert len(service.poll().tickets) == 1


def test_prime_follows_registered_and_on_disk_workspaces(home: Home) -> None:
    add_workspace(home, PROJECT, "second", workspace_id="b2b2b2b2b2")
    write_chat(chat(home, "b2b2b2b2b2"), conversation(2))
    write_chat(chat(home, "ondiskonly"), conversation(2))
    service = WriterService(home)
    service.prime()
    assert load_registry(home).workspace("ondiskonly") is None
    add_workspace(home, PROJECT, "later", workspace_id="ondiskonly")  # mux registers it
    for workspace_id in ("b2b2b2b2b2", "ondiskonly"):
        append_turns(home, 0, 2, workspace_id)
    # Both followed from where their transcripts ended at the start: only the new turns count.
    started = {(t.workspace_id, t.message_id) for t in service.poll().tickets}
    assert started == {("b2b2b2b2b2", "na1"), ("ondiskonly", "na1")}
