"""`memtab watch` starts whatever another program put in a scope: a tree a thousand
folders deep, past what watchdog's walk recurses, makes it poll (saying why) instead of
dying at every start, and a change beside it is still recorded (docs/formats.md §5)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from memtab.store.history.versions import ScopeHistory
from memtab.store.paths import Scope
from memtab.store.scopes.memory import MemoryStore
from memtab.watch.observers import WATCH_MAX_DEPTH

from .helpers import machine_with_notes, running_recorder, wait_for


@pytest.mark.slow  # slow: a thousand folders made, polled and removed (~6 s)
@pytest.mark.expect_log(
    "memtab.watch.recorder",
    "WARNING",
    rf"^Falling back to polling: a folder is nested more than {WATCH_MAX_DEPTH} levels deep: ",
)
@pytest.mark.expect_log(
    "memtab.store.files", "WARNING", r"^Not listed, searched or recorded: the contents of "
)
def test_a_tree_a_thousand_levels_deep_is_polled_and_changes_beside_it_recorded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, deep_tree: Callable[..., None]
) -> None:
    machine, store = machine_with_notes(tmp_path, monkeypatch)
    root = store.root(Scope.GLOBAL)
    deep_tree(root, "deep")
    with running_recorder(machine.home, poll_interval_s=0.1) as recorder:
        assert recorder.backend == "polling every 0.1 s"
        (root / "later.md").write_text("written while it watched\n")
        wait_for(lambda: _recorded(store, "/memories/global/later.md"), "later.md recorded")
    assert not _recorded(store, "/memories/global/deep/" + "d/" * 1098 + "x.md")


def _recorded(store: MemoryStore, path: str) -> bool:
    return path in ScopeHistory(store.home, store.history_key(Scope.GLOBAL)).newest_by_path()
