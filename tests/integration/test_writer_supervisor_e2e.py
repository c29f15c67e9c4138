"""End to end: another process (standing in for mux) appends assistant messages to a
workspace's chat.jsonl while the app's watcher and writer supervisor run; the writer runs
at the interval and, with no model configured, suggests what it found for review."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from pytestqt.qtbot import QtBot

from memtab.gui.activity.watch import HomeWatcher
from memtab.gui.context import ChangeFeed
from memtab.gui.tasks.jobs import JobService
from memtab.gui.writer.feedback import WriterSupervisor
from memtab.store.home import Home
from memtab.store.sidecars.registry import add_workspace
from memtab.writer.inbox.suggestions import SuggestionQueue
from memtab.writer.job.policy import load_state

WS = "e2e0e2e0e2"
WAIT_MS = 20_000

# Appends user/assistant turns like mux does, one message per line — each line in two
# writes with a pause between, so the app also sees half-written lines.
APPENDER = r"""
import json, sys, time
path, messages = sys.argv[1], json.loads(sys.argv[2])
with open(path, "a", encoding="utf-8") as handle:
    for message in messages:
        line = json.dumps(message) + "\n"
        middle = len(line) // 2
        handle.write(line[:middle]); handle.flush()
        time.sleep(0.05)
        handle.write(line[middle:]); handle.flush()
        time.sleep(0.05)
"""


def mux_message(message_id: str, role: str, text: str, sequence: int) -> dict[str, Any]:
    return {
        "id": message_id,
        "role": role,
        "metadata": {"timestamp": 1_800_000_000_000 + sequence, "historySequence": sequence},
        "parts": [{"type": "text", "text": text}],
        "workspaceId": WS,
    }


def test_messages_appended_by_another_process_make_suggested_memories(
    qtbot: QtBot, tmp_path: Path
) -> None:
    home = Home(tmp_path / "home")
    add_workspace(home, "/src/e2e", "e2e", workspace_id=WS)
    transcript = home.transcript_path(WS)
    transcript.parent.mkdir(parents=True)
    transcript.write_text(json.dumps(mux_message("old", "assistant", "history", 0)) + "\n")

    watcher = HomeWatcher(debounce_ms=50, max_latency_ms=300)
    jobs = JobService()
    supervisor = WriterSupervisor(home, jobs)  # the configured provider: the offline writer
    changes = ChangeFeed(home)
    watcher.paths_changed.connect(changes.publish)
    supervisor.attach(changes)
    watcher.start(home.root)
    appender: subprocess.Popen[bytes] | None = None
    try:
        with qtbot.waitSignal(supervisor.monitoring_started, timeout=WAIT_MS):
            supervisor.start()
        turns = [
            mux_message("u1", "user", "From now on, always run `tox -e lint` first.", 1),
            mux_message("a1", "assistant", "Will do.", 2),
            mux_message("u2", "user", "Thanks.", 3),
            mux_message("a2", "assistant", "Done.", 4),
        ]
        with qtbot.waitSignal(supervisor.run_finished, timeout=WAIT_MS) as finished:
            appender = subprocess.Popen(
                [sys.executable, "-c", APPENDER, str(transcript), json.dumps(turns)]
            )
        assert appender.wait(timeout=30) == 0
        result = finished.args[0]
        assert result.outcome == "suggested" and result.trigger_message_id == "a2"
        assert not (home.workspace_root(WS) / "notes.md").exists()
        suggested = [s.text for s in SuggestionQueue(home, WS).pending()]
        assert suggested == ["Always run `tox -e lint` first."]
        state = load_state(home.writer_state_path(WS))
        assert state.last_run_message_id == "a2" and not state.has_incomplete_run
    finally:
        if appender is not None and appender.poll() is None:
            appender.kill()
        watcher.stop()
        supervisor.shutdown()
        jobs.shutdown()
