"""A window that fits a 1366×768 laptop: long paths never widen it, the first window fits
the screen, dialogs show their whole titles."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, QRect, QSize, Qt
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from gui.editor_support import open_loaded
from gui.memory_tree_support import WAIT_MS, WindowFactory, make_window
from memtab.components.editor.leaving import DiscardChoice
from memtab.components.editor.session import BarKind
from memtab.components.files.questions import NewKind
from memtab.components.window.ui_state import UiState
from memtab.demo import MAIN_ID, create_demo_home
from memtab.gui.consolidation.review_dialog import ReviewDialog
from memtab.gui.editor.editor import ask_unsaved
from memtab.gui.files.dialogs import MoveDialog, NewItemDialog, confirmation_box
from memtab.gui.first_paint import main_window
from memtab.gui.first_paint.main_window import (
    MainWindow,
    fitted_geometry,
    opens_maximized,
    place_window,
)
from memtab.gui.history.runs_dialog import RevertResultDialog, RunsDialog
from memtab.gui.history.trash_dialog import TrashDialog
from memtab.gui.tasks.jobs import JobService
from memtab.gui.toolkit.dialog_layout import title_width
from memtab.gui.toolkit.text.diff_view import DiffDialog
from memtab.gui.window import keys
from memtab.humanize import short_name
from memtab.store.history.records import RunEntry, RunOp
from memtab.store.history.runs import RunsLog
from memtab.store.home import Home
from memtab.store.paths import parse_virtual_path
from memtab.store.restore.from_history import Refusal, RevertResult
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.journal import ConsolidationStatus, HarvestRecord
from support.memory_paths import vpath

__all__ = ["make_window"]  # the fixture

LAPTOP = QSize(1366, 768)
WINDOW = QSize(1280, 712)  # what the first window is on that laptop
LONG_NAME = "a-workspace-name-that-goes-on-" * 5
LONG_DIR = "a-rather-long-directory-name-on-this-machine"
LONG_FILE = (
    "/memories/global/"
    + "/".join(["a-folder-with-a-very-long-name-indeed"] * 4)
    + ("/and-a-file-name-that-is-as-long-as-names-get-in-real-stores-of-agents.md")
)


@pytest.fixture
def long_home(tmp_path: Path) -> Home:
    """The demo home deep in the file system, a workspace with a very long name, a file
    with a very long virtual path."""
    home = create_demo_home(tmp_path.joinpath(*[LONG_DIR] * 5, "home"))
    config = json.loads(home.config_path.read_text(encoding="utf-8"))
    workspace = config["projects"][0][1]["workspaces"][0]
    workspace["title"] = LONG_NAME
    workspace["name"] = LONG_NAME
    home.config_path.write_text(json.dumps(config), encoding="utf-8")
    MemoryStore(home).create_file(vpath(LONG_FILE), "# A long way down\n")
    return home


def settle() -> None:
    """Let layout requests climb to the window (one level per pass)."""
    for _ in range(12):
        QApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
        QApplication.processEvents()


def fits_the_laptop(widget: QWidget) -> None:
    hint = widget.minimumSizeHint()
    assert hint.width() < LAPTOP.width(), f"{type(widget).__name__} needs {hint.width()} px"
    assert hint.height() < WINDOW.height()


def test_long_paths_in_every_tab_never_widen_the_window(
    qtbot: QtBot, make_window: WindowFactory, long_home: Home
) -> None:
    window = make_window(long_home, MAIN_ID)
    window.resize(WINDOW)
    window.show()
    qtbot.waitExposed(window)
    tab = window.memory_tab
    # The editor with a long path, and a long message in its bar.
    open_loaded(qtbot, tab.controller.editor, parse_virtual_path(LONG_FILE))
    tab.controller.editor.message_bar.show_message(
        BarKind.ERROR, f"Cannot save {long_home.root}{LONG_FILE}"
    )
    # The footer with a long harvest error.
    harvest = HarvestRecord(
        summary_message_id="m",
        status="failed",
        started_at=1,
        completed_at=2,
        attempt_count=1,
        error=f"ENOENT: {long_home.root / LONG_DIR}",
    )
    status = ConsolidationStatus(
        workspace_record=None,
        project_record=None,
        global_record=None,
        project_available=True,
        latest_harvest=harvest,
    )
    tab.controller.footer.set_context(tab.controller.footer.workspace, status)
    settle()
    fits_the_laptop(window)
    assert window.size() == WINDOW
    # The History panel beside the editor, following the long-named file.
    window.part(keys.HISTORY).show_history()
    qtbot.waitUntil(lambda: window.part(keys.HISTORY).panel.subject is not None, timeout=WAIT_MS)
    settle()
    fits_the_laptop(window)
    assert window.size() == WINDOW
    # Traces → Raw JSON: the dump's path is as long as the home's.
    traces = window.traces_tab
    assert traces is not None
    window.tabs.setCurrentIndex(1)
    qtbot.waitUntil(lambda: traces.detail.dump is not None, timeout=WAIT_MS)
    assert str(long_home.root) in str(traces.detail.dump.path)
    for index in range(traces.detail.tabs.count()):
        traces.detail.tabs.setCurrentIndex(index)
        settle()
        fits_the_laptop(window)
        assert window.size() == WINDOW, traces.detail.tabs.tabText(index)
    assert str(long_home.root) in traces.detail.raw_view.info.full_text


def test_the_first_window_fits_the_screen_and_later_ones_are_as_left(
    qtbot: QtBot, make_window: WindowFactory, long_home: Home, tmp_path: Path
) -> None:
    state = UiState(tmp_path / "ui.json")
    window = make_window(long_home, MAIN_ID, ui_state=state)
    available = window.screen().availableGeometry()
    assert available.contains(window.geometry())
    assert window.width() <= available.width() - 32 and window.height() <= available.height() - 56
    window.resize(window.width() - 50, window.height() - 40)
    size = window.size()
    window.tabs.setCurrentIndex(1)
    traces = window.traces_tab
    assert traces is not None
    traces.splitter.setSizes([200, 400])
    remembered = traces.splitter.sizes()
    window.close()
    again: MainWindow = make_window(long_home, MAIN_ID, ui_state=UiState.load(state.path))
    assert again.size() == size
    again_traces = again.traces_tab
    assert again_traces is not None
    assert again_traces.splitter.sizes() == remembered


@pytest.mark.parametrize(
    ("screen", "expected"),
    [
        (QRect(0, 0, 1366, 768), QRect(43, 40, 1280, 712)),  # a laptop: fits, title bar on
        (QRect(0, 27, 1366, 741), QRect(43, 67, 1280, 685)),  # ... below a top panel
        (QRect(0, 0, 1920, 1080), QRect(320, 130, 1280, 820)),  # room: preferred, centred
        (QRect(1920, 0, 1024, 600), QRect(1920 + 16, 40, 992, 544)),  # a second, small screen
    ],
)
def test_fitted_geometry(screen: QRect, expected: QRect) -> None:
    assert fitted_geometry(screen) == expected
    assert screen.contains(expected)


def test_the_first_window_opens_maximized_on_a_laptop(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(main_window, "LAPTOP_WIDTH", 1366)
    assert opens_maximized(QRect(0, 27, 1366, 741)) and opens_maximized(QRect(0, 0, 1280, 800))
    assert not opens_maximized(QRect(0, 0, 1920, 1080))
    window = QWidget()
    qtbot.addWidget(window)
    place_window(window, None)  # the offscreen screen: 800 wide
    assert window.windowState() & Qt.WindowState.WindowMaximized
    fitted = fitted_geometry(window.screen().availableGeometry())
    assert window.normalGeometry().size() == fitted.size()  # what un-maximizing gives back


# --- dialogs -----------------------------------------------------------------------------------


def shown_width(qtbot: QtBot, dialog: QWidget) -> int:
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    settle()
    return dialog.width()


def check_dialog(qtbot: QtBot, dialog: QWidget) -> None:
    """The whole title shows (as wide as the title bar needs), and no path widens it past
    a laptop's screen."""
    width = shown_width(qtbot, dialog)
    assert width >= needed_width(dialog), dialog.windowTitle()
    fits_the_laptop(dialog)


