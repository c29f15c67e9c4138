"""At least 40 % of the window's code is Qt-free (issue 53's target).

The window's code is `gui/` (Qt: widgets, wiring, slots) and what it stands on that no
other front end uses without it: `components/` (the window's state, rules and jobs, plain
Python). Logic that needs no Qt belongs there, where a test reaches it without a window; a
change that grows `gui/` with it fails here.
"""

from __future__ import annotations

from pathlib import Path

import memtab

APP = Path(memtab.__file__).parent
QT_FREE_FOLDERS = ("components",)
MIN_QT_FREE_SHARE = 0.40


def _lines(folder: str) -> int:
    return sum(path.read_bytes().count(b"\n") for path in (APP / folder).rglob("*.py"))


def test_at_least_forty_percent_of_the_window_is_qt_free() -> None:
    qt_free = sum(_lines(folder) for folder in QT_FREE_FOLDERS)
    with_qt = _lines("gui")
    share = qt_free / (qt_free + with_qt)
    assert share >= MIN_QT_FREE_SHARE, (
        f"the window's Qt-free share is {share:.1%} ({qt_free} of {qt_free + with_qt} "
        "lines): what needs no Qt goes to components/ (state, rules, presenters, jobs)"
    )


def test_the_count_sees_every_folder() -> None:
    for folder in ("components", "gui"):
        assert _lines(folder) > 1_000, f"{folder}/ not found under {APP}"
