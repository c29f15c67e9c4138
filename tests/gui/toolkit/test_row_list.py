"""`toolkit.row_list`: a narrow list keeps room for its stretching column (the History
dock's "Change" at 683 px was cut to "First…" while "Who" kept its whole width), and a
narrow table over a model shows every column (the Traces tab's scrolled sideways)."""

from __future__ import annotations

from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QHeaderView, QTreeWidgetItem
from pytestqt.qtbot import QtBot

from memtab.gui.toolkit.row_list import (
    STRETCH_SHARE,
    FittedTable,
    RowList,
    column_cap,
    fitted_widths,
)

LONG_WHO = "xum · workspace writer of feature-branch-with-a-long-name"


def test_the_widest_columns_give_up_width_first() -> None:
    assert column_cap([40, 60, 90], 200) is None  # they fit
    assert column_cap([40, 300, 50], 150) == 60  # the narrow two keep theirs: 40 + 50 + 60
    assert column_cap([100, 100], 100) == 50
    assert column_cap([10, 20], 0) == 1


def test_whole_columns_keep_their_width_and_the_others_stop_at_the_least() -> None:
    # When, Who, Change (stretching), Size in a 300 px list: 200 px for the three others.
    fitted = fitted_widths([60, 400, 0, 80], stretch=2, whole=(0, 3), width=300, least=40)
    assert fitted == [60, 60, 100, 80]
    fitted = fitted_widths([60, 400, 0, 80], stretch=2, whole=(0, 3), width=150, least=40)
    assert fitted == [60, 40, 0, 80]  # nothing left to stretch: it gets no width, not less
    fitted = fitted_widths([60, 90, 0, 80], stretch=2, whole=(), width=900, least=40)
    assert fitted == [60, 90, 670, 80]  # room for all: each as wide as its contents


def _versions(qtbot: QtBot) -> RowList:
    rows = RowList(["When", "Who", "Change", "Size"], "Versions", stretch=2, whole=(0,))
    qtbot.addWidget(rows)
    rows.addTopLevelItem(QTreeWidgetItem(["5 min ago", LONG_WHO, "First version", "1.2 KB"]))
    return rows


def test_a_narrow_list_keeps_its_stretching_column_in_view(qtbot: QtBot) -> None:
    rows = _versions(qtbot)
    rows.resize(360, 200)
    rows.show()
    qtbot.waitExposed(rows)
    header, metrics = rows.header(), rows.fontMetrics()
    width = rows.viewport().width()
    qtbot.waitUntil(lambda: header.sectionSize(2) >= int(width * STRETCH_SHARE) - 1)
    assert header.sectionSize(1) < metrics.horizontalAdvance(LONG_WHO)
    assert header.sectionSize(0) > metrics.horizontalAdvance("5 min ago")  # whole
    assert header.sectionSize(3) > metrics.horizontalAdvance("1.2 KB")  # fits: not cut
    assert sum(header.sectionSize(column) for column in range(4)) <= width + 1


def test_a_wide_list_shows_every_column_whole(qtbot: QtBot) -> None:
    rows = _versions(qtbot)
    rows.resize(360, 200)
    rows.show()
    qtbot.waitExposed(rows)
    rows.resize(1200, 200)  # widened again: "Who" is whole once more
    header = rows.header()
    qtbot.waitUntil(lambda: header.sectionSize(1) >= rows.fontMetrics().horizontalAdvance(LONG_WHO))
    assert header.sectionSize(2) > int(rows.viewport().width() * STRETCH_SHARE)


def _table_of(rows: list[list[str]], headers: list[str]) -> QStandardItemModel:
    model = QStandardItemModel()
    model.setHorizontalHeaderLabels(headers)
    for row in rows:
        model.appendRow([QStandardItem(text) for text in row])
    return model


def test_a_narrow_table_shows_every_column_without_scrolling_sideways(qtbot: QtBot) -> None:
    # The Traces tab's tool calls at 683 px: "Output or error" was past the right edge.
    table = FittedTable("Tool executions")
    qtbot.addWidget(table)
    headers = ["Tool", "Input", "Output or error", "Duration", "Started"]
    call = ["memory_write", '{"old_string": "' + "x" * 200 + '"}', "old_string matched 0 times"]
    table.set_model(_table_of([[*call, "2 ms", "+6.9 s"]], headers), stretch=2, whole=(3, 4))
    table.resize(340, 160)
    table.show()
    qtbot.waitExposed(table)
    header, metrics = table.header(), table.fontMetrics()
    width = table.viewport().width()
    qtbot.waitUntil(lambda: sum(header.sectionSize(c) for c in range(5)) <= width + 1)
    assert header.sectionSize(2) > 0  # in view, not past the edge
    assert header.sectionSize(1) < metrics.horizontalAdvance(call[1])  # gave up width
    assert header.sectionSize(3) >= metrics.horizontalAdvance("Duration")  # whole
    assert not table.horizontalScrollBar().isVisible()


def test_a_table_fits_the_columns_of_each_model_it_shows(qtbot: QtBot) -> None:
    # An Inspector shows one model after another, each with its own columns.
    table = FittedTable("Events")
    qtbot.addWidget(table)
    table.set_model(_table_of([["1", "2"]], ["#", "Summary"]), stretch=1, whole=(0,))
    table.resize(600, 160)
    table.show()
    qtbot.waitExposed(table)
    text = "The refresh endpoint returns 401 after the token rotates"
    table.set_model(
        _table_of([["0", "user", text, "bash ×3"]], ["#", "Role", "Text", "Tools"]),
        stretch=2,
        whole=(0,),
    )
    header = table.header()
    width = table.viewport().width()
    qtbot.waitUntil(lambda: header.sectionSize(2) >= int(width * STRETCH_SHARE) - 1)
    assert header.sectionResizeMode(2) == QHeaderView.ResizeMode.Stretch
    assert header.sectionResizeMode(1) == QHeaderView.ResizeMode.ResizeToContents
    assert header.sectionSize(3) >= table.fontMetrics().horizontalAdvance("bash ×3")


def test_a_column_follows_its_contents_as_they_change(qtbot: QtBot) -> None:
    # The widths measured are kept for the rows in view until the model changes them.
    model = _table_of([["Tool", "5 min ago", "x"]], ["Tool", "When", "Text"])
    table = FittedTable("Calls")
    qtbot.addWidget(table)
    table.set_model(model, stretch=2)
    table.resize(900, 160)
    table.show()
    qtbot.waitExposed(table)
    header = table.header()
    before = header.sectionSize(0)
    longer = "memory_write_with_a_much_longer_name"
    item = model.item(0, 0)
    assert item is not None
    item.setText(longer)
    wanted = table.fontMetrics().horizontalAdvance(longer)
    qtbot.waitUntil(lambda: header.sectionSize(0) >= wanted)
    assert header.sectionSize(0) > before
