"""Links in the preview open memory files in Memtab (Claude Code's MEMORY.md index)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QTextCursor
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.editor_support import open_loaded, settle
from gui.memory_tree_support import WAIT_MS, WindowFactory
from memtab.components.editor.panel import ViewMode
from memtab.components.editor.session import BarKind
from memtab.gui.editor.text.view import MarkdownPreview
from memtab.store.home import Home
from memtab.store.paths import parse_file_path

pytestmark = pytest.mark.no_background_runs  # no writer, no check at start: none is tested here

home = support.home
make_window = support.make_window

INDEX = (
    "# Memory index\n\n"
    "- [Zeta](Zeta.md) — last by name\n"
    "- [Git](/memories/global/tools/git.md) — conventions\n"
    "- [Gone](gone.md) — removed\n"
)


def click_link(qtbot: QtBot, preview: MarkdownPreview, label: str) -> None:
    """Click the link whose text is `label`, where the preview shows it."""
    found = preview.document().find(label)
    assert not found.isNull(), label
    middle = QTextCursor(found)
    middle.setPosition((found.selectionStart() + found.selectionEnd()) // 2)
    where: QPoint = preview.cursorRect(middle).center()
    qtbot.mouseClick(preview.viewport(), Qt.MouseButton.LeftButton, pos=where)


def test_a_preview_link_opens_the_linked_memory_file(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    (home.global_root / "MEMORY.md").write_text(INDEX, encoding="utf-8")
    window = make_window(home)
    window.show()
    qtbot.waitExposed(window)
    editor = window.memory_tab.controller.editor
    index = parse_file_path("/memories/global/MEMORY.md")
    open_loaded(qtbot, editor, index)
    editor.set_view_mode(ViewMode.PREVIEW)
    click_link(qtbot, editor.preview, "Zeta")
    zeta = parse_file_path("/memories/global/Zeta.md")
    qtbot.waitUntil(lambda: editor.current_path == zeta, timeout=WAIT_MS)
    current = window.memory_tab.tree.current_node()
    assert current is not None and current.path == zeta
    # The index it came from stays open beside it.
    assert [ref.key for ref in editor.open_refs] == [str(index), str(zeta)]

    open_loaded(qtbot, editor, index)
    editor.set_view_mode(ViewMode.PREVIEW)
    click_link(qtbot, editor.preview, "Git")
    git = parse_file_path("/memories/global/tools/git.md")
    qtbot.waitUntil(lambda: editor.current_path == git, timeout=WAIT_MS)

    open_loaded(qtbot, editor, index)
    editor.set_view_mode(ViewMode.PREVIEW)
    click_link(qtbot, editor.preview, "Gone")
    assert editor.current_path == index
    assert editor.message_bar.kind is BarKind.WARNING
    assert editor.message_bar.text == (
        "gone.md does not exist: the link leads to /memories/global/gone.md."
    )


def test_back_and_forward_after_following_a_link(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    (home.global_root / "MEMORY.md").write_text(INDEX, encoding="utf-8")
    window = make_window(home)
    support.activate(qtbot, window)  # the keys are the window's shortcuts
    editor = window.memory_tab.controller.editor
    index = parse_file_path("/memories/global/MEMORY.md")
    zeta = parse_file_path("/memories/global/Zeta.md")
    open_loaded(qtbot, editor, index)
    editor.set_view_mode(ViewMode.PREVIEW)
    click_link(qtbot, editor.preview, "Zeta")
    qtbot.waitUntil(lambda: editor.current_path == zeta, timeout=WAIT_MS)
    settle(qtbot, editor)  # visited once its text is read: then Back goes to the index
    alt = Qt.KeyboardModifier.AltModifier
    editor.preview.setFocus()
    qtbot.keyClick(editor.preview, Qt.Key.Key_Left, alt)  # from the preview, too
    qtbot.waitUntil(lambda: editor.current_path == index, timeout=WAIT_MS)
    settle(qtbot, editor)
    current = window.memory_tab.tree.current_node()
    assert current is not None and current.path == index  # shown as a link shows it
    window.memory_tab.tree.setFocus()
    qtbot.keyClick(window.memory_tab.tree, Qt.Key.Key_Right, alt)
    qtbot.waitUntil(lambda: editor.current_path == zeta, timeout=WAIT_MS)
    settle(qtbot, editor)
    back = window.context.actions.action("editor.back")
    forward = window.context.actions.action("editor.forward")
    forward.trigger()  # nothing ahead: stays
    assert editor.current_path == zeta
    back.trigger()
    qtbot.waitUntil(lambda: editor.current_path == index, timeout=WAIT_MS)
    back.trigger()  # nothing before the index: stays
    assert editor.current_path == index
