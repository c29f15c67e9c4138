"""The home and the workspace store the file-operation tests (undo, redo) run on."""

from __future__ import annotations

from pathlib import Path

import pytest

from memtab.store.home import Home
from memtab.store.scopes.memory import MemoryStore
from unit.history.helpers import new_home, store_for


@pytest.fixture
def home(tmp_path: Path) -> Home:
    return new_home(tmp_path / "home")


@pytest.fixture
def store(home: Home) -> MemoryStore:
    return store_for(home)
