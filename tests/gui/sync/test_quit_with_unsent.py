"""Quitting with changes sync has not sent: the window syncs first or asks ("1 change not
sent yet — Sync now / Quit anyway"), and closes at once when nothing waits."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QMessageBox, QWidget
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.memory_tree_support import WindowFactory, wait_for, wait_watching
from memtab.gui.context import StatusNotices
from memtab.gui.first_paint.main_window import MainWindow
from memtab.gui.sync.feature import UnsentAtQuit, UnsentChoice, ask_unsent
from memtab.gui.sync.service import WindowSync
from memtab.gui.tasks.jobs import JobService
from memtab.gui.window import keys
from support.memory_paths import vpath
from support.sync_machines import Machine

pytestmark = pytest.mark.no_background_runs  # no writer, no check at start: none is tested here

make_window = support.make_window
NOTES = "/memories/global/notes.md"
SYNC_MS = 60_000


def synced_window(qtbot: QtBot, make_window: WindowFactory, machine: Machine) -> MainWindow:
    window = make_window(machine.home, None, start_writer=False)
    wait_watching(qtbot, window)
    assert window.part(keys.SYNC) is not None
    sync = window.part(keys.SYNC).sync
    wait_for(qtbot, lambda: sync.configured and not sync.busy, SYNC_MS)
    return window


def answering(
    window: MainWindow, *choices: UnsentChoice | Callable[[], UnsentChoice]
) -> list[tuple[str, str]]:
    """Answer the question with `choices` in turn (a callable: its answer, when asked);
    what it asked, each time."""
    asked: list[tuple[str, str]] = []
    left = list(choices)

    def ask(
        _parent: object, text: str, detail: str, answer: Callable[[UnsentChoice], None]
    ) -> None:
        asked.append((text, detail))
        choice = left.pop(0)
        answer(choice if isinstance(choice, UnsentChoice) else choice())

    assert window.part(keys.SYNC) is not None
    window.part(keys.SYNC).quitting.ask_box = ask  # type: ignore[assignment]
    return asked


def test_quitting_with_a_change_not_sent_asks_and_quit_anyway_leaves_it_here(
    qtbot: QtBot, make_window: WindowFactory, alpha: Machine, beta: Machine
) -> None:
    window = synced_window(qtbot, make_window, alpha)
    alpha.write(NOTES, "# Notes\n\n- not sent yet\n")
    asked = answering(window, UnsentChoice.CANCEL, UnsentChoice.QUIT)
    window.close()
    wait_for(qtbot, lambda: len(asked) == 1, SYNC_MS)
    assert not window.is_closing  # Cancel: the window stays
    text, detail = asked[0]
    assert text == "1 change not sent yet"
    assert detail.startswith("notes.md changed here, and no sync has sent it yet.")
    window.close()
    wait_for(qtbot, lambda: window.is_closing, SYNC_MS)
    assert len(asked) == 2
    beta.sync()
    assert beta.store.read_whole(vpath(NOTES)) is None  # it stayed here, for the next sync


# slow: syncs through a git remote, twice (git processes, ~1 s of CPU)
@pytest.mark.slow
def test_sync_now_sends_the_change_then_quits_and_asks_again_when_it_could_not(
    qtbot: QtBot, make_window: WindowFactory, alpha: Machine, beta: Machine, remote: Path
) -> None:
    window = synced_window(qtbot, make_window, alpha)
    alpha.write(NOTES, "# Notes\n\n- sent before quitting\n")
    away = remote.with_name("remote-away.git")
    remote.rename(away)  # out of reach: the first Sync now cannot send it

    def reachable_again() -> UnsentChoice:
        away.rename(remote)
        return UnsentChoice.SYNC

    asked = answering(window, UnsentChoice.SYNC, reachable_again)
    window.close()
    wait_for(qtbot, lambda: window.is_closing, SYNC_MS)  # the second Sync now sent it
    assert len(asked) == 2 and "The sync could not send it: memory: " in asked[1][1]
    beta.sync()
    assert beta.text(NOTES) == "# Notes\n\n- sent before quitting\n"


# slow: syncs through a git remote (git processes, ~0.5 s of CPU)
@pytest.mark.slow
def test_a_sync_that_sends_the_change_while_it_asks_closes_the_question_and_the_window(
    qtbot: QtBot, make_window: WindowFactory, alpha: Machine, beta: Machine
) -> None:
    window = synced_window(qtbot, make_window, alpha)
    alpha.write(NOTES, "# Notes\n\n- sent by the schedule\n")
    assert window.part(keys.SYNC) is not None
    quitting = window.part(keys.SYNC).quitting
    boxes: list[QMessageBox] = []

    def ask(*args: Any) -> QMessageBox:
        boxes.append(ask_unsent(*args))
        return boxes[-1]

    quitting.ask_box = ask
    window.close()
    wait_for(qtbot, lambda: bool(boxes) and boxes[0].isVisible(), SYNC_MS)
    window.part(keys.SYNC).sync.sync_now()  # as the schedule's sync would, the question open
    wait_for(qtbot, lambda: window.is_closing, SYNC_MS)
    beta.sync()
    assert beta.text(NOTES) == "# Notes\n\n- sent by the schedule\n"


# slow: makes a sync conflict between two machines (git processes, ~1 s of CPU)
@pytest.mark.slow
def test_a_conflict_resolved_and_not_sent_yet_is_asked_about(
    qtbot: QtBot, make_window: WindowFactory, alpha: Machine, beta: Machine
) -> None:
    alpha.conflict_with(beta, NOTES)
    window = synced_window(qtbot, make_window, alpha)
    alpha.resolve(NOTES, merged="one\ntwo from both\nthree\n")  # as the dialog decides
    asked = answering(window, UnsentChoice.QUIT)
    window.close()
    wait_for(qtbot, lambda: window.is_closing, SYNC_MS)
    assert [text for text, _detail in asked] == ["1 change not sent yet"]
    assert asked[0][1].startswith("notes.md changed here")


def test_with_nothing_to_send_the_window_closes_without_asking(
    qtbot: QtBot, make_window: WindowFactory, alpha: Machine
) -> None:
    alpha.publish(NOTES, "# Notes\n")
    window = synced_window(qtbot, make_window, alpha)
    asked = answering(window)
    window.close()
    wait_for(qtbot, lambda: window.is_closing, SYNC_MS)
    assert asked == []


def test_closing_before_sync_first_looked_still_asks(
    qtbot: QtBot, alpha: Machine, jobs: JobService
) -> None:
    """A window closed early — before its sync said whether it is set up — looks first."""
    sync = WindowSync(alpha.home, jobs)  # not started: no look yet
    parent = QWidget()
    qtbot.addWidget(parent)
    quitting = UnsentAtQuit(sync, StatusNotices(parent), parent, parent)
    alpha.write(NOTES, "# Notes\n\n- written just before closing\n")
    assert not sync.configured and quitting.needs_asking()
    asked: list[str] = []

    def ask(
        _parent: object, text: str, _detail: str, answer: Callable[[UnsentChoice], None]
    ) -> None:
        asked.append(text)
        answer(UnsentChoice.QUIT)

    quitting.ask_box = ask  # type: ignore[assignment]
    closed: list[bool] = []
    quitting.ask(lambda: closed.append(True))
    wait_for(qtbot, lambda: closed == [True], SYNC_MS)
    assert asked == ["1 change not sent yet"]
    sync.shutdown()
