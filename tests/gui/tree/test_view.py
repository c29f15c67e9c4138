"""The scope tree's view: what it is made of, and what waits for its paint (its rows are
painted by `MemoryItemDelegate`)."""

from __future__ import annotations

import time

import pytest
import shiboken6
from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QTreeView, QWidget
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from memtab.components.tree.nodes import NodeKind, SectionId, section_key
from memtab.components.tree.tree import build_tree
from memtab.gui.tree import view as view_module
from memtab.gui.tree.model import MemoryTreeModel
from memtab.gui.tree.view import PAINT_WAIT_MS, MemoryTreeView
from memtab.store.home import Home
from support.memory_home import MAIN, scanned
from support.spies import calls_through

home = support.home


def test_the_viewport_is_made_in_python_and_set_up_as_qts_own(qtbot: QtBot) -> None:
    # Qt's own viewport, first handed to Python, costs a lookup among every QWidget
    # subclass (~8 ms before the first paint); one made in Python is known already.
    view = MemoryTreeView()
    qtbot.addWidget(view)
    plain = QTreeView()
    qtbot.addWidget(plain)
    viewport, qts = view.viewport(), plain.viewport()
    assert shiboken6.createdByPython(viewport)
    assert not shiboken6.createdByPython(qts)
    assert viewport.parentWidget() is view
    for look in ("objectName", "backgroundRole", "foregroundRole", "autoFillBackground"):
        assert getattr(viewport, look)() == getattr(qts, look)(), look


def test_what_waits_for_the_next_paint_runs_right_after_it(qtbot: QtBot) -> None:
    view = MemoryTreeView()
    qtbot.addWidget(view)
    ran: list[str] = []
    view.after_next_paint(lambda: ran.append("hidden"))
    assert ran == ["hidden"]  # a view not shown never paints: at once
    view.show()
    qtbot.waitExposed(view)
    painted: list[int] = []
    watcher = PaintCounter(view.viewport(), painted)
    view.after_next_paint(lambda: ran.append(f"after {len(painted)} paint(s)"))
    view.after_next_paint(lambda: ran.append("and the next one"))
    assert ran == ["hidden"]
    qtbot.waitUntil(lambda: len(ran) == 3, timeout=2000)
    assert ran[1:] == ["after 1 paint(s)", "and the next one"]
    view.viewport().removeEventFilter(watcher)


@pytest.mark.parametrize(
    "paint_wait_ms",
    [50, pytest.param(PAINT_WAIT_MS, marks=pytest.mark.slow)],
    ids=["short", "real"],
)
def test_what_waits_for_a_paint_that_never_comes_runs_all_the_same(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch, paint_wait_ms: int
) -> None:
    monkeypatch.setattr(view_module, "PAINT_WAIT_MS", paint_wait_ms)
    view = MemoryTreeView()
    qtbot.addWidget(view)
    view.show()
    qtbot.waitExposed(view)
    view.setUpdatesEnabled(False)  # as a minimised window: shown, never painted
    ran: list[float] = []
    started = time.monotonic()
    view.after_next_paint(lambda: ran.append(time.monotonic() - started))
    qtbot.waitUntil(lambda: bool(ran), timeout=2000)
    assert ran[0] >= paint_wait_ms / 1000 * 0.9


class PaintCounter(QObject):
    """Counts the paints of `widget`."""

    def __init__(self, widget: QWidget, paints: list[int]) -> None:
        super().__init__(widget)
        self._paints = paints
        widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint:
            self._paints.append(1)
        return False


def test_expanding_rows_by_key_makes_indexes_of_those_rows_alone(
    home: Home, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A big home's outline opens its sections among hundreds of folders before the first
    # paint: an index made for each folder was work the paint waited for.
    view = MemoryTreeView()
    qtbot.addWidget(view)
    model = MemoryTreeModel(view)
    model.replace_tree(build_tree(scanned(home, MAIN)))
    view.setModel(model)
    folders = [node for node in model.nodes() if node.kind is NodeKind.DIRECTORY and node.children]
    assert folders
    made = calls_through(monkeypatch, model, "index_for_node")
    sections = {section_key(SectionId.GLOBAL), section_key(SectionId.PROJECT)}
    view.set_expanded_keys([*sections, folders[0].key, "no such row"])
    assert {node.key for (node,) in made} == {*sections, folders[0].key}
    monkeypatch.undo()
    assert view.expanded_keys() == {*sections, folders[0].key}
