"""Fixtures: a home with a single-project pair of workspaces and a multi-project one."""

from __future__ import annotations

from pathlib import Path

import pytest

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


@pytest.fixture(params=["anthropic", "openai"])
def wire(request: pytest.FixtureRequest, fake_model_server: FakeModelServer) -> Wire:
    """Each model wire format in turn, against the fake model server."""
    return Wire(request.param, fake_model_server)
