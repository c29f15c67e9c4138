"""Every memtab item model runs under Qt's model tester in every test (support/model_tester)."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtTest import QAbstractItemModelTester
from pytestqt.qtbot import QtBot

from memtab.gui.memory_tab.workspace_picker import WorkspaceListModel, WorkspacePicker
from memtab.gui.tree.model import MemoryTreeModel
from support.model_tester import attach_tester

ModelIndex = QModelIndex | QPersistentModelIndex


def test_the_workspace_pickers_model_is_checked_and_the_lazy_tree_left_to_its_tests(
    qtbot: QtBot,
) -> None:
    picker = WorkspacePicker()
    qtbot.addWidget(picker)
    assert isinstance(picker.model, WorkspaceListModel)
    assert picker.model.findChildren(QAbstractItemModelTester)
    assert not MemoryTreeModel().findChildren(QAbstractItemModelTester)


class _NegativeRows(QAbstractListModel):
    """A model that breaks the tester's first rule: a row count below zero."""

    def rowCount(self, parent: ModelIndex = QModelIndex()) -> int:  # noqa: B008
        return -1

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        return None


@pytest.mark.expect_log("qt", "WARNING", r"^FAIL! ")  # rowCount() >= 0, then what follows
def test_a_broken_model_fails_the_test_that_builds_it() -> None:
    attach_tester(_NegativeRows())
