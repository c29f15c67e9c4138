"""Homes and stores for the history tests."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from memtab.llm.types import ToolCall
from memtab.store.catch_up import external
from memtab.store.history.versions import ScopeHistory, Version
from memtab.store.home import Home
from memtab.store.paths import Scope, parse_file_path
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.registry import add_workspace, load_registry

PROJECT = "/home/dev/src/app"
WS = "a1a1a1a1a1"


def new_home(root: Path) -> Home:
    home = Home(root)
    add_workspace(home, PROJECT, "main", workspace_id=WS)
    return home


def store_for(home: Home, *, actor: str = "user", run_id: str | None = None) -> MemoryStore:
    return MemoryStore(home, load_registry(home).require_workspace(WS), actor=actor, run_id=run_id)


def versions(store: MemoryStore, scope: Scope = Scope.GLOBAL) -> list[Version]:
    return ScopeHistory(store.home, store.history_key(scope)).versions()


def disk(store: MemoryStore, path: str) -> bytes | None:
    physical = store.physical(parse_file_path(path))
    return physical.read_bytes() if physical.exists() else None


def memory_call(call_id: str, **arguments: Any) -> ToolCall:
    return ToolCall(call_id, "memory", arguments)


HOUR_NS = 3600 * 1_000_000_000


def passes_at(monkeypatch: pytest.MonkeyPatch, *, later_ns: int = 0) -> None:
    """`record_external` passes from here on run at this moment, `later_ns` on (a file written
    before it then modified that long before; a ctime cannot be set back)."""
    fixed_ms = (time.time_ns() + later_ns) // 1_000_000
    monkeypatch.setattr(external, "now_ms", lambda: fixed_ms)
