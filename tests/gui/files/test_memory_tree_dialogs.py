"""The tree's real dialogs: validation as you type, and the delete confirmation."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QLabel, QMessageBox, QWidget
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from memtab.components.files.ops import DeletionCount
from memtab.components.files.questions import NewKind, resolve_move_target, resolve_new_path
from memtab.gui.files.dialogs import MoveDialog, NewItemDialog, TabDialogs
from memtab.store.home import Home
from memtab.store.paths import Scope, VirtualPath, parse_file_path
from memtab.store.scopes.memory import MemoryStore
from support.memory_home import MAIN, MULTI
from support.memory_paths import vpath

home = support.home


def test_new_file_dialog_validates_and_adds_the_md_suffix(qtbot: QtBot, home: Home) -> None:
    store = MemoryStore.open(home, MAIN)
    dialog = NewItemDialog(store, VirtualPath(Scope.GLOBAL), NewKind.FILE)
    qtbot.addWidget(dialog)
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    assert not ok.isEnabled()  # nothing typed yet
    dialog.name_edit.setText("bad<name")
    assert not ok.isEnabled() and "not allowed" in dialog.error_label.text()
    dialog.name_edit.setText("tools/docker")
    assert ok.isEnabled()
    assert dialog.path == parse_file_path("/memories/global/tools/docker.md")
    assert dialog.target_label.full_text == "/memories/global/tools/docker.md"
    dialog.description_edit.setText("  Docker tips ")
    assert dialog.description == "Docker tips"


def test_new_file_dialog_refuses_an_unavailable_scope(qtbot: QtBot, home: Home) -> None:
    store = MemoryStore.open(home, MULTI)
    dialog = NewItemDialog(store, VirtualPath(Scope.GLOBAL), NewKind.FILE)
    qtbot.addWidget(dialog)
    dialog.name_edit.setText("/memories/project/x.md")
    assert dialog.path is None and "multi-project" in dialog.error_label.text()


def test_move_dialog_preselects_the_name_and_says_rename_or_move(qtbot: QtBot, home: Home) -> None:
    store = MemoryStore.open(home, MAIN)
    source = parse_file_path("/memories/global/tools/git.md")
    dialog = MoveDialog(store, source)
    qtbot.addWidget(dialog)
    assert dialog.path_edit.selectedText() == "git"
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    assert not ok.isEnabled()  # unchanged
    dialog.path_edit.setText("/memories/global/tools/vcs.md")
    assert ok.text() == "&Rename" and dialog.target == parse_file_path(
        "/memories/global/tools/vcs.md"
    )
    dialog.path_edit.setText("/memories/workspace/git.md")
    assert ok.text() == "&Move" and ok.isEnabled()


def test_the_move_dialogs_labels_are_drawn_whole(qtbot: QtBot, home: Home) -> None:
    store = MemoryStore.open(home, MAIN)
    dialog = MoveDialog(store, parse_file_path("/memories/global/tools/git.md"))
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    to = next(label for label in dialog.findChildren(QLabel) if label.text() == "&To")
    metrics = to.fontMetrics()
    # The underlined T is drawn apart from the o, unkerned: "To" read "Tc".
    drawn = metrics.horizontalAdvance("T") + metrics.horizontalAdvance("o")
    assert drawn > metrics.horizontalAdvance("To")  # the font kerns the pair
    assert to.contentsRect().width() >= drawn


def test_the_move_dialog_grows_to_show_its_reason_below_the_rows(qtbot: QtBot, home: Home) -> None:
    """A reason appearing under the field makes the shown dialog taller: it kept its size,
    and Qt squeezed the From and To rows into each other to make room."""
    store = MemoryStore.open(home, MAIN)
    dialog = MoveDialog(store, parse_file_path("/memories/global/tools/git.md"))
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    shown_height = dialog.height()
    dialog.path_edit.setText("/memories/global/tools/a-long-folder/bad<name-of-some-length.md")
    assert dialog.error_label.isVisible()
    layout = dialog.layout()
    assert layout is not None
    layout.activate()
    assert dialog.height() > shown_height
    assert dialog.height() >= layout.totalHeightForWidth(dialog.width())
    source = next(label for label in dialog.findChildren(QLabel) if label.text() == "From")
    assert source.geometry().bottom() < dialog.path_edit.geometry().top()
    assert dialog.path_edit.height() >= dialog.path_edit.sizeHint().height()  # not squeezed


def test_delete_confirmation_says_what_will_be_deleted(qtbot: QtBot) -> None:
    parent = QWidget()
    qtbot.addWidget(parent)
    dialogs = TabDialogs(parent)
    seen: list[str] = []

    def answer(button_text: str) -> None:
        box = QApplication.activeModalWidget()
        assert isinstance(box, QMessageBox)
        seen.append(box.text())
        seen.append(box.informativeText())
        for button in box.buttons():
            if button.text().replace("&", "") == button_text:
                button.click()

    QTimer.singleShot(0, lambda: answer("Delete"))
    one = DeletionCount(1, 1, 0)
    assert dialogs.confirm_delete(["notes.md"], one, True, loses_draft=True) is True
    assert seen[0] == "Delete notes.md?"
    assert "unsaved changes" in seen[1]
    QTimer.singleShot(0, lambda: answer("Cancel"))
    hidden = DeletionCount(1, 2, 1)
    assert dialogs.confirm_delete(["tools"], hidden, False, loses_draft=False) is False
    assert seen[2] == "Delete tools — 2 files, 1 of them hidden by the search filter?"
    assert "search filter hides" in seen[3]


def test_hidden_names_are_refused_as_the_user_types(tmp_path: Path) -> None:
    store = MemoryStore(Home(tmp_path / "home"))
    location = VirtualPath(Scope.GLOBAL)
    path, reason = resolve_new_path(store, location, ".md", NewKind.FILE)
    assert path is None and reason is not None and "no listing would show it" in reason
    store.create_file(vpath("/memories/global/a.md"), "")
    target, reason = resolve_move_target(
        store, parse_file_path("/memories/global/a.md"), "/memories/global/.a.md"
    )
    assert target is None and reason is not None and "hidden names" in reason
