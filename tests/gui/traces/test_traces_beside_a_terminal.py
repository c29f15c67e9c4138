"""The Traces tab in a 683-px window (half a laptop's screen, beside a terminal): the
detail's short fields and every table's columns show without scrolling sideways."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtWidgets import QTreeView
from pytestqt.qtbot import QtBot

from memtab.demo import create_demo_home
from memtab.gui.tasks.jobs import JobService
from memtab.gui.traces.feature import TracesTab
from memtab.gui.traces.models import ToolExecutionModel, TraceListModel

WAIT_MS = 10_000


@pytest.fixture
def tab(tmp_path: Path, qtbot: QtBot, jobs: JobService) -> Iterator[TracesTab]:
    """The demo home's dumps, the newest (a timed-out run with two tool calls) shown."""
    tab = TracesTab(create_demo_home(tmp_path / "home"), None, jobs)
    qtbot.addWidget(tab)
    tab.resize(1300, 800)
    with qtbot.waitSignal(tab.scan_finished, timeout=WAIT_MS):
        tab.show()
    qtbot.waitUntil(lambda: tab.detail.dump is not None, timeout=WAIT_MS)
    yield tab
    tab.shutdown()


def test_the_short_fields_show_whole(tab: TracesTab, qtbot: QtBot) -> None:
    # Two pairs a row squeezed the right values to "a…5" in a 683-px window.
    tab.resize(683, 740)
    detail = tab.detail
    short = ("model", "trigger", "timeout", "attempts", "wrote_memory")
    qtbot.waitUntil(lambda: all("…" not in detail.fields[key].text() for key in short))
    tab.resize(1300, 800)  # room again: two pairs a row
    qtbot.waitUntil(lambda: detail.fields["model"].y() == detail.fields["workspace"].y())
    assert "…" not in detail.fields["model"].text()


def _fits(table: QTreeView) -> bool:
    header = table.header()
    columns = sum(header.sectionSize(column) for column in range(header.count()))
    return columns <= table.viewport().width() + 1


def test_the_tables_show_every_column(tab: TracesTab, qtbot: QtBot) -> None:
    # The dump list's Outcome was cut at the right edge and its Error out of view; the tool
    # calls' "Output or error" was past the edge: each scrolled sideways.
    tab.resize(683, 740)
    page = tab.detail.attempt_pages[0]
    assert page.tool_model.rowCount()
    tables = (tab.list_view, page.tool_table)
    qtbot.waitUntil(lambda: all(_fits(table) for table in tables))
    outcome = tab.list_view.header().sectionSize(TraceListModel.OUTCOME)
    assert outcome > tab.list_view.fontMetrics().horizontalAdvance("Timed out")  # whole
    assert page.tool_table.header().sectionSize(ToolExecutionModel.RESULT) > 0
    assert not any(table.horizontalScrollBar().isVisible() for table in tables)
