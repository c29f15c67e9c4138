"""A run that cannot start says so within 2 s, whatever locks another process holds
(docs/formats.md §9.1): with the runs log and every scope held it waited 10 s for the
runs log, then 2 s for a scope."""

from __future__ import annotations

from pathlib import Path

import pytest

from memtab.cli.main import main
from memtab.consolidation.running import CATCH_UP_WAIT_S, SCOPE_WAIT_S
from memtab.demo import MAIN_ID
from memtab.fs.locking.locks import InterprocessLock, LockUnavailableError
from memtab.store.paths import Scope
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.registry import load_registry
from support.demo_homes import copied_demo_home
from support.processes import python_child

HOLDER = """
import sys
from pathlib import Path
from memtab.fs.locking.locks import InterprocessLock
locks = [InterprocessLock(Path(path)) for path in sys.argv[1:]]
for lock in locks:
    lock.acquire(5)
print("held", flush=True)
sys.stdin.readline()
"""


@pytest.mark.expect_log("memtab.store.history.runs", "WARNING", r"Could not add mux.s runs")
def test_a_run_with_every_lock_held_is_refused_after_at_most_2_s_of_waiting(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    scope_wait_s: float,
) -> None:
    home = copied_demo_home(tmp_path / "demo")
    store = MemoryStore(home, load_registry(home).require_workspace(MAIN_ID))
    held = [str(store.scope_lock_path(scope)) for scope in Scope]
    held += [str(home.lock_path(name)) for name in ("history-runs", "memory-meta")]
    waited: list[float] = []  # each wait that ran out
    acquire = InterprocessLock.acquire

    def recording(lock: InterprocessLock, timeout_s: float = 30.0) -> None:
        try:
            acquire(lock, timeout_s)
        except LockUnavailableError:
            waited.append(timeout_s)
            raise

    monkeypatch.setattr(InterprocessLock, "acquire", recording)
    with python_child(HOLDER, *held):
        status = main(
            ["--home", str(home.root), "consolidate", "--workspace", MAIN_ID,
             "--provider", "offline"]
        )  # fmt: skip
    assert status == 1
    assert "memory scope is locked by" in capsys.readouterr().err
    assert waited and sum(waited) <= CATCH_UP_WAIT_S + scope_wait_s, waited
    assert scope_wait_s in waited
    assert CATCH_UP_WAIT_S + SCOPE_WAIT_S <= 2.0  # the app's waits, within the 2 s
