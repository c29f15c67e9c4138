"""WriterSupervisor with a real HomeWatcher on a temp home: turns counted from chat.jsonl
appends, runs at the interval off the GUI thread, status signals, failures, pause, mux."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from memtab.components.window.settings_news import SettingsChange, SettingsSection
from memtab.components.writer.supervision import WriterActivity, WriterStatus
from memtab.fs.atomic import atomic_write_json
from memtab.gui.activity.watch import HomeWatcher
from memtab.gui.context import ChangeFeed, SettingsFeed
from memtab.gui.tasks.jobs import JobService
from memtab.gui.writer.feedback import WriterSupervisor
from memtab.llm.anthropic import AnthropicProvider
from memtab.llm.http import HttpOptions
from memtab.llm.types import ChatProvider
from memtab.store.home import Home
from memtab.store.sidecars.registry import add_workspace, read_registry_document
from memtab.writer.config import OfflineNotes, WriterSettings, save_writer_settings
from memtab.writer.job.offline_provider import OfflineWriterProvider
from memtab.writer.job.policy import load_state, save_state
from memtab.writer.job.service import WriterProviderFactory, WriterService
from memtab.writer.records import WriterState
from support.fake_model_server import FakeModelServer
from support.gui_thread_io import GuiThreadIo
from support.processes import python_child

WS = "a1b2c3d4e5"
WAIT_MS = 10_000
KEY = "sk-ant-gui-SECRET-0123456789abcdefghij"


class Recorder:
    """Every status the supervisor reports, and every run it starts."""

    def __init__(self, supervisor: WriterSupervisor) -> None:
        self.statuses: list[WriterStatus] = []
        self.started: list[str] = []
        supervisor.status_changed.connect(self.on_status_changed)
        supervisor.run_started.connect(self.on_run_started)

    def on_status_changed(self, status: WriterStatus) -> None:
        self.statuses.append(status)

    def on_run_started(self, workspace_id: str) -> None:
        self.started.append(workspace_id)

    @property
    def activities(self) -> list[str]:
        return [status.activity.value for status in self.statuses]


def message(message_id: str, role: str, text: str) -> dict[str, Any]:
    return {
        "id": message_id,
        "role": role,
        "metadata": {"timestamp": 1_800_000_000_000, "historySequence": 0},
        "parts": [{"type": "text", "text": text}],
        "workspaceId": WS,
    }


def append_turn(home: Home, turn: str, user_text: str = "go on", workspace: str = WS) -> None:
    with home.transcript_path(workspace).open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(message(f"u-{turn}", "user", user_text)) + "\n")
        handle.write(json.dumps(message(f"a-{turn}", "assistant", f"done {turn}")) + "\n")


def set_interval(home: Home, interval: int) -> None:
    document = read_registry_document(home)
    document["taskSettings"] = {"memoryWriterIntervalMessages": interval}
    atomic_write_json(home.config_path, document)


@pytest.fixture
def home(tmp_path: Path) -> Home:
    home = Home(tmp_path / "home")
    add_workspace(home, "/src/acme", "main", workspace_id=WS)
    history = [
        message("h-u", "user", "Remember that history does not count."),
        message("h-a", "assistant", "ok"),
    ]
    home.transcript_path(WS).parent.mkdir(parents=True)
    home.transcript_path(WS).write_text("".join(json.dumps(m) + "\n" for m in history))
    # These tests read what the writer wrote: the offline writer writes its notes directly
    # (by default it suggests them for review; see test_writer_supervisor_e2e).
    save_writer_settings(WriterSettings(offline_notes=OfflineNotes.WRITE))
    return home


def offline() -> tuple[ChatProvider, tuple[str, ...]]:
    return OfflineWriterProvider(), ()


@pytest.fixture
def make_supervisor(qtbot: QtBot, home: Home, jobs: JobService) -> Iterator[Any]:
    made: list[tuple[WriterSupervisor, HomeWatcher, ChangeFeed]] = []

    def make(factory: WriterProviderFactory = offline) -> WriterSupervisor:
        watcher = HomeWatcher(debounce_ms=50, max_latency_ms=300)
        supervisor = WriterSupervisor(
            home, jobs, service=WriterService(home, provider_factory=factory)
        )
        changes = ChangeFeed(home)
        watcher.paths_changed.connect(changes.publish)
        supervisor.attach(changes)
        made.append((supervisor, watcher, changes))
        watcher.start(home.root)
        with qtbot.waitSignal(supervisor.monitoring_started, timeout=WAIT_MS):
            supervisor.start()
        return supervisor

    yield make
    for supervisor, watcher, _changes in made:
        watcher.stop()
        supervisor.shutdown()


def notes(home: Home) -> Path:
    return home.workspace_root(WS) / "notes.md"


def test_runs_at_the_interval_and_reports_running_then_idle(
    qtbot: QtBot, home: Home, make_supervisor: Any
) -> None:
    supervisor: WriterSupervisor = make_supervisor()
    recorder = Recorder(supervisor)

    with qtbot.waitSignal(supervisor.transcripts_checked, timeout=WAIT_MS):
        append_turn(home, "1", "Remember that the API listens on port 8080.")
    assert recorder.started == []
    assert load_state(home.writer_state_path(WS)).turns_since_last_run == 1

    with qtbot.waitSignal(supervisor.run_finished, timeout=WAIT_MS) as finished:
        append_turn(home, "2")
    result = finished.args[0]
    assert result.outcome == "wrote" and result.trigger_message_id == "a-2"
    text = notes(home).read_text(encoding="utf-8")
    assert "- The API listens on port 8080." in text
    assert "history does not count" not in text  # history before start is not re-read
    assert recorder.started == [WS]
    assert recorder.activities == ["running", "idle"]
    assert recorder.statuses[0].workspace_name == "main"
    assert supervisor.status.message.startswith("Updated /memories/workspace/notes.md")
    state = load_state(home.writer_state_path(WS))
    assert state.last_run_message_id == "a-2" and not state.has_incomplete_run


@pytest.mark.expect_log("memtab.writer.job.run", "WARNING", r"Memory writer failed: .*HTTP 400")
@pytest.mark.expect_log("memtab.llm.loop", "WARNING", r"stopped at step 1: .*HTTP 400")
def test_a_failing_provider_reports_failed_with_the_trace(
    qtbot: QtBot, home: Home, make_supervisor: Any, fake_model_server: FakeModelServer
) -> None:
    set_interval(home, 1)
    fake_model_server.add_error(400, {"error": {"message": "model not allowed"}})
    options = HttpOptions(timeout_s=5.0, max_retries=0)

    def failing() -> tuple[ChatProvider, tuple[str, ...]]:
        url = fake_model_server.anthropic_base_url
        return AnthropicProvider("claude-test", KEY, url, options=options), (KEY,)

    supervisor: WriterSupervisor = make_supervisor(failing)
    recorder = Recorder(supervisor)
    with qtbot.waitSignal(supervisor.run_failed, timeout=WAIT_MS) as failed:
        append_turn(home, "1")
    workspace_id, error, trace = failed.args
    assert workspace_id == WS and "400" in error
    assert isinstance(trace, Path) and trace.is_file() and trace.parent == home.trace_dir(WS)
    assert KEY not in trace.read_text(encoding="utf-8")
    assert recorder.activities == ["running", "failed"]
    assert supervisor.status.activity is WriterActivity.FAILED
    assert supervisor.status.trace_path == trace
    assert not notes(home).exists()


def test_pause_stops_runs_until_resumed(qtbot: QtBot, home: Home, make_supervisor: Any) -> None:
    supervisor: WriterSupervisor = make_supervisor()
    recorder = Recorder(supervisor)
    supervisor.set_paused(True)
    assert supervisor.paused and recorder.statuses[-1].paused

    for turn in ("1", "2", "3"):
        with qtbot.waitSignal(supervisor.transcripts_checked, timeout=WAIT_MS):
            append_turn(home, turn, "Remember that paused turns are not counted.")
    assert recorder.started == []
    assert not home.writer_state_path(WS).exists()

    supervisor.set_paused(False)
    with qtbot.waitSignal(supervisor.transcripts_checked, timeout=WAIT_MS):
        append_turn(home, "4", "Always write the changelog entry.")
    assert recorder.started == []  # turn 1 after resuming: below the interval
    with qtbot.waitSignal(supervisor.run_finished, timeout=WAIT_MS):
        append_turn(home, "5")
    assert recorder.started == [WS]
    text = notes(home).read_text(encoding="utf-8")
    assert "- Always write the changelog entry." in text
    assert "paused turns" not in text


def test_a_workspace_whose_state_mux_advances_is_left_to_mux(
    qtbot: QtBot, home: Home, make_supervisor: Any
) -> None:
    supervisor: WriterSupervisor = make_supervisor()
    recorder = Recorder(supervisor)
    with qtbot.waitSignal(supervisor.external_writer_detected, timeout=WAIT_MS) as detected:
        save_state(home.writer_state_path(WS), WriterState(turns_since_last_run=1))
    assert detected.args == [WS]
    for turn in ("1", "2"):
        with qtbot.waitSignal(supervisor.transcripts_checked, timeout=WAIT_MS):
            append_turn(home, turn)
    assert recorder.started == []
    assert load_state(home.writer_state_path(WS)) == WriterState(turns_since_last_run=1)


HOLDER = r"""
import sys
from memtab.store.home import Home
from memtab.writer.job.service import WriterLock
lock = WriterLock(Home(sys.argv[1]))
print("held" if lock.acquire() else "busy", flush=True)
sys.stdin.read()
"""


def test_a_second_memtab_stands_by_and_takes_over_when_the_first_exits(
    qtbot: QtBot, home: Home, jobs: JobService
) -> None:
    watcher = HomeWatcher(debounce_ms=50, max_latency_ms=300)
    service = WriterService(home, provider_factory=offline)
    supervisor = WriterSupervisor(home, jobs, service=service)
    changes = ChangeFeed(home)
    watcher.paths_changed.connect(changes.publish)
    supervisor.attach(changes)
    watcher.start(home.root)
    try:
        with python_child(HOLDER, str(home.root)) as other:
            supervisor.start()
            qtbot.waitUntil(lambda: supervisor.status.standby, timeout=WAIT_MS)
            append_turn(home, "1")  # handled by the other process, not this one
            assert other.stdin is not None
            other.stdin.close()
            assert other.wait(timeout=10) == 0
            with qtbot.waitSignal(supervisor.monitoring_started, timeout=WAIT_MS):
                append_turn(home, "2")  # the next change: the lock is free, take over
            assert not supervisor.status.standby
            with qtbot.waitSignal(supervisor.run_finished, timeout=WAIT_MS):
                append_turn(home, "3")
                append_turn(home, "4")
    finally:
        watcher.stop()
        supervisor.shutdown()


def test_the_writer_lock_is_taken_off_the_gui_thread(
    qtbot: QtBot, home: Home, gui_thread_io: GuiThreadIo, jobs: JobService
) -> None:
    """Starting the writer takes a cross-process lock (a file, created and flocked, its
    holder written down): on a slow or network disk that must not freeze the window."""
    supervisor = WriterSupervisor(home, jobs, service=WriterService(home, provider_factory=offline))
    try:
        with (
            gui_thread_io.watching(home.root),
            qtbot.waitSignal(supervisor.monitoring_started, timeout=WAIT_MS),
        ):
            supervisor.start()
        assert not supervisor.status.standby
    finally:
        supervisor.shutdown()


def test_the_writer_turned_off_in_settings_withdraws_its_queued_runs_at_once(
    qtbot: QtBot, home: Home, make_supervisor: Any, jobs: JobService
) -> None:
    """A settings save is news (`context.settings`): the writer off, a run still queued is
    withdrawn then and there — not left to run with the settings of before."""
    other = "f6e5d4c3b2"
    add_workspace(home, "/src/other", "other", workspace_id=other)
    home.transcript_path(other).parent.mkdir(parents=True)
    home.transcript_path(other).touch()
    set_interval(home, 1)
    release = threading.Event()

    def held() -> tuple[ChatProvider, tuple[str, ...]]:
        release.wait(WAIT_MS / 1000)  # the first run holds the runs lane until released
        return offline()

    supervisor: WriterSupervisor = make_supervisor(held)
    recorder = Recorder(supervisor)
    settings = SettingsFeed()
    supervisor.follow_settings(settings)
    with qtbot.waitSignal(supervisor.run_started, timeout=WAIT_MS):
        append_turn(home, "1", "Remember that the first run holds the lane.")
    with qtbot.waitSignal(supervisor.transcripts_checked, timeout=WAIT_MS):
        append_turn(home, "1", "Remember that this run waits in the queue.", workspace=other)

    settings.publish(
        SettingsChange(frozenset({SettingsSection.WRITER}), {"writer": {"mode": "off"}})
    )
    release.set()
    qtbot.waitUntil(lambda: not jobs.busy, timeout=WAIT_MS)
    assert recorder.started == [WS]  # the queued run of `other` never started
    assert not (home.workspace_root(other) / "notes.md").exists()
