"""Fixtures: a home with a single-project pair of workspaces and a multi-project one."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from memtab.consolidation import running
from memtab.consolidation.running import SCOPE_WAIT_S, check_scopes_free
from memtab.store.home import Home
from memtab.store.scopes.memory import MemoryStore
from support.fake_model_server import FakeModelServer

from .helpers import WS, FakeClock, Wire, new_home, store_for


@pytest.fixture
def home(tmp_path: Path) -> Home:
    return new_home(tmp_path / "home")


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def store(home: Home) -> MemoryStore:
    """The store of workspace WS (project PROJECT)."""
    return store_for(home, WS)


@pytest.fixture(
    params=[0.2, pytest.param(SCOPE_WAIT_S, marks=pytest.mark.slow)], ids=["short", "real"]
)
def scope_wait_s(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> float:
    """How long a run waits for a scope another process holds: the app's SCOPE_WAIT_S in the
    slow tier, and in the fast tier the same wait made short, so a test of a refusal does not
    sit through 1.8 s to see it (`check_scopes_free` binds its default when defined: the
    run-time half's name for it is what a run calls)."""
    wait_s: float = request.param
    patched = functools.partial(check_scopes_free, wait_s=wait_s)
    monkeypatch.setattr(running, "check_scopes_free", patched)
    return wait_s


@pytest.fixture(params=["anthropic", "openai"])
def wire(request: pytest.FixtureRequest, fake_model_server: FakeModelServer) -> Wire:
    """Each model wire format in turn, against the fake model server."""
    return Wire(request.param, fake_model_server)
