"""GUI tests: Python's cycle collector runs on the test's own thread after each test.

A reference cycle that holds Qt wrappers (a window, its slots, a test's lambdas) is freed
by the cycle collector, on whichever thread happens to allocate when it runs — possibly
a worker thread of the next test, where deleting Qt objects crashes the process. Running
it here, on the GUI thread, frees them where Qt expects.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def _collect_garbage_on_the_gui_thread() -> Iterator[None]:
    yield
    gc.collect()
