"""`toolkit.row_list`: a narrow list keeps room for its stretching column (the History
dock's "Change" at 683 px was cut to "First…" while "Who" kept its whole width)."""

from __future__ import annotations

from PySide6.QtWidgets import QTreeWidgetItem
from pytestqt.qtbot import QtBot

from memtab.gui.toolkit.row_list import STRETCH_SHARE, RowList, column_cap, fitted_widths

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
