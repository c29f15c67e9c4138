"""The monitor looks at appended messages one by one: however much was appended, it never
holds more than the completed turns it returns."""

from __future__ import annotations

import gc

import pytest

import memtab.writer.job.service as monitor_module
from memtab.store.home import Home
from memtab.transcripts.events import TranscriptEvent
from memtab.writer.job.service import TranscriptMonitor

from .helpers import WORKSPACE_ID, mux_message, write_chat


def _live_events() -> int:
    return sum(isinstance(thing, TranscriptEvent) for thing in gc.get_objects())


@pytest.mark.slow
def test_appended_messages_are_not_all_held_at_once(
    home: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = home.transcript_path(WORKSPACE_ID)
    write_chat(path, [mux_message("u0", "user", "start")])
    monitor = TranscriptMonitor(home)
    monitor.follow_from_end([WORKSPACE_ID])
    messages = [
        mux_message(f"m{n}", "assistant" if n % 20 == 0 else "user", f"message {n}", sequence=n)
        for n in range(1, 81)
    ]
    write_chat(path, messages, append=True)
    del messages

    live_while_reading: list[int] = []
    real_is_completed_turn = monitor_module.is_completed_turn

    def counting(event: TranscriptEvent) -> bool:
        live_while_reading.append(_live_events())
        return real_is_completed_turn(event)

    monkeypatch.setattr(monitor_module, "is_completed_turn", counting)
    before = _live_events()
    turns = monitor.new_turns(WORKSPACE_ID)

    assert [event.id for event in turns] == ["m20", "m40", "m60", "m80"]
    assert len(live_while_reading) == 80
    assert max(live_while_reading) - before <= len(turns) + 2
