"""A burst is news: the window says "Claude Code removed 3 files at 15:27 — Review…" once
per burst — while it is open, or when it opens after one happened while it was closed —
and Review… opens Recently deleted at that burst, whose Restore all puts it back; the
burst stays listed, marked restored."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.memory_tree_support import WAIT_MS, WindowFactory, wait_for
from memtab.components.history.burst_news import REVIEW
from memtab.components.window.ui_state import UiState
from memtab.gui.first_paint.main_window import MainWindow
from memtab.gui.history.trash_dialog import BURST_ROLE
from memtab.gui.window import keys
from memtab.sources.claude.settings import CONSOLIDATE_LOCK
from memtab.sources.config import SourceContext
from memtab.sources.discovery import discover
from memtab.sources.model import Source, SourceListing
from memtab.watch import sources as watch_sources
from memtab.watch.events import change_events
from memtab.watch.sources import record_source
from support.agent_machine import WORKSPACE_ID, Machine, build_machine

pytestmark = pytest.mark.no_background_runs  # no writer, no check at start: none is tested here
make_window = support.make_window
TOPICS = 3


@pytest.fixture
def machine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Machine:
    """A machine whose Claude Code auto memory has `TOPICS` topics, in history."""
    built = build_machine(tmp_path / "machine")
    monkeypatch.setenv("HOME", str(built.user))  # what `memtab watch` discovers too
    for index in range(TOPICS):
        topic = built.claude_memory / f"topic_{index}.md"
        topic.write_text(f"# Topic {index}\n", "utf-8")
    record_auto_memory(built)
    return built


def record_auto_memory(machine: Machine) -> None:
    """What the recorder does while no window runs."""
    (source,) = [
        source
        for source in discover(SourceContext.load(machine.home)).sources
        if source.root == machine.claude_memory.parent
    ]
    record_source(machine.home, source)


def prune(machine: Machine) -> list[Path]:
    """Claude Code's consolidation removes every topic (holding its lock)."""
    (machine.claude_memory / CONSOLIDATE_LOCK).write_text(str(os.getpid()), "utf-8")
    topics = sorted(machine.claude_memory.glob("topic_*.md"))
    for topic in topics:
        topic.unlink()
    return topics


def open_window(
    make_window: WindowFactory, machine: Machine, qtbot: QtBot, state: UiState
) -> MainWindow:
    window = make_window(
        machine.home,
        WORKSPACE_ID,
        source_context=lambda _home: machine.context(),
        ui_state=state,
        start_writer=False,
    )
    qtbot.waitUntil(lambda: window.memory_tab.is_sources_loaded, timeout=WAIT_MS)
    return window


def notice(window: MainWindow) -> str:
    history = window.part(keys.HISTORY)
    assert history is not None and history.notices is not None
    return history.notices.text


def test_a_burst_while_no_window_ran_is_news_once_and_review_restores_it(
    qtbot: QtBot, make_window: WindowFactory, machine: Machine, tmp_path: Path
) -> None:
    topics = prune(machine)
    record_auto_memory(machine)  # `memtab watch`, the window closed
    state = UiState(tmp_path / "ui.json")
    window = open_window(make_window, machine, qtbot, state)
    tab = window.memory_tab
    wait_for(qtbot, lambda: notice(window).startswith(f"Claude Code removed {TOPICS} files at "))
    assert not tab.controller.news_bar.isHidden() and tab.controller.news_bar.action_ids() == [
        REVIEW
    ]
    assert tab.controller.news_bar.button(REVIEW).text() == "&Review…"
    (seen,) = state.bursts_seen_for(machine.home.root)  # remembered once shown
    wait_for(qtbot, lambda: UiState.load(state.path).bursts_seen_for(machine.home.root) == [seen])

    tab.controller.news_bar.button(REVIEW).click()
    assert window.part(keys.HISTORY) is not None
    trash = window.part(keys.HISTORY).trash_dialog
    assert trash is not None and trash.isVisible() and tab.controller.news_bar.isHidden()
    wait_for(qtbot, lambda: (current := trash.files.currentItem()) and current.data(0, BURST_ROLE))
    assert trash.files.currentItem().data(0, BURST_ROLE) == seen  # type: ignore[union-attr]
    (group,) = [g for g in trash.groups if g.bursts]
    assert group.label == "Claude Code" and group.bursts[0].id == seen
    first = group.bursts[0].files[0]
    assert (first.name, first.actor) == ("memory/topic_0.md", "claude-code")

    trash.restore_all_button.click()
    wait_for(qtbot, lambda: trash.note.full_text == f"Restored {TOPICS} files")
    assert [topic.read_text("utf-8") for topic in topics] == [
        f"# Topic {index}\n" for index in range(TOPICS)
    ]
    wait_for(qtbot, lambda: trash.bursts and trash.bursts[0].words.endswith("— restored"))


