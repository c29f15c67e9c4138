"""Every item model Memtab builds in a test runs under Qt's model tester, for its whole life.

`QAbstractItemModelTester` re-checks a model's invariants (indexes, parents, row counts,
the begin/end pairs of inserts, removes, moves and resets, data roles) after every change
the model announces. pytest-qt's `qtmodeltester` attaches it where a test asks; this
plugin attaches it to each instance of every `QAbstractItemModel` subclass under
`memtab.` the moment it is built — the workspace picker as the registry changes, the
Traces tables as dumps arrive — so every GUI test is also a model test. The tester
reports through Qt warnings, which fail the test (tests/support/logfail.py).

A lazy model (one that fetches rows as they are opened: the Memory tree) is left to its
own tests (tests/gui/tree/test_memory_tree_model.py, through pytest-qt's tester): Qt's
tester fetches every row it can, so attached everywhere it would fill the folders the
window keeps unfilled, from inside the model's own signals, and change what each test
sees.

A model class is found once its module is imported (before the test that builds it, or
by the time the next test starts).
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import Any

_checked: set[type] = set()
# How many modules were loaded at the last look: a model class is made when its module is
# imported (none of Memtab's is made inside a function), so with no module new since, no
# class is either — and the walk over every item model class Qt and Memtab define cost
# each test ~31 µs of a worker's CPU (2,000 empty tests after the fast tier's collection).
_modules_seen = 0


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


def _is_lazy(cls: type) -> bool:
    return any(
        "fetchMore" in vars(base) for base in cls.__mro__ if base.__module__.startswith("memtab.")
    )


def attach_tester(model: Any) -> None:
    """Qt's tester on `model` for as long as it lives (its child)."""
    from PySide6.QtTest import QAbstractItemModelTester

    QAbstractItemModelTester(model, QAbstractItemModelTester.FailureReportingMode.Warning, model)


def _checking(cls: type, init: Callable[..., None]) -> Callable[..., None]:
    @functools.wraps(init)
    def init_then_check(self: Any, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        if type(self) is cls:  # built whole: a subclass's own __init__ has run too
            attach_tester(self)

    return init_then_check


def check_models_built_from_now() -> None:
    """Qt's tester on each model of a class found since the last call (each test's fixture
    in tests/conftest.py)."""
    global _modules_seen
    if "PySide6.QtCore" in sys.modules and len(sys.modules) != _modules_seen:
        _modules_seen = len(sys.modules)
        for cls in _memtab_model_classes():
            if cls not in _checked:  # its own __init__, or the one it inherits
                if not _is_lazy(cls):
                    cls.__init__ = _checking(cls, cls.__init__)  # type: ignore[misc]
                _checked.add(cls)
