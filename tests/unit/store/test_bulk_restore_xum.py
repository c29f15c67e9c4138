"""A sync's bulk import lets xum in (docs/formats.md §21.2): it holds xum's target lock a
chunk at a time, so a xum write waiting its 2 s beside a long batch is never refused, and
neither side's writes are lost."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from memtab.fs.atomic import Directory
from memtab.store.history.blobs import sha256_of
from memtab.store.paths import Scope, parse_file_path
from memtab.store.restore import bulk_restore
from memtab.store.restore.bulk_restore import Restore, RestoreResult, restore_contents
from memtab.store.scopes.memory import MemoryStore
from support.xum_player import acquire, release, target_lock

FILES = 400
DELAY_S = 0.008
"""Each file checked (or, created, written and published) this slowly: the batch would
hold the lock over 3 s in one piece."""


def _slowed(function: Callable[..., Any]) -> Callable[..., Any]:
    def slowly(*args: Any, **kwargs: Any) -> Any:
        time.sleep(DELAY_S)
        return function(*args, **kwargs)

    return slowly


# slow: 400 files checked or published 8 ms each, beside a xum writing (~4–7 s)
@pytest.mark.slow
@pytest.mark.parametrize("kind", ["edits", "creates"])
def test_a_xum_write_waiting_beside_a_long_batch_gets_in(
    store: MemoryStore, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    folder = store.root(Scope.GLOBAL) / "synced"
    expected = None
    if kind == "edits":  # each file read to be checked
        folder.mkdir(parents=True)
        for i in range(FILES):
            (folder / f"n{i}.md").write_bytes(b"old\n")
        expected = sha256_of(b"old\n")
        monkeypatch.setattr(bulk_restore, "_read", _slowed(bulk_restore._read))
    else:  # none read: a chunk is as many as publishing them takes, paced by their temps
        for name in ("write_temp", "publish"):
            monkeypatch.setattr(Directory, name, _slowed(getattr(Directory, name)))
    items = [
        Restore(parse_file_path(f"/memories/global/synced/n{i}.md"), f"{i}\n".encode(), expected)
        for i in range(FILES)
    ]
    lock = target_lock(store.home.root)
    xum_file = store.root(Scope.GLOBAL) / "xum.md"
    outcome: list[RestoreResult] = []
    batch = threading.Thread(
        target=lambda: outcome.append(restore_contents(store, Scope.GLOBAL, items))
    )
    batch.start()
    writes = 0
    try:
        deadline = time.monotonic() + 10
        while not lock.exists():  # the batch holds it
            assert time.monotonic() < deadline
            time.sleep(0.001)
        while batch.is_alive() or writes < 2:
            token = acquire(lock, timeout_s=2.0)  # xum's TARGET_MUTATION_LOCK_TIMEOUT_MS
            try:
                _append(xum_file, f"xum {writes}\n")
                writes += 1
            finally:
                release(lock, token)
            time.sleep(0.05)
    finally:
        batch.join()
    (done,) = outcome
    assert not done.failed and len(done.written) == FILES
    assert xum_file.read_text() == "".join(f"xum {i}\n" for i in range(writes))
    synced = store.root(Scope.GLOBAL) / "synced"
    assert sorted(int(p.stem[1:]) for p in synced.iterdir()) == list(range(FILES))
    assert len(done.recorded) == FILES


def _append(path: Path, text: str) -> None:
    before = path.read_text() if path.exists() else ""
    path.write_text(before + text)
