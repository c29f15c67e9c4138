"""`memtab watch` tells of a mass change at once (docs/formats.md §14.5): a consolidation
that prunes most of Claude Code's auto memory is a desktop notification — the
freedesktop notification spec's `Notify` on the session D-Bus — and a warning in the
log, once; an agent's ordinary note is neither."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from memtab.sources.claude.settings import CONSOLIDATE_LOCK
from memtab.watch.recorder import SUMMARY, desktop_notify
from unit.watch.helpers import (
    change_in_another_process,
    machine_with_notes,
    running_recorder,
    wait_for,
)

TOPICS = 24


@pytest.mark.expect_log("memtab.watch.recorder", "WARNING", "Mass change: Claude Code removed 20")
def test_a_consolidation_pruning_most_of_a_memory_is_told_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    machine, store = machine_with_notes(tmp_path, monkeypatch)
    memory = machine.claude_memory
    for index in range(TOPICS):
        (memory / f"topic_{index:02d}.md").write_text(f"# Topic {index}\n", "utf-8")
    told: list[tuple[str, str]] = []

    def notify(summary: str, body: str) -> bool:
        told.append((summary, body))
        return True

    with running_recorder(machine.home, notify=notify) as recorder:
        # An agent's ordinary note: recorded, not told of.
        change_in_another_process(rewrite={memory / "topic_00.md": "# Topic 0\n\n- more\n"})
        wait_for(lambda: recorder.passes >= 1, "the note is recorded")
        (memory / CONSOLIDATE_LOCK).write_text(str(os.getpid()), "utf-8")
        topics = sorted(memory.glob("topic_*.md"))[:20]
        change_in_another_process(delete=topics)
        wait_for(lambda: bool(told), "the mass change is told")
        passes = recorder.passes
        change_in_another_process(rewrite={store.root(store.scopes()[0]) / "x.md": "- x\n"})
        wait_for(lambda: recorder.passes > passes, "another pass")
    ((summary, body),) = told  # once
    assert summary == SUMMARY
    assert re.match(r"Claude Code removed 20 of (\d+) files at ", body), body
    assert "memtab restore --event " in body


@pytest.fixture
def session_bus(tmp_path: Path) -> Iterator[str]:
    """A private session bus (dbus-daemon), its address."""
    if shutil.which("dbus-daemon") is None:
        pytest.skip("dbus-daemon is not installed")
    daemon = subprocess.Popen(
        ["dbus-daemon", "--session", "--nofork", "--print-address=1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,  # "Failed to set fd limit" as root in a container
        text=True,
        cwd=tmp_path,
    )
    assert daemon.stdout is not None
    address = daemon.stdout.readline().strip()
    try:
        yield address
    finally:
        daemon.terminate()
        daemon.wait(10)
        daemon.stdout.close()


def _notification_server(
    address: str, got: list[tuple[object, ...]], ready: threading.Event
) -> None:
    """Answer one `Notify` as a desktop's notification server does (id 7)."""
    from jeepney import HeaderFields, MessageType, new_method_return
    from jeepney.bus_messages import message_bus
    from jeepney.io.blocking import open_dbus_connection

    with open_dbus_connection(bus=address) as connection:
        connection.send_and_get_reply(message_bus.RequestName("org.freedesktop.Notifications"))
        ready.set()
        while True:
            message = connection.receive(timeout=10)
            header = message.header
            if header.message_type != MessageType.method_call:
                continue
            if header.fields.get(HeaderFields.member) == "Notify":
                got.append(message.body)
                connection.send(new_method_return(message, "u", (7,)))
                return


def test_the_notification_goes_over_the_session_bus(
    session_bus: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    got: list[tuple[object, ...]] = []
    ready = threading.Event()
    server = threading.Thread(target=_notification_server, args=(session_bus, got, ready))
    server.start()
    assert ready.wait(10)
    monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", session_bus)
    assert desktop_notify(SUMMARY, "xum removed 400 and rewrote 345 of 931 files at 14:02")
    server.join(10)
    ((app, replaces, icon, summary, body, actions, hints, expire),) = got
    assert (app, replaces, icon, summary, actions, hints, expire) == (
        "Memtab",
        0,
        "",
        SUMMARY,
        [],
        {},
        0,
    )
    assert body == "xum removed 400 and rewrote 345 of 931 files at 14:02"


def test_without_a_session_bus_there_is_only_the_log(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DBUS_SESSION_BUS_ADDRESS", raising=False)
    assert not desktop_notify(SUMMARY, "body")
