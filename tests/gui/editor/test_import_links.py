"""Claude Code's `@`-imports are links in the editor and its preview: marked in the text,
followed by Ctrl+click there and by a click in the preview — to the memory file the tree
shows, else to the file on disk in the external editor (docs/formats.md §17.6)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QTextCursor
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.editor.test_editor_links import click_link
from gui.memory_tree_support import WAIT_MS, WindowFactory, activate, wait_idle
from memtab.components.editor.panel import ViewMode
from memtab.components.tree.nodes import ref_key
from memtab.gui.first_paint.main_window import MainWindow
from memtab.gui.toolkit.external_editor import ExternalOpener
from support.agent_machine import WORKSPACE_ID, Machine, build_machine

from ..tree.test_sources import open_key

pytestmark = pytest.mark.no_background_runs  # no writer, no check at start: none is tested here

make_window = support.make_window

CLAUDE_MD = "# acme-api\n\nUse make check.\n\nSee @docs/style.md and @.claude/rules/api.md here.\n"


@pytest.fixture
def machine(tmp_path: Path) -> Machine:
    machine = build_machine(tmp_path / "machine")
    (machine.project / "docs").mkdir()
    (machine.project / "docs" / "style.md").write_text("# Style\n", encoding="utf-8")
    (machine.project / "CLAUDE.md").write_text(CLAUDE_MD, encoding="utf-8")
    return machine


def open_claude_md(qtbot: QtBot, make_window: WindowFactory, machine: Machine) -> MainWindow:
    window = make_window(machine.home, WORKSPACE_ID, source_context=lambda _home: machine.context())
    activate(qtbot, window)
    qtbot.waitUntil(lambda: window.memory_tab.is_sources_loaded, timeout=WAIT_MS)
    wait_idle(qtbot, window)
    scan = window.context.shown.scan
    assert scan is not None and scan.sources is not None
    ref = next(
        file.ref
        for listing in scan.sources.listings
        for file in listing.files
        if file.physical == machine.project / "CLAUDE.md"
    )
    open_key(qtbot, window, ref_key(ref))
    return window


def ctrl_click(qtbot: QtBot, window: MainWindow, text: str) -> None:
    """Ctrl+click the middle of `text` in the editor's source."""
    text_edit = window.memory_tab.controller.editor.text_edit
    found = text_edit.document().find(text)
    assert not found.isNull(), text
    middle = QTextCursor(found)
    middle.setPosition((found.selectionStart() + found.selectionEnd()) // 2)
    where: QPoint = text_edit.cursorRect(middle).center()
    qtbot.mouseClick(
        text_edit.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ControlModifier, where
    )


def test_imports_are_links_in_the_text_and_the_preview(
    qtbot: QtBot, make_window: WindowFactory, machine: Machine, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[Path] = []
    monkeypatch.setattr(ExternalOpener, "open", lambda _self, path: opened.append(path))
    window = open_claude_md(qtbot, make_window, machine)
    editor = window.memory_tab.controller.editor
    block = editor.text_edit.document().findBlockByNumber(4)
    underlined = {
        block.text()[r.start : r.start + r.length]
        for r in block.layout().formats()
        if r.format.fontUnderline()
    }
    assert underlined == {"@docs/style.md", "@.claude/rules/api.md"}
    # Ctrl+click in the text: a file no source holds opens on disk; a plain click places the cursor.
    ctrl_click(qtbot, window, "docs/style")
    assert opened == [machine.project / "docs" / "style.md"]
    # In the preview, the project's rule — a memory file the tree shows — opens in Memtab.
    editor.set_view_mode(ViewMode.PREVIEW)
    click_link(qtbot, editor.preview, "@.claude/rules/api.md")
    qtbot.waitUntil(
        lambda: editor.current_ref is not None and editor.current_ref.name == "api.md",
        timeout=WAIT_MS,
    )
    assert opened == [machine.project / "docs" / "style.md"]
