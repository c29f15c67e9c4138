"""What tests/gui/conftest.py promises a GUI test: a widget given to `qtbot.addWidget` lives
until the test is over, and goes with the collection after it — a whole window and an
editor panel with their contexts too, so a worker does not grow with every GUI test.

Each pair relies on pytest keeping a module's order: the first test keeps a weak reference,
the next one looks at it."""

from __future__ import annotations

import gc
import weakref

from PySide6.QtWidgets import QDialog, QWidget
from pytestqt.qtbot import QtBot

from gui import editor_support
from gui import memory_tree_support as support
from gui.memory_tree_support import WindowFactory
from memtab.gui.context import WindowContext
from memtab.gui.editor.editor import EditorPanel
from memtab.store.home import Home
from support import memory_home

home = memory_home.home
store = editor_support.store
own_writes = editor_support.own_writes
panel = editor_support.panel
make_window = support.make_window

_GONE: list[weakref.ReferenceType[QDialog]] = []
_LEFT: dict[str, list[weakref.ReferenceType[QWidget | WindowContext]]] = {}


def test_a_dialog_given_to_qtbot_lives_until_the_test_is_over(qtbot: QtBot) -> None:
    dialog = QDialog()  # no parent: Python's alone
    qtbot.addWidget(dialog)
    alive = weakref.ref(dialog)
    del dialog
    gc.collect()
    assert alive() is not None
    _GONE.append(alive)


def test_and_goes_after_it() -> None:
    assert _GONE and _GONE[0]() is None


def test_a_window_is_made(make_window: WindowFactory, home: Home) -> None:
    window = make_window(home)
    _LEFT["window"] = [weakref.ref(window), weakref.ref(window.context)]


def test_and_goes_with_its_context_after_it() -> None:
    assert _LEFT.get("window") and all(left() is None for left in _LEFT["window"])


def test_an_editor_panel_is_made(panel: EditorPanel) -> None:
    _LEFT["panel"] = [weakref.ref(panel)]


def test_and_goes_after_it_too() -> None:
    assert _LEFT.get("panel") and all(left() is None for left in _LEFT["panel"])