def test_restore_all_while_a_recording_pass_runs_shows_the_burst_restored(
    qtbot: QtBot,
    make_window: WindowFactory,
    machine: Machine,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The window's recording pass (runs lane) lists Claude Code's memory, then Restore all
    # (scans lane) puts the files back, then the pass reads history: the order held here.
    prune(machine)
    record_auto_memory(machine)
    listed, restored = threading.Event(), threading.Event()
    list_source = watch_sources.list_source

    def held(source: Source) -> SourceListing:
        listing = list_source(source)
        if source.root == machine.claude_memory.parent and not listed.is_set():
            listed.set()
            restored.wait(WAIT_MS / 1000)
        return listing

    window = open_window(make_window, machine, qtbot, UiState(tmp_path / "ui.json"))
    support.wait_watching(qtbot, window)
    history = window.part(keys.HISTORY)
    assert history is not None
    trash = history.open_trash()
    wait_for(qtbot, lambda: bool(trash.bursts) and not trash.busy)
    trash.show_burst(trash.bursts[0].id)
    monkeypatch.setattr(watch_sources, "list_source", held)
    machine.home.global_root.mkdir(parents=True, exist_ok=True)  # mux writes: a pass follows
    (machine.home.global_root / "another.md").write_text("- mux wrote this\n", "utf-8")
    try:
        qtbot.waitUntil(listed.is_set, timeout=WAIT_MS)  # the pass has listed: files still gone
        trash.restore_all_button.click()
        wait_for(qtbot, lambda: trash.note.full_text == f"Restored {TOPICS} files")
    finally:
        restored.set()
    wait_for(qtbot, lambda: not history.busy)  # the pass read history and recorded
    trash.reload(record_first=False)
    wait_for(qtbot, lambda: not trash.busy)
    assert trash.bursts[0].words.endswith("— restored")
    (burst,) = change_events(machine.home, min_files=2)  # none removed them again
    assert burst.restored_words() == "restored"


def test_a_burst_seen_is_no_news_at_the_next_start(
    qtbot: QtBot, make_window: WindowFactory, machine: Machine, tmp_path: Path
) -> None:
    prune(machine)
    record_auto_memory(machine)
    (burst,) = change_events(machine.home)
    state = UiState(tmp_path / "ui.json")
    state.set_bursts_seen(machine.home.root, [burst.id])  # the last window showed it
    window = open_window(make_window, machine, qtbot, state)
    support.wait_watching(qtbot, window)
    history = window.part(keys.HISTORY)
    assert history is not None and history.notices is not None
    qtbot.waitUntil(lambda: not history.busy, timeout=WAIT_MS)  # the bursts were read
    assert notice(window) == "" and window.memory_tab.controller.news_bar.isHidden()


def test_a_burst_while_the_window_is_open_is_news_at_once(
    qtbot: QtBot, make_window: WindowFactory, machine: Machine, tmp_path: Path
) -> None:
    window = open_window(make_window, machine, qtbot, UiState(tmp_path / "ui.json"))
    support.wait_watching(qtbot, window)
    assert notice(window) == ""
    prune(machine)  # the window records it itself (no recorder runs), then sees history
    wait_for(qtbot, lambda: notice(window).startswith(f"Claude Code removed {TOPICS} files at "))
    window.memory_tab.controller.news_bar.dismissed.emit()  # closed: nothing until the next burst
    assert window.part(keys.HISTORY) is not None and window.part(keys.HISTORY).notices is not None
    assert window.part(keys.HISTORY).notices.news.notice is None
