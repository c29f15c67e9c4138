"""Recently deleted offers a burst whole: "Claude Code removed 3 files at 14:02 — Restore
all" puts every file of it back in one step."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from pytestqt.qtbot import QtBot

from gui.memory_tree_support import WAIT_MS, wait_for
from memtab.gui.history.trash_dialog import TrashDialog
from memtab.store.catch_up.external import record_external
from memtab.store.home import Home
from memtab.store.paths import Scope, parse_file_path
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.registry import add_workspace, load_registry


def _claude_code(_scope: Scope, _paths: Sequence[str]) -> str:
    return "claude-code"


def test_a_burst_is_offered_and_restored_in_one_step(qtbot: QtBot, tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    add_workspace(home, str(tmp_path / "project"), "main", workspace_id="a1a1a1a1a1")
    store = MemoryStore(home, load_registry(home).workspaces[0])
    paths = [f"/memories/global/topic{index}.md" for index in range(3)]
    for path in paths:
        store.create_file(path, f"# {path}\n")
    store.create_file("/memories/global/kept.md", "# kept\n")
    for path in paths:  # an agent prunes its memory
        store.physical(parse_file_path(path)).unlink()
    record_external(store, actor_of=_claude_code)  # as the recorder records it

    trash = TrashDialog()
    qtbot.addWidget(trash)
    trash.show_store(store)
    wait_for(qtbot, lambda: bool(trash.events))
    assert trash.restore_all_button.isVisibleTo(trash)
    assert trash.bursts.currentText().startswith("Claude Code removed 3 files at ")
    trash.restore_all_button.click()
    wait_for(qtbot, lambda: trash.note.full_text == "Restored 3 files")
    assert [store.read_whole(path) for path in paths] == [f"# {p}\n".encode() for p in paths]
    with qtbot.waitSignal(trash.loaded, timeout=WAIT_MS):
        trash.reload(record_first=False)
    trash.shutdown()


def test_without_a_burst_nothing_more_is_shown(qtbot: QtBot, tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    store = MemoryStore(home, None)
    store.create_file("/memories/global/one.md", "# one\n")
    store.delete("/memories/global/one.md")  # the user's own delete: not a burst
    trash = TrashDialog()
    qtbot.addWidget(trash)
    with qtbot.waitSignal(trash.loaded, timeout=WAIT_MS):
        trash.show_store(store)
    assert not trash.restore_all_button.isVisibleTo(trash)
    assert not trash.bursts.isVisibleTo(trash)
    trash.shutdown()
