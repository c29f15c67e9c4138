"""Recently deleted lists what another program removed, grouped by agent and burst: a
burst's row holds every file it took ("Claude Code removed 3 files at 14:02"), each with
its size, who removed it and a preview; each comes back alone or all at once, and the
burst stays listed, marked restored."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from pytestqt.qtbot import QtBot

from gui.memory_tree_support import WAIT_MS, wait_for
from memtab.gui.history.trash_dialog import BURST_ROLE, TrashDialog
from memtab.gui.tasks.jobs import JobService
from memtab.store.catch_up.external import record_external
from memtab.store.home import Home
from memtab.store.paths import Scope, parse_file_path
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.registry import add_workspace, load_registry
from support.memory_paths import vpath


def _claude_code(_scope: Scope, _paths: Sequence[str]) -> str:
    return "claude-code"


def test_a_burst_is_listed_with_its_files_and_restored_in_one_step(
    qtbot: QtBot, tmp_path: Path, jobs: JobService
) -> None:
    home = Home(tmp_path / "home")
    add_workspace(home, str(tmp_path / "project"), "main", workspace_id="a1a1a1a1a1")
    store = MemoryStore(home, load_registry(home).workspaces[0])
    paths = [f"/memories/global/topic{index}.md" for index in range(3)]
    for path in paths:
        store.create_file(vpath(path), f"# {path}\n")
    store.create_file(vpath("/memories/global/kept.md"), "# kept\n")
    for path in paths:  # an agent prunes its memory
        store.physical(parse_file_path(path)).unlink()
    record_external(store, actor_of=_claude_code)  # as the recorder records it

    trash = TrashDialog(jobs)
    qtbot.addWidget(trash)
    trash.show_store(store, sources=())
    wait_for(qtbot, lambda: bool(trash.bursts))
    (burst,) = trash.bursts
    assert burst.words.startswith("Claude Code removed 3 files at ")
    (group,) = [g for g in trash.groups if g.bursts]
    assert group.label == "Global" and group.items == ()  # not listed twice
    assert [file.path for file in burst.files] == paths
    row = trash.files.topLevelItem(0).child(0)  # type: ignore[union-attr]
    assert row.data(0, BURST_ROLE) == burst.id and row.text(0) == burst.words
    assert row.childCount() == 3
    contents = [f"# {path}\n".encode() for path in paths]
    first = row.child(0)
    assert first.text(0) == "topic0.md"
    assert first.text(2) == "Claude Code"  # who removed it, as users know it
    assert first.text(3) == f"{len(contents[0])} B"
    trash.show_burst(burst.id)  # the notice's Review…
    assert trash.files.currentItem() is row
    assert trash.preview.toPlainText().startswith(burst.words)
    assert "topic0.md — deleted" in trash.preview.toPlainText()
    assert trash.select_path(paths[1])
    wait_for(qtbot, lambda: trash.preview.toPlainText() == f"# {paths[1]}\n")
    assert trash.restore_all_button.isEnabled()  # its burst's

    trash.restore_all_button.click()
    wait_for(qtbot, lambda: trash.note.full_text == "Restored 3 files")
    assert [store.read_whole(vpath(path)) for path in paths] == contents
    wait_for(qtbot, lambda: trash.bursts and trash.bursts[0].left_to_restore == 0)
    (restored,) = trash.bursts  # still listed, marked so
    assert restored.words.endswith("— restored")
    assert all(file.state_words().startswith("restored ") for file in restored.files)
    assert trash.select_burst(restored.id) and not trash.restore_all_button.isEnabled()
    assert trash.select_path(paths[0]) and not trash.restore_button.isEnabled()
    trash.shutdown()


def test_without_a_burst_nothing_more_is_shown(
    qtbot: QtBot, tmp_path: Path, jobs: JobService
) -> None:
    home = Home(tmp_path / "home")
    store = MemoryStore(home, None)
    store.create_file(vpath("/memories/global/one.md"), "# one\n")
    store.delete(vpath("/memories/global/one.md"))  # the user's own delete: not a burst
    trash = TrashDialog(jobs)
    qtbot.addWidget(trash)
    with qtbot.waitSignal(trash.loaded, timeout=WAIT_MS):
        trash.show_store(store, sources=())
    assert not trash.restore_all_button.isVisibleTo(trash)
    assert trash.bursts == [] and trash.select_path("/memories/global/one.md")
    trash.shutdown()


def test_one_rm_across_scopes_is_one_burst_restored_in_one_step(
    qtbot: QtBot, tmp_path: Path, jobs: JobService
) -> None:
    home = Home(tmp_path / "home")
    add_workspace(home, str(tmp_path / "project"), "main", workspace_id="a1a1a1a1a1")
    store = MemoryStore(home, load_registry(home).workspaces[0])
    paths = ["/memories/global/deploy.md", "/memories/project/api.md", "/memories/project/db.md"]
    for path in paths:
        store.create_file(vpath(path), f"# {path}\n")
    for path in paths:  # one `rm` across two scopes
        store.physical(parse_file_path(path)).unlink()
    record_external(store)  # as the window records them

    trash = TrashDialog(jobs)
    qtbot.addWidget(trash)
    trash.show_store(store, sources=())
    wait_for(qtbot, lambda: bool(trash.bursts))
    (burst,) = trash.bursts
    assert burst.words.endswith(": 1 in Global, 2 in Project")
    across = trash.files.topLevelItem(0)
    assert across is not None and across.text(0) == "Across several memories (3)"
    row = across.child(0)
    assert row.data(0, BURST_ROLE) == burst.id and row.childCount() == 3
    assert [row.child(i).text(0) for i in range(3)] == [
        "Global · deploy.md",
        "Project · api.md",
        "Project · db.md",
    ]
    assert trash.files.currentItem() is row  # the newest deletion: where it opens
    global_group = trash.files.topLevelItem(1)
    assert global_group is not None and global_group.text(0) == "Global (0)"
    assert global_group.child(0).text(0).startswith("What it lost is in the burst across")

    trash.scope_filter.setCurrentIndex(trash.scope_filter.findData("project"))
    assert trash.files.topLevelItem(0).child(0).data(0, BURST_ROLE) == burst.id  # type: ignore[union-attr]
    assert trash.select_burst(burst.id) and trash.restore_all_button.isEnabled()
    trash.restore_all_button.click()
    wait_for(qtbot, lambda: trash.note.full_text == "Restored 3 files")
    assert [store.read_whole(vpath(path)) for path in paths] == [
        f"# {path}\n".encode() for path in paths
    ]
    trash.shutdown()
