"""Every item model Memtab builds in a test runs under Qt's model tester, for its whole life.

`QAbstractItemModelTester` re-checks a model's invariants (indexes, parents, row counts,
the begin/end pairs of inserts, removes, moves and resets, data roles) after every change
the model announces. pytest-qt's `qtmodeltester` attaches it where a test asks; this
plugin attaches it to each instance of every `QAbstractItemModel` subclass under
`memtab.` the moment it is built — the Memory tree as its scans merge, search filters and
files move, the workspace picker as the registry changes, the Traces tables as dumps
arrive — so every GUI test is also a model test. The tester reports through Qt warnings,
which fail the test (tests/support/logfail.py).

A model class is found once its module is imported (before the test that builds it, or
by the time the next test starts).
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Iterator
from typing import Any

import pytest

_checked: set[type] = set()


def _memtab_model_classes() -> list[type]:
    from PySide6.QtCore import QAbstractItemModel

    found: list[type] = []
    pending = list(QAbstractItemModel.__subclasses__())
    while pending:
        cls = pending.pop()
        pending.extend(cls.__subclasses__())
        if cls.__module__.startswith("memtab."):
            found.append(cls)
    return found


# Every signal Qt's tester re-checks the model on.
_SIGNALS = (
    "rowsAboutToBeInserted",
    "rowsInserted",
    "rowsAboutToBeRemoved",
    "rowsRemoved",
    "rowsAboutToBeMoved",
    "rowsMoved",
    "columnsAboutToBeInserted",
    "columnsInserted",
    "columnsAboutToBeRemoved",
    "columnsRemoved",
    "columnsAboutToBeMoved",
    "columnsMoved",
    "modelAboutToBeReset",
    "modelReset",
    "layoutAboutToBeChanged",
    "layoutChanged",
    "dataChanged",
    "headerDataChanged",
)


def attach_tester(model: Any) -> None:
    """Qt's tester on `model` for as long as it lives, never fetching for it.

    Qt's tester asks a lazy model for every row it can fetch (`fetchMore`): the Memory
    tree would fill the folders the window keeps unfilled until they are opened, and fill
    them from inside its own insert's signals, which the tester then reports as a nested
    change. So a lazy model does not fetch while the tester checks it (`_fetch_more_
    unless_checked`): slots connected just before and just after the tester's own, on each
    signal it listens to, mark when it runs. The checks cover the rows the app loaded.
    """
    from PySide6.QtTest import QAbstractItemModelTester

    def enter(*_args: Any) -> None:
        model._memtab_checking += 1

    def leave(*_args: Any) -> None:
        model._memtab_checking -= 1

    for name in _SIGNALS:
        getattr(model, name).connect(enter)
    model._memtab_checking = 1  # its first checks run as it is built
    QAbstractItemModelTester(model, QAbstractItemModelTester.FailureReportingMode.Warning, model)
    model._memtab_checking = 0
    for name in _SIGNALS:
        getattr(model, name).connect(leave)


def _fetch_more_unless_checked(fetch_more: Callable[[Any, Any], None]) -> Callable[..., None]:
    @functools.wraps(fetch_more)
    def fetch_more_unless_checked(self: Any, parent: Any) -> None:
        if not getattr(self, "_memtab_checking", 0):
            fetch_more(self, parent)

    return fetch_more_unless_checked


def _checking(cls: type, init: Callable[..., None]) -> Callable[..., None]:
    @functools.wraps(init)
    def init_then_check(self: Any, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        if type(self) is cls:  # built whole: a subclass's own __init__ has run too
            attach_tester(self)

    return init_then_check


@pytest.fixture(autouse=True)
def _memtab_item_models_are_checked() -> Iterator[None]:
    if "PySide6.QtCore" in sys.modules:
        for cls in _memtab_model_classes():
            if cls not in _checked:  # its own __init__, or the one it inherits
                cls.__init__ = _checking(cls, cls.__init__)  # type: ignore[misc]
                if "fetchMore" in vars(cls):
                    lazy = vars(cls)["fetchMore"]
                    cls.fetchMore = _fetch_more_unless_checked(lazy)  # type: ignore[attr-defined]
                _checked.add(cls)
    yield
