"""A scope that appears or goes while the window runs is its files appearing or going:
xum's session scope at an agent's first checkpoint (issue 70 point 5), and the first
memory of another agent's project (Claude Code's auto memory, Codex's memories,
loki-mode's) — the tree shows them, and keeps following the disk after."""

from __future__ import annotations

import shutil

import pytest
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.memory_tree_support import WAIT_MS, WindowFactory, file_names, wait_idle, wait_watching
from memtab.components.tree.nodes import file_key
from memtab.fs.atomic import atomic_write_text
from memtab.gui.first_paint.main_window import MainWindow
from memtab.store.home import Home
from memtab.store.paths import parse_file_path
from support.memory_home import MAIN, memory

pytestmark = pytest.mark.no_background_runs  # no writer, no check at start: none is tested here

home = support.home
make_window = support.make_window

CHECKPOINT = file_key(parse_file_path("/memories/session/checkpoint.md"))


def shows(window: MainWindow, key: str) -> bool:
    return window.memory_tab.model.node_for_key(key) is not None


def test_xums_first_checkpoint_shows_in_the_tree_and_its_going_too(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window = make_window(home, MAIN)
    wait_watching(qtbot, window)
    assert not home.workspace_dir(MAIN).joinpath("session-memory").exists()
    errors: list[str] = []
    window.memory_tab.scans.scan_failed.connect(errors.append)
    # What xum does at an agent's first checkpoint (`mkdir -p … && echo x > …`).
    session = home.session_root(MAIN)
    session.mkdir(parents=True)
    (session / "checkpoint.md").write_text("x\n", encoding="utf-8")
    qtbot.waitUntil(lambda: shows(window, CHECKPOINT), timeout=WAIT_MS)
    assert "session:checkpoint.md" in file_names(window)
    # The tree goes on following the disk: a file written from a shell shows.
    fresh = home.global_root / "fresh.md"
    atomic_write_text(fresh, memory("Fresh"))
    qtbot.waitUntil(lambda: "global:fresh.md" in file_names(window), timeout=WAIT_MS)
    # xum removes the session's memory: its files go, the section with them.
    shutil.rmtree(session)
    qtbot.waitUntil(lambda: not shows(window, CHECKPOINT), timeout=WAIT_MS)
    wait_idle(qtbot, window)
    assert not any(name.startswith("session:") for name in file_names(window))
    assert errors == []


def test_a_session_file_open_in_the_editor_says_it_went_with_its_scope(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    session = home.session_root(MAIN)
    session.mkdir(parents=True)
    (session / "checkpoint.md").write_text("x\n", encoding="utf-8")
    window = make_window(home, MAIN)
    wait_watching(qtbot, window)
    editor = window.memory_tab.controller.editor
    window.memory_tab.controller.editor_link.select_key(CHECKPOINT, open_it=True)
    qtbot.waitUntil(lambda: editor.current_key == CHECKPOINT, timeout=WAIT_MS)
    shutil.rmtree(session)
    qtbot.waitUntil(lambda: not shows(window, CHECKPOINT), timeout=WAIT_MS)
    qtbot.waitUntil(
        lambda: "checkpoint.md was deleted on disk" in editor.message_bar.text, timeout=WAIT_MS
    )
