"""Reads never wait on a write lock: with another process holding a scope's lock or
memory-meta.json's, `memtab tool` view, `list`, `history` and `trash` answer at once.

A read needs those locks only for bookkeeping (counting a use, recording what changed
outside in history): it waits at most READ_LOCK_WAIT_S for them, then goes on without.
The waits are observed (every lock a command asks for, and for how long it would wait),
not timed.  A refused wait sits through its bound, so the fast tier runs these with
READ_LOCK_WAIT_S made short and the slow one with the app's.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from memtab.cli.main import main
from memtab.fs.locking.locks import InterprocessLock
from memtab.store.catch_up import external
from memtab.store.home import Home
from memtab.store.paths import Scope, parse_file_path
from memtab.store.proposals import queue
from memtab.store.scopes import scope_store
from memtab.store.scopes.memory import MemoryStore
from memtab.store.scopes.scope_store import READ_LOCK_WAIT_S
from memtab.store.sidecars.registry import Workspace
from support.memory_paths import vpath
from support.processes import python_child

from .helpers import WORKSPACE_ID

NOTE = "/memories/global/note.md"
HOLD = """
import sys, time
from pathlib import Path
from memtab.fs.locking.locks import interprocess_lock
with interprocess_lock(Path(sys.argv[1]), timeout_s=0):
    print("held", flush=True)
    sys.stdin.read()  # until the test closes it
"""


@pytest.fixture
def store(home: Home, workspace: Workspace) -> MemoryStore:
    """On the real clock: the history commands prune versions older than 180 days."""
    return MemoryStore(home, workspace)


@pytest.fixture(
    params=[0.05, pytest.param(READ_LOCK_WAIT_S, marks=pytest.mark.slow)], ids=["short", "real"]
)
def read_wait_s(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> float:
    """READ_LOCK_WAIT_S as each module that waits it sees it."""
    wait_s: float = request.param
    for module in (scope_store, queue, external):
        monkeypatch.setattr(module, "READ_LOCK_WAIT_S", wait_s)
    return wait_s


@pytest.fixture
def held(tmp_path: Path) -> Iterator[Callable[[Path], None]]:
    """Call it with a lock file: another process takes that lock and keeps it."""
    with contextlib.ExitStack() as holders:

        def hold(lock_path: Path) -> None:
            holders.enter_context(python_child(HOLD, str(lock_path)))

        yield hold


@pytest.fixture
def waits(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, float]]:
    """Every lock asked for, with how long it may wait: (lock file name, timeout)."""
    asked: list[tuple[str, float]] = []
    real = InterprocessLock.acquire

    def acquire(lock: InterprocessLock, timeout_s: float = 30.0) -> None:
        asked.append((lock.path.name, timeout_s))
        real(lock, timeout_s)

    monkeypatch.setattr(InterprocessLock, "acquire", acquire)
    return asked


def cli(home: Home, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["--home", str(home.root), *args])
    out, err = capsys.readouterr()
    return status, out, err


def uses(store: MemoryStore) -> int:
    entry = store.meta.load().get(store.meta_key(parse_file_path(NOTE)))
    return entry.access_count if entry else 0


def test_a_view_does_not_wait_for_the_usage_lock(
    home: Home,
    store: MemoryStore,
    held: Callable[[Path], None],
    waits: list[tuple[str, float]],
    read_wait_s: float,
    capsys: pytest.CaptureFixture[str],
) -> None:
    store.create_file(vpath(NOTE), "remember this\n")
    before = uses(store)
    held(home.lock_path("memory-meta"))
    waits.clear()
    call = json.dumps({"command": "view", "path": NOTE})

    status, out, err = cli(home, capsys, "tool", call)

    assert status == 0 and json.loads(out) == {"success": True, "output": "1\tremember this"}
    assert err == ""
    assert waits and all(timeout <= read_wait_s for _, timeout in waits), waits
    assert uses(store) == before  # not counted: another process was writing the file


def test_list_history_and_trash_do_not_wait_for_a_scope_lock(
    home: Home,
    store: MemoryStore,
    held: Callable[[Path], None],
    waits: list[tuple[str, float]],
    read_wait_s: float,
    capsys: pytest.CaptureFixture[str],
) -> None:
    store.create_file(vpath(NOTE), "as memtab wrote it\n")
    store.physical(parse_file_path(NOTE)).write_text("changed outside\n")  # to record
    scope_lock = store.scope_lock_path(Scope.GLOBAL)
    held(scope_lock)
    waits.clear()
    reads = [
        ("list", "--workspace", WORKSPACE_ID, "--json"),
        ("history", NOTE, "--json"),
        ("trash", "--json"),
    ]
    for read in reads:
        status, out, err = cli(home, capsys, *read)
        assert status == 0 and err == "", (read, err)
        json.loads(out)
    scope_waits = [timeout for name, timeout in waits if name == scope_lock.name]
    assert scope_waits and all(timeout <= read_wait_s for timeout in scope_waits)
    history: Any = json.loads(cli(home, capsys, "history", NOTE, "--json")[1])
    assert len(history["versions"]) == 1  # the outside change waits for the next look


def test_the_outside_change_is_recorded_by_the_next_look(
    home: Home, store: MemoryStore, capsys: pytest.CaptureFixture[str]
) -> None:
    store.create_file(vpath(NOTE), "as memtab wrote it\n")
    store.physical(parse_file_path(NOTE)).write_text("changed outside\n")
    status, out, _ = cli(home, capsys, "history", NOTE, "--json")
    assert status == 0
    assert [v["actor"] for v in json.loads(out)["versions"]] == ["external", "user"]
