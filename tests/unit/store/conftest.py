"""Fixtures for the store tests: a temp home with one registered single-project workspace."""

from __future__ import annotations

from pathlib import Path

import pytest

from memtab.store.home import Home
from memtab.store.scopes.memory import MemoryStore
from memtab.store.scopes.tool import MemoryTool
from memtab.store.sidecars.registry import (
    MULTI_PROJECT_KEY,
    Workspace,
    add_workspace,
    load_registry,
)

from .helpers import MULTI_ID, PROJECT, WORKSPACE_ID, FakeClock


@pytest.fixture
def home(tmp_path: Path) -> Home:
    """An empty home (nothing exists on disk yet)."""
    return Home(tmp_path / "home")


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def workspace(home: Home) -> Workspace:
    """Workspace WORKSPACE_ID of project PROJECT, registered in config.json."""
    add_workspace(home, PROJECT, "main", workspace_id=WORKSPACE_ID)
    return load_registry(home).require_workspace(WORKSPACE_ID)


@pytest.fixture
def store(home: Home, workspace: Workspace, clock: FakeClock) -> MemoryStore:
    return MemoryStore(home, workspace, clock=clock)


@pytest.fixture
def tool(store: MemoryStore) -> MemoryTool:
    return MemoryTool(store)


@pytest.fixture
def multi_store(home: Home, clock: FakeClock) -> MemoryStore:
    """A store for a multi-project workspace (no project identity)."""
    add_workspace(home, MULTI_PROJECT_KEY, "multi", workspace_id=MULTI_ID)
    workspace = load_registry(home).require_workspace(MULTI_ID)
    return MemoryStore(home, workspace, clock=clock)