def needed_width(dialog: QWidget) -> int:
    """The title's width, up to the screen's (a title that long is cut anyway)."""
    return min(title_width(dialog), dialog.screen().availableGeometry().width() - 40)


def test_dialogs_show_their_titles_and_elide_long_paths(
    qtbot: QtBot, long_home: Home, tmp_path: Path, jobs: JobService
) -> None:
    store = MemoryStore(long_home)
    deep = parse_virtual_path(LONG_FILE)
    check_dialog(qtbot, NewItemDialog(store, deep.parent, NewKind.FILE))
    check_dialog(qtbot, NewItemDialog(store, deep.parent, NewKind.FOLDER))
    move = MoveDialog(store, deep)
    check_dialog(qtbot, move)
    assert len(move.windowTitle()) < 60  # the name is cut in the title, whole in the dialog
    box, _confirm = confirmation_box(
        None, "Delete memory", f"{deep.name} will be deleted.", "Pins are forgotten.", "Delete"
    )
    assert shown_width(qtbot, box) >= needed_width(box)
    orphan, _confirm = confirmation_box(
        None, "Delete orphaned project memory", "x will be deleted.", "Gone for good.", "Delete"
    )
    assert shown_width(qtbot, orphan) >= needed_width(orphan)
    title = f"Differences — {short_name(deep.name)}"  # as the editor names it
    diff = DiffDialog(title, "On disk", "Your draft", [("merge", "Merge")])
    check_dialog(qtbot, diff)
    summary = f"Moved {LONG_FILE} to {long_home.root}{LONG_FILE}."
    run = RunEntry(
        id="run-long",
        at=1,
        kind="consolidation",
        trigger="manual",
        workspace_id=MAIN_ID,
        summary=summary,
        ops=(RunOp(command="delete", path=LONG_FILE, applied=True),),
    )
    RunsLog(long_home).append(run)
    runs = RunsDialog(long_home, jobs)
    runs.set_workspaces([(MAIN_ID, LONG_NAME)], MAIN_ID)
    with qtbot.waitSignal(runs.loaded, timeout=WAIT_MS):
        runs.reload()
    qtbot.waitUntil(lambda: runs.detail is not None, timeout=WAIT_MS)
    check_dialog(qtbot, runs)
    runs.shutdown()
    refusal = Refusal(
        path=LONG_FILE, reason=f"changed after the run ({summary})", diff=f"--- {LONG_FILE}"
    )
    check_dialog(
        qtbot, RevertResultDialog(RevertResult(run=run, restored=[LONG_FILE], refused=[refusal]))
    )
    long_store = MemoryStore(long_home, None)
    long_store.delete(vpath(LONG_FILE))  # the long home has it
    trash = TrashDialog(jobs)
    with qtbot.waitSignal(trash.loaded, timeout=WAIT_MS):
        trash.show_store(long_store)
    assert trash.select_path(LONG_FILE)
    check_dialog(qtbot, trash)
    trash.shutdown()
    check_dialog(qtbot, ReviewDialog(jobs, long_plan(long_home), LONG_NAME))


def long_plan(home: Home) -> object:
    from memtab.consolidation.records import ConsolidationPlan, PlannedFile, PlannedOp

    diff = f"--- {LONG_FILE}\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-gone"
    op = PlannedOp(
        index=1,
        command="delete",
        path=LONG_FILE,
        arguments={"command": "delete", "path": LONG_FILE},
        proposed=True,
        description=f"Deleted {LONG_FILE}",
        files=(PlannedFile(path=LONG_FILE, base_sha256="0" * 64, diff=diff),),
    )
    return ConsolidationPlan(
        id="plan-1",
        created_at=1,
        home=str(home.root),
        workspace_id=MAIN_ID,
        trigger="manual",
        summary=LONG_FILE,
        ops=(op,),
    )


def test_the_unsaved_changes_question_shows_its_title(qtbot: QtBot) -> None:
    page = QWidget()
    qtbot.addWidget(page)
    answers: list[DiscardChoice] = []
    box = ask_unsaved(page, ["notes.md"], answers.append)
    qtbot.waitExposed(box)
    assert box.width() >= title_width(box)
    box.reject()
    assert answers == [DiscardChoice.CANCEL]
