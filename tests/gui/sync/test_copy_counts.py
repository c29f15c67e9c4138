"""The window counts file-sync conflict copies once per scope listing, not per scan."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from memtab.gui.sync import feature
from memtab.gui.sync.feature import CopyCounts
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
    find_copies = feature.find_copies

    def counting(paths: Any) -> Any:
        listed = list(paths)
        looked_at.append(len(listed))
        return find_copies(listed)

    monkeypatch.setattr(feature, "find_copies", counting)
    count = CopyCounts()
    unchanged = listing("x.md", "x (1).md", "y.md")
    assert count(scan(unchanged, listing("a.md"))) == 1
    assert looked_at == [3, 1]
    # The next scan changed the project scope only: the global listing is the same object.
    assert count(scan(unchanged, listing("a.md", "a (1).md"))) == 2
    assert looked_at == [3, 1, 2]
    assert count(scan(listing("x.md"), listing("a.md"))) == 0  # the copy went
