"""What tests/gui/conftest.py promises a GUI test: a widget given to `qtbot.addWidget` lives
until the test is over, and goes with the collection after it."""

from __future__ import annotations

import gc
import weakref

from PySide6.QtWidgets import QDialog
from pytestqt.qtbot import QtBot

_GONE: list[weakref.ReferenceType[QDialog]] = []


def test_a_dialog_given_to_qtbot_lives_until_the_test_is_over(qtbot: QtBot) -> None:
    dialog = QDialog()  # no parent: Python's alone
    qtbot.addWidget(dialog)
    alive = weakref.ref(dialog)
    del dialog
    gc.collect()
    assert alive() is not None
    _GONE.append(alive)


def test_and_goes_after_it() -> None:
    # the test above ran first in this module (pytest keeps a module's order)
    assert _GONE and _GONE[0]() is None
