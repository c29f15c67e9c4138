"""The scope tree's view: what it is made of (its rows are painted by `gui/tree/rows.py`)."""

from __future__ import annotations

import shiboken6
from PySide6.QtWidgets import QTreeView
from pytestqt.qtbot import QtBot

from memtab.gui.tree.view import MemoryTreeView


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
