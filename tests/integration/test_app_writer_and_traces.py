"""The whole window with the background writer and the Traces tab.

Another process appends assistant turns to a workspace's chat.jsonl while the window is
open: the writer runs, and the workspace tree shows the memory file it wrote. A failed
writer run offers "view trace", which opens the dump in the Traces tab.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.memory_tree_support import WindowFactory
from memtab.components.tree.nodes import file_key
from memtab.components.writer.supervision import WriterActivity
from memtab.gui.window import keys
from memtab.store.home import Home
from memtab.store.paths import parse_file_path
from memtab.writer.config import OfflineNotes, WriterSettings, save_writer_settings
from support.memory_home import MAIN

home = support.home
make_window = support.make_window
WAIT_MS = 20_000

APPENDER = r"""
import json, sys
path, messages = sys.argv[1], json.loads(sys.argv[2])
with open(path, "a", encoding="utf-8") as handle:
    for message in messages:
        handle.write(json.dumps(message) + "\n")
        handle.flush()
"""


def mux_message(message_id: str, role: str, text: str, sequence: int) -> dict[str, Any]:
    return {
        "id": message_id,
        "role": role,
        "metadata": {"timestamp": 1_800_000_000_000 + sequence, "historySequence": sequence},
        "parts": [{"type": "text", "text": text}],
        "workspaceId": MAIN,
    }


def test_appended_turns_make_the_writer_run_and_the_tree_update(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    transcript = home.transcript_path(MAIN)
    transcript.parent.mkdir(parents=True, exist_ok=True)
    transcript.write_text(json.dumps(mux_message("old", "assistant", "history", 0)) + "\n")
    (home.workspace_root(MAIN) / "notes.md").unlink(missing_ok=True)  # the writer's target
    save_writer_settings(WriterSettings(offline_notes=OfflineNotes.WRITE))  # not suggestions
    window = make_window(home)
    qtbot.waitUntil(lambda: window.built_part(keys.WRITER) is not None, timeout=WAIT_MS)
    writer = window.built_part(keys.WRITER)
    assert writer is not None
    qtbot.waitSignal(writer.monitoring_started, timeout=WAIT_MS, raising=False).wait()

    notes_key = file_key(parse_file_path("/memories/workspace/notes.md"))
    assert support.node(window, notes_key) is None
    turns = [
        mux_message("u1", "user", "Remember: never push to main directly.", 1),
        mux_message("a1", "assistant", "Understood.", 2),
        mux_message("u2", "user", "Thanks.", 3),
        mux_message("a2", "assistant", "Done.", 4),
    ]
    with qtbot.waitSignal(writer.run_finished, timeout=WAIT_MS) as finished:
        subprocess.run(
            [sys.executable, "-c", APPENDER, str(transcript), json.dumps(turns)], check=True
        )
    assert finished.args[0].outcome == "wrote"
    qtbot.waitUntil(lambda: support.node(window, notes_key) is not None, timeout=WAIT_MS)
    assert window.built_part(keys.WRITER_STATUS) is not None
    assert window.built_part(keys.WRITER_STATUS).status.activity is WriterActivity.IDLE


@pytest.mark.parametrize("via_link", [True, False])
def test_view_trace_opens_the_dump_in_the_traces_tab(
    qtbot: QtBot, make_window: WindowFactory, home: Home, via_link: bool
) -> None:
    dump_dir = home.trace_dir(MAIN)
    dump_dir.mkdir(parents=True)
    dump = dump_dir / "1800000000000_a2.json"
    dump.write_text(
        json.dumps(
            {
                "schemaVersion": 1,
                "runStartedAt": 1_800_000_000_000,
                "workspaceId": MAIN,
                "triggerMessageId": "a2",
                "timedOut": True,
                "attempts": [],
            }
        )
    )
    window = make_window(home)
    traces = window.traces_tab
    assert traces is not None
    if via_link:
        qtbot.waitUntil(lambda: window.built_part(keys.WRITER_STATUS) is not None, timeout=WAIT_MS)
        assert window.built_part(keys.WRITER_STATUS) is not None
        window.built_part(keys.WRITER_STATUS).trace_requested.emit(Path(dump))
    else:
        window.show_trace(dump)
    assert window.tabs.tabText(window.tabs.currentIndex()) == "Traces"
    assert traces.isVisibleTo(window.tabs.currentWidget())
    qtbot.waitUntil(lambda: traces.selected_path() == dump, timeout=WAIT_MS)
