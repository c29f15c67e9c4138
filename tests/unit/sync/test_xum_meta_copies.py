"""A conflict copy of memory-meta.json replaces it only under xum's lock too
(docs/formats.md §21.2): while xum holds `memory-meta.json.lock`, nothing is replaced."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memtab.fs.atomic import atomic_write_json
from memtab.fs.locking.locks import LockUnavailableError
from memtab.store import xum_locks
from memtab.store.home import Home
from memtab.sync.conflicts.copies import resolve_sidecar_copy, sidecar_copies
from support.xum import xum_holding


def test_a_meta_copy_waits_for_xums_lock_before_it_replaces_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(xum_locks, "META_WAIT_S", 0.05)
    home = Home(tmp_path / "home")
    atomic_write_json(home.meta_path, {"entries": {"global:x.md": {"accessCount": 5}}})
    copy_path = home.root / "memory-meta.sync-conflict-20261122-143000-ABCDEF7.json"
    atomic_write_json(copy_path, {"entries": {"global:x.md": {"accessCount": 3}}})
    [copy] = sidecar_copies(home)
    before = home.meta_path.read_bytes()
    refused = pytest.raises(LockUnavailableError, match="Another process is changing")
    with xum_holding(xum_locks.meta_lock_path(home)), refused:
        resolve_sidecar_copy(home, copy, "this")
    assert home.meta_path.read_bytes() == before and copy_path.exists()
    resolve_sidecar_copy(home, copy, "this")
    assert json.loads(home.meta_path.read_text())["entries"]["global:x.md"]["accessCount"] == 3
