"""GUI tests: Python's cycle collector runs on the test's own thread after each test.

A reference cycle that holds Qt wrappers (a window, its slots, a test's lambdas) is freed
by the cycle collector, on whichever thread happens to allocate when it runs — possibly
a worker thread of the next test, where deleting Qt objects crashes the process. Running
it here, on the GUI thread, frees them where Qt expects.

The offscreen screen is 800×600, a laptop's width by `gui.first_paint.geometry`'s measure: its
first windows would open maximized, and the tests size their windows themselves. They
open unmaximized (`test_layout` checks the maximizing on its own).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from memtab.gui.first_paint import geometry


@pytest.fixture(autouse=True, scope="session")
def _what_the_collection_loaded_out_of_the_collector() -> None:
    """The modules and test items loaded by then (~275,000 objects) are never garbage: kept
    out of the collector (`gc.freeze`), the collection after each test scans only what
    tests made — a full one took ~0.2 s of CPU, after each of ~1,500 GUI tests."""
    gc.collect()
    gc.freeze()


@pytest.fixture(autouse=True)
def _collect_garbage_on_the_gui_thread(
    _what_the_collection_loaded_out_of_the_collector: None,
) -> Iterator[None]:
    yield
    gc.collect()


@pytest.fixture(autouse=True)
def _first_windows_unmaximized(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(geometry, "LAPTOP_WIDTH", 0)
