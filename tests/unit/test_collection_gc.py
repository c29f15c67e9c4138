"""A worker's collection runs without the cycle collector, which is on again once it ends
(tests/conftest.py: its passes over the collection's objects as they grew cost each worker
~0.6 s)."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

ROOT_CONFTEST = Path(__file__).resolve().parents[1] / "conftest.py"


def test_a_collection_runs_with_the_cycle_collector_off_and_ends_with_it_on(
    pytestconfig: pytest.Config,
) -> None:
    conftest = pytestconfig.pluginmanager.get_plugin(str(ROOT_CONFTEST))
    assert gc.isenabled()
    hook = conftest.pytest_collection(None)
    next(hook)
    try:
        assert not gc.isenabled()
    finally:
        with pytest.raises(StopIteration):
            hook.send(None)
    assert gc.isenabled()
