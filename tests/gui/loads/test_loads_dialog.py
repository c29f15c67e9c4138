"""View → What each agent loads, in the window: filled on a worker for the shown workspace,
MEMORY.md's cut said in its row (wrapped, never elided), `@`-imports under the file that
imports them, a row opens its file — in the external editor when no source holds it
(docs/formats.md §17.6). MEMORY.md's cut in the editor: test_memory_md_cut."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QStyleOptionViewItem, QTreeWidgetItem
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.editor_support import settle
from gui.memory_tree_support import WAIT_MS, WindowFactory, wait_idle
from memtab.gui.first_paint.main_window import MainWindow
from memtab.gui.loads import feature as loads_feature
from memtab.gui.loads.dialog import FILE_ROLE, STOPS_COLUMN, LoadsDialog
from memtab.gui.toolkit.external_editor import ExternalOpener
from memtab.gui.window import keys
from memtab.humanize import display_path
from memtab.loads.records import LoadedFile
from memtab.store.sidecars.registry import add_workspace
from support.agent_machine import WORKSPACE_ID, Machine, build_machine

pytestmark = pytest.mark.no_background_runs  # no writer, no check at start: none is tested here

make_window = support.make_window


@pytest.fixture
def machine(tmp_path: Path) -> Machine:
    return build_machine(tmp_path / "machine")


def open_loads(
    qtbot: QtBot, make_window: WindowFactory, machine: Machine
) -> tuple[MainWindow, LoadsDialog]:
    window = make_window(machine.home, WORKSPACE_ID, source_context=lambda _home: machine.context())
    qtbot.waitUntil(lambda: window.memory_tab.is_sources_loaded, timeout=WAIT_MS)
    wait_idle(qtbot, window)
    window.context.actions.action("loads.show").trigger()
    feature = window.part(keys.LOADS)
    assert feature is not None and feature.dialog is not None
    dialog = feature.dialog
    qtbot.waitUntil(lambda: dialog.tree.topLevelItemCount() == 4, timeout=WAIT_MS)
    return window, dialog


def rows(agent: QTreeWidgetItem) -> list[QTreeWidgetItem]:
    return [agent.child(index) for index in range(agent.childCount())]


def test_each_agent_in_its_order_with_memory_mds_cut(
    qtbot: QtBot, make_window: WindowFactory, machine: Machine
) -> None:
    window, dialog = open_loads(qtbot, make_window, machine)
    claude, codex, xum, gemini = (dialog.tree.topLevelItem(i) for i in range(4))
    assert claude.text(0).startswith("Claude Code — about ")
    assert codex.text(0).startswith("Codex — about ") and xum.text(0).startswith("xum — about ")
    assert gemini.text(0).startswith("Gemini CLI — about ")
    index = next(row for row in rows(claude) if row.text(0).endswith("MEMORY.md"))
    assert (index.text(1), index.text(2)) == ("249", "200")
    assert index.text(4).startswith("From line 201 on it is not read")
    # A topic file Claude Code cannot recall well, after it, says why; the notes say how.
    topic = rows(claude)[-1]
    assert topic.text(0).endswith("notiontalk-landing-strategy.md")
    assert topic.text(4).startswith("No description: Claude Code picks the topic files")
    assert "Topic files are not read at the start" in claude.text(4)
    assert str(machine.project) in dialog.summary.text()
    # Activating the row opens MEMORY.md in the Memory tab.
    dialog.tree.itemActivated.emit(index, 0)
    editor = window.memory_tab.controller.editor
    file = index.data(0, FILE_ROLE)
    assert isinstance(file, LoadedFile) and file.id is not None
    qtbot.waitUntil(lambda: editor.current_ref is not None, timeout=WAIT_MS)
    settle(qtbot, editor)
    assert editor.real_path == machine.claude_memory / "MEMORY.md"


def test_the_dialog_follows_the_workspace_the_memory_tab_shows(
    qtbot: QtBot, make_window: WindowFactory, machine: Machine
) -> None:
    other = machine.project.parent / "billing"
    other.mkdir()
    add_workspace(machine.home, str(other), "main", workspace_id="b1b2c3d4e5")
    window, dialog = open_loads(qtbot, make_window, machine)
    assert str(machine.project) in dialog.summary.text()
    window.memory_tab.switch_workspace("b1b2c3d4e5")
    qtbot.waitUntil(lambda: str(other) in dialog.summary.text(), timeout=WAIT_MS)


def test_imports_are_under_their_importer_and_a_file_outside_opens_on_disk(
    qtbot: QtBot, make_window: WindowFactory, machine: Machine, monkeypatch: pytest.MonkeyPatch
) -> None:
    (machine.project / "docs").mkdir()
    (machine.project / "docs" / "style.md").write_text("# Style\n\n- short lines\n")
    (machine.project / "CLAUDE.md").write_text(
        "# acme-api\n\nUse make check.\n\nSee @docs/style.md for the style.\n"
    )
    opened: list[Path] = []
    monkeypatch.setattr(ExternalOpener, "open", lambda _self, path: opened.append(path))
    window, dialog = open_loads(qtbot, make_window, machine)
    claude = dialog.tree.topLevelItem(0)
    claude_md = next(row for row in rows(claude) if row.text(0) == "./CLAUDE.md")  # the project's
    [style] = rows(claude_md)
    assert style.text(0) == "style.md"
    assert style.text(4) == "Imported by CLAUDE.md, line 5. Read whole"
    dialog.tree.itemActivated.emit(style, 0)  # no source holds it: on disk, as it is
    assert opened == [machine.project / "docs" / "style.md"]
    assert window.memory_tab.controller.editor.current_ref is None


def test_where_it_stops_wraps_at_half_a_laptop(
    qtbot: QtBot, make_window: WindowFactory, machine: Machine
) -> None:
    _window, dialog = open_loads(qtbot, make_window, machine)
    dialog.resize(683, 520)
    dialog.show()
    qtbot.waitExposed(dialog)
    index = next(r for r in rows(dialog.tree.topLevelItem(0)) if r.text(0).endswith("MEMORY.md"))
    reason = index.text(4)
    assert reason.startswith("From line 201 on it is not read")
    column = dialog.tree.header().sectionSize(4)
    line = dialog.tree.fontMetrics().height()
    assert dialog.tree.fontMetrics().horizontalAdvance(reason) > column  # longer than a line
    qtbot.waitUntil(lambda: dialog.tree.visualItemRect(index).height() >= 2 * line)


def test_a_claude_code_memory_folder_that_comes_or_goes_while_it_shows_is_followed(
    qtbot: QtBot,
    make_window: WindowFactory,
    machine: Machine,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A source that appears or goes while the window runs is its files appearing or going,
    # here too: the row with the keyboard keeps it.
    monkeypatch.setattr(loads_feature, "AGAIN_AFTER_MS", 50)
    away = tmp_path / "away"
    machine.claude_memory.rename(away)  # Claude Code has not written its memory yet
    window, dialog = open_loads(qtbot, make_window, machine)
    support.wait_watching(qtbot, window)
    claude = dialog.tree.topLevelItem(0)
    assert not any(row.text(0).endswith("MEMORY.md") for row in rows(claude))
    rule = next(row for row in rows(claude) if row.text(0).endswith("testing.md"))
    dialog.tree.setCurrentItem(rule)

    def memory_md_listed() -> bool:
        agent = dialog.tree.topLevelItem(0)
        return agent is not None and any(row.text(0).endswith("MEMORY.md") for row in rows(agent))

    away.rename(machine.claude_memory)  # its first memory, at a session's end
    qtbot.waitUntil(memory_md_listed, timeout=WAIT_MS)
    current = dialog.tree.currentItem()
    assert current is not None and current.text(0).endswith("testing.md")
    machine.claude_memory.rename(away)
    qtbot.waitUntil(lambda: not memory_md_listed(), timeout=WAIT_MS)


def test_a_row_names_its_file_as_its_agent_does_its_end_kept_when_cut(
    qtbot: QtBot, make_window: WindowFactory, machine: Machine
) -> None:
    """Issue 81 point 7: every row of Claude Code, Codex and Gemini CLI read
    `…/other-agents/…` (a path wrapped at its slashes, its end cut): a row is named as
    the agent names the file, on one line, cut in its middle when the column is narrow."""
    _window, dialog = open_loads(qtbot, make_window, machine)
    claude = dialog.tree.topLevelItem(0)
    labels = [row.text(0) for row in rows(claude)]
    assert "./CLAUDE.md" in labels
    user = next(row for row in rows(claude) if row.data(0, FILE_ROLE).kind == "user")
    file = user.data(0, FILE_ROLE)
    assert user.text(0) == file.name and file.name.endswith("/CLAUDE.md")
    assert file.physical_path in user.toolTip(0) or display_path(file.physical_path) in (
        user.toolTip(0)
    )
    delegate = dialog.tree.itemDelegate()
    wrap = QStyleOptionViewItem.ViewItemFeature.WrapText
    for column, wraps in ((0, False), (STOPS_COLUMN, True)):
        option = QStyleOptionViewItem()
        option.features |= wrap  # as the view asks, its words wrapped
        delegate.initStyleOption(option, dialog.tree.indexFromItem(user, column))
        assert bool(option.features & wrap) is wraps, column
