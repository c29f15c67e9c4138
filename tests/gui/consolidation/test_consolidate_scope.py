"""A scope's context menu (and the palette) consolidates that scope alone (docs/formats.md
§9.8), in the window with its offline consolidator in a child process: the review shows
that scope's changes only, Apply changes that scope's files only, and its footer line —
and no other — says it ran just now (a project's from mux's journal, the global scope's
from Memtab's scope-runs.json, which the watcher reports)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QApplication, QDialog
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.memory_tree_support import WAIT_MS, WindowFactory
from memtab.components.tree.nodes import SectionId, section_key
from memtab.components.window.mnemonics import without_mnemonic
from memtab.consolidation.review.review_setting import save_review_mode
from memtab.demo import MAIN_ID, create_demo_home
from memtab.gui.first_paint.main_window import MainWindow
from memtab.gui.window.palette import PaletteDialog
from memtab.store.history.runs import RunsLog
from memtab.store.home import Home
from memtab.store.sidecars.journal import Journal
from memtab.store.sidecars.scope_runs import load_scope_runs

make_window = support.make_window
RUN_MS = 30_000  # the engine's child process starting on a loaded machine


def menu_action(window: MainWindow, section: SectionId, text: str) -> object:
    """The action of `text` in the context menu of a scope's row (the row current, as a
    right click or Shift+F10 leaves it)."""
    key = section_key(section)
    assert window.memory_tab.tree.select_key(key)
    node = window.memory_tab.model.node_for_key(key)
    assert node is not None
    menu = window.memory_tab.controller.file_actions.context_menu(node)
    found = [action for action in menu.actions() if without_mnemonic(action.text()) == text]
    assert found, [action.text() for action in menu.actions()]
    return found[0]


def files_of(home: Home, *scopes: str) -> dict[Path, bytes]:
    roots = {"project": home.projects_root, "global": home.global_root}
    found: dict[Path, bytes] = {}
    for scope in scopes:
        root = roots.get(scope) or home.workspace_root(MAIN_ID)
        found |= {path: path.read_bytes() for path in root.rglob("*.md")}
    return found


@pytest.mark.slow  # slow: a plan and its apply, each in the engine's child process (~3 s)
def test_consolidate_project_only_reviews_and_applies_the_project_alone(
    qtbot: QtBot, make_window: WindowFactory, tmp_path: Path
) -> None:
    demo = create_demo_home(tmp_path / "demo")
    window = make_window(demo, MAIN_ID)
    support.wait_watching(qtbot, window)
    footer = window.memory_tab.controller.footer
    workspace_line = footer.line_text("Workspace")  # type: ignore[attr-defined]
    assert workspace_line.startswith("3 h ago")
    others = files_of(demo, "global", "workspace")
    journal_before = Journal(demo).load()

    menu_action(window, SectionId.PROJECT, "Consolidate Project only").trigger()  # type: ignore[attr-defined]
    qtbot.waitUntil(lambda: footer.review_dialog is not None, timeout=RUN_MS)  # type: ignore[attr-defined]
    review = footer.review_dialog  # type: ignore[attr-defined]
    assert review.plan.scope == "project"
    assert review.plan.proposed and all(
        op.path.startswith("/memories/project/") for op in review.plan.proposed
    )
    assert "Project only" in review.windowTitle()
    review.apply_button.click()
    qtbot.waitUntil(
        lambda: footer.line_text("Project").startswith("just now"),  # type: ignore[attr-defined]
        timeout=RUN_MS,
    )
    assert footer.line_text("Workspace") == workspace_line  # type: ignore[attr-defined]
    assert files_of(demo, "global", "workspace") == others
    journal = Journal(demo).load()
    assert journal.workspaces == journal_before.workspaces  # mux: the workspace's as it was
    project = next(iter(journal.projects.values()))
    assert project.scope == "project" and project.applied_count == len(review.plan.proposed)
    run = RunsLog(demo).runs(workspace_id=MAIN_ID)[0]  # the newest
    assert (run.scope, run.plan_id) == ("project", review.plan.id)


def answer_palette(window: MainWindow, typed: str) -> list[QDialog]:
    """Answer the next command palette by typing `typed`, then Enter."""
    shown: list[QDialog] = []

    def run(dialog: QDialog) -> int:
        assert isinstance(dialog, PaletteDialog)
        shown.append(dialog)
        dialog.field.setText(typed)
        enter = QKeyEvent(QEvent.Type.KeyPress, Qt.Key.Key_Return, Qt.KeyboardModifier.NoModifier)
        QApplication.sendEvent(dialog.field, enter)
        return dialog.result()

    window.exec_dialog = run  # type: ignore[method-assign]
    return shown


def test_the_palette_consolidates_global_alone_and_its_line_follows_the_disk(
    qtbot: QtBot, make_window: WindowFactory, tmp_path: Path
) -> None:
    demo = create_demo_home(tmp_path / "demo")
    save_review_mode("apply-directly")  # the setting: no review, the run itself
    window = make_window(demo, MAIN_ID)
    support.wait_watching(qtbot, window)
    footer = window.memory_tab.controller.footer
    workspace_line = footer.line_text("Workspace")  # type: ignore[attr-defined]
    assert not footer.line_text("Global").startswith("just now")  # type: ignore[attr-defined]
    journal_before = demo.journal_path.read_bytes()
    assert window.memory_tab.tree.select_key(section_key(SectionId.GLOBAL))
    shown = answer_palette(window, "consolidate global")
    window.context.actions.action("window.command_palette").trigger()
    [dialog] = shown
    assert dialog.chosen is not None and dialog.chosen.label == "Consolidate Global only"
    qtbot.waitUntil(
        lambda: footer.line_text("Global").startswith("just now"),  # type: ignore[attr-defined]
        timeout=RUN_MS,
    )
    qtbot.waitUntil(
        lambda: footer.status_text.full_text.startswith("Done (Global only): "),  # type: ignore[attr-defined]
        timeout=WAIT_MS,
    )
    assert footer.line_text("Workspace") == workspace_line  # type: ignore[attr-defined]
    assert demo.journal_path.read_bytes() == journal_before  # nothing mux would misread
    saved = load_scope_runs(demo).global_run
    assert saved is not None and saved.scope == "global"
    qtbot.waitUntil(lambda: not footer.is_running, timeout=WAIT_MS)  # type: ignore[attr-defined]
