"""Benchmark: what the cross-process scope lock costs each memory-tool edit.

Run: .venv/bin/python -m pytest --bench tests/bench/test_lock_bench.py -s
Prints the median of taking and releasing the lock alone, and xum's two lock files alone
(`store.xum_locks`: the target lock, memory-meta.json's with Memtab's own), and of a whole
`str_replace` edit with the locks (Memtab's and xum's target lock) and with them taken
away (target: the locks add under 2 ms).
"""

from __future__ import annotations

import contextlib
import statistics
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from memtab.fs.locking.locks import interprocess_lock
from memtab.store import xum_locks
from memtab.store.home import Home
from memtab.store.paths import Scope
from memtab.store.scopes.memory import MemoryStore
from memtab.store.scopes.scope_dir import ScopeDir
from memtab.store.scopes.tool import MemoryTool

LOCK_ROUNDS = 2000
EDIT_ROUNDS = 300


def _median_ms(action: Callable[[], object], rounds: int) -> float:
    action()  # warm up: imports, lock file and directories exist
    samples = []
    for _ in range(rounds):
        started = time.perf_counter()
        action()
        samples.append(time.perf_counter() - started)
    return statistics.median(samples) * 1000


@pytest.mark.bench
def test_scope_lock_cost_per_tool_edit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = MemoryStore(Home(tmp_path / "home"))
    tool = MemoryTool(store)
    path = "/memories/global/notes.md"
    assert tool.execute({"command": "create", "path": path, "file_text": "alpha\n"}).success
    lock_path = store.scope_lock_path(Scope.GLOBAL)

    def lock_alone() -> None:
        with interprocess_lock(lock_path):
            pass

    def xum_target_alone() -> None:
        with xum_locks.holding_targets(store.home, [store.home.global_root]):
            pass

    def xum_meta_alone() -> None:
        with xum_locks.holding_meta(store.home):
            pass

    words = ("alpha", "beta")
    state = [0]

    def edit() -> None:
        old, new = words[state[0] % 2], words[(state[0] + 1) % 2]
        state[0] += 1
        result = tool.execute(
            {"command": "str_replace", "path": path, "old_str": old, "new_str": new}
        )
        assert result.success, result.error

    @contextlib.contextmanager
    def no_lock(*scopes: Scope) -> Iterator[tuple[ScopeDir, ...]]:
        yield tuple(store.scope_dir(scope) for scope in scopes)

    locked_writing = store.writing

    def edit_without_lock() -> None:
        monkeypatch.setattr(store, "writing", no_lock)
        try:
            edit()
        finally:
            monkeypatch.setattr(store, "writing", locked_writing)

    lock_ms = _median_ms(lock_alone, LOCK_ROUNDS)
    xum_target_ms = _median_ms(xum_target_alone, LOCK_ROUNDS)
    xum_meta_ms = _median_ms(xum_meta_alone, LOCK_ROUNDS)
    # Alternate the two kinds of edit, so that load from other processes (and the disk's
    # fsync times, which dominate an edit) hits both alike.
    with_lock, without_lock = [], []
    for _ in range(EDIT_ROUNDS):
        for action, samples in ((edit, with_lock), (edit_without_lock, without_lock)):
            started = time.perf_counter()
            action()
            samples.append(time.perf_counter() - started)
    with_lock_ms = statistics.median(with_lock) * 1000
    without_lock_ms = statistics.median(without_lock) * 1000
    print(
        f"\nscope lock, acquire + release (median of {LOCK_ROUNDS}): {lock_ms:.3f} ms"
        f"\nxum's target lock file: {xum_target_ms:.3f} ms; memory-meta.json's two locks: "
        f"{xum_meta_ms:.3f} ms"
        f"\nstr_replace edit (median of {EDIT_ROUNDS}, alternating): {with_lock_ms:.3f} ms "
        f"with the lock, {without_lock_ms:.3f} ms without: the lock adds "
        f"{with_lock_ms - without_lock_ms:.3f} ms (target < 2 ms)"
    )
