"""Sync's corner without Qt: the window counts file-sync conflict copies once per scope
listing, not per scan; Sync now's note says when the sync it announced ended, once."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from memtab.components.sync import status as corner
from memtab.components.sync.status import NOT_SET_UP, SYNCING, CopyCounts, SyncNowNote
from memtab.store.conflict_copies import find_copies
from memtab.store.paths import Scope, parse_file_path


def listing(*names: str) -> Any:
    files = [SimpleNamespace(path=parse_file_path(f"/memories/global/{n}")) for n in names]
    return SimpleNamespace(files=files)


def scan(global_listing: Any, project_listing: Any) -> Any:
    scopes = [
        SimpleNamespace(scope=Scope.GLOBAL, listing=global_listing),
        SimpleNamespace(scope=Scope.PROJECT, listing=project_listing),
    ]
    return SimpleNamespace(scopes=scopes)


def test_copies_are_counted_once_per_listing(monkeypatch: pytest.MonkeyPatch) -> None:
    looked_at: list[int] = []

    def counting(paths: Any) -> Any:
        listed = list(paths)
        looked_at.append(len(listed))
        return find_copies(listed)

    monkeypatch.setattr(corner, "find_copies", counting)
    count = CopyCounts()
    unchanged = listing("x.md", "x (1).md", "y.md")
    assert count(scan(unchanged, listing("a.md"))) == 1
    assert looked_at == [3, 1]
    # The next scan changed the project scope only: the global listing is the same object.
    assert count(scan(unchanged, listing("a.md", "a (1).md"))) == 2
    assert looked_at == [3, 1, 2]
    assert count(scan(listing("x.md"), listing("a.md"))) == 0  # the copy went


def test_sync_now_says_syncing_then_once_how_it_ended() -> None:
    note = SyncNowNote()
    assert note.sync_now(configured=True) == SYNCING
    note.busy_changed(True)
    assert note.looked("Syncing…") is None  # still syncing
    note.busy_changed(False)
    assert note.looked("In sync") == "Sync finished: In sync"
    assert note.looked("In sync") is None  # once


def test_a_sync_not_announced_ends_without_a_note() -> None:
    note = SyncNowNote()
    note.busy_changed(True)
    note.busy_changed(False)
    assert note.looked("In sync") is None
    assert note.sync_now(configured=False) == NOT_SET_UP
    note.busy_changed(False)
    assert note.looked("In sync") is None
