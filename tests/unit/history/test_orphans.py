"""Deleting an orphaned project dir (its project is no longer registered) goes through
history like any other delete: every file recorded first, in the trash, restorable."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from memtab.cli.main import main
from memtab.components.files import undo
from memtab.components.files.ops import delete_orphan_project_dir as delete_from_the_tree
from memtab.components.files.undo import UndoStack, undo_step
from memtab.components.history.deleted import load_trash
from memtab.store.history.capture import MAX_HISTORY_FILE_BYTES
from memtab.store.history.versions import ScopeHistory
from memtab.store.home import Home
from memtab.store.paths import parse_file_path, project_dir_name
from memtab.store.restore.from_history import file_history, restore, trash
from memtab.store.restore.orphans import (
    OrphanProjectStore,
    delete_orphan_project_dir,
    orphan_identity,
    orphans_with_history,
)
from memtab.store.sidecars.meta import MetaStore, project_key
from memtab.store.sidecars.registry import load_registry, orphan_project_dirs
from support.memory_paths import vpath

from .helpers import PROJECT, new_home, store_for

GONE = "/home/dev/src/gone:repo"  # a ':' and a '%' are escaped in meta keys
GONE_DIR = project_dir_name(GONE)
FILES = {"old.md": b"Orphaned note\n", "sub/deep.md": b"deep\n"}


@pytest.fixture
def home(tmp_path: Path) -> Home:
    home = new_home(tmp_path / "home")
    for relative, data in FILES.items():
        path = home.projects_root / GONE_DIR / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    MetaStore(home).set_pinned(project_key(GONE, "old.md"), True)
    return home


def test_the_identity_of_an_orphan_is_recovered_from_memory_meta(home: Home) -> None:
    assert orphan_identity(home, GONE_DIR) == GONE
    assert orphan_identity(home, project_dir_name("/never/seen")) is None


def test_deleting_an_orphan_records_every_file_and_it_can_be_restored(home: Home) -> None:
    assert orphan_project_dirs(home, load_registry(home)) == [GONE_DIR]
    result = delete_from_the_tree(home, GONE_DIR)
    assert result.ok, result.error
    assert "can be restored" in result.message and f"--orphan {GONE_DIR}" in result.message
    assert not (home.projects_root / GONE_DIR).exists()
    assert os.listdir(home.projects_root) == []  # no hidden leftovers
    assert not MetaStore(home).load()  # the pin went to history with the file

    store = OrphanProjectStore(home, GONE_DIR)
    deleted = {item.path: item for item in trash(store)}
    assert set(deleted) == {"/memories/project/old.md", "/memories/project/sub/deep.md"}
    assert deleted["/memories/project/old.md"].pinned
    assert all(item.version.actor == "user" for item in deleted.values())

    item = deleted["/memories/project/sub/deep.md"]
    restore(store, vpath(item.path), item.version.id)
    pinned = deleted["/memories/project/old.md"]
    restore(store, vpath(pinned.path), pinned.version.id)
    for relative, data in FILES.items():
        assert (home.projects_root / GONE_DIR / relative).read_bytes() == data
    assert store.is_pinned(parse_file_path("/memories/project/old.md"))
    assert trash(store) == []
    history = [(v.op, v.actor) for v in file_history(store, vpath("/memories/project/old.md"))]
    # First seen when it was deleted: its content is recorded, then the deletion.
    assert history == [("restore", "user"), ("delete", "user"), ("seen", "external")]
    assert orphan_project_dirs(home, load_registry(home)) == [GONE_DIR]  # back, still orphan


def test_the_cli_lists_and_restores_a_deleted_orphans_files(
    home: Home, capsys: pytest.CaptureFixture[str]
) -> None:
    delete_orphan_project_dir(home, GONE_DIR)
    at = ["--home", str(home.root)]
    assert main([*at, "trash", "--orphan", GONE_DIR, "--json"]) == 0
    files = {item["path"]: item for item in json.loads(capsys.readouterr().out)["files"]}
    version = files["/memories/project/sub/deep.md"]["version"]
    path = "/memories/project/sub/deep.md"
    assert main([*at, "restore", path, "--orphan", GONE_DIR, "--version", version]) == 0
    assert (home.projects_root / GONE_DIR / "sub/deep.md").read_bytes() == b"deep\n"
    capsys.readouterr()
    assert main([*at, "trash", "--orphan", GONE_DIR, "--workspace", "x"]) == 1
    assert "cannot be combined" in capsys.readouterr().err


@pytest.mark.expect_log(  # the real path, not the hidden name the dir is renamed to
    "memtab.store.history.capture",
    "WARNING",
    rf"^History cannot keep /memories/project/{re.escape(GONE_DIR)}/linked\.md: "
    "it has other hard links",
)
def test_a_file_history_cannot_keep_stops_the_delete_and_nothing_is_lost(home: Home) -> None:
    # A file with another hard link is never read (it may be a file outside the home).
    outside = home.root.parent / "outside.md"
    outside.write_text("not memory\n")
    os.link(outside, home.projects_root / GONE_DIR / "linked.md")
    result = delete_from_the_tree(home, GONE_DIR)
    assert not result.ok and result.error is not None
    assert "Cannot keep 1 of the 3 files" in result.error and "nothing was deleted" in result.error
    for relative, data in FILES.items():
        assert (home.projects_root / GONE_DIR / relative).read_bytes() == data
    assert sorted(os.listdir(home.projects_root)) == [GONE_DIR]
    assert ScopeHistory(home, f"project-{GONE_DIR}").versions() == []
    assert MetaStore(home).load()  # the pin stays


@pytest.mark.expect_log(
    "memtab.store.history.capture",
    "WARNING",
    rf"^History cannot keep /memories/project/{re.escape(GONE_DIR)}/sub/huge\.md: "
    "larger than 16 MB$",
)
def test_a_file_over_16_mb_is_named_by_its_real_path_and_stops_the_delete(home: Home) -> None:
    with open(home.projects_root / GONE_DIR / "sub" / "huge.md", "wb") as huge:
        huge.truncate(MAX_HISTORY_FILE_BYTES + 1)  # sparse: no 16 MB written
    result = delete_from_the_tree(home, GONE_DIR)
    assert not result.ok and "Cannot keep 1 of the 3 files" in (result.error or "")
    assert f"memory/project/{GONE_DIR}" in (result.error or "")
    assert sorted(os.listdir(home.projects_root)) == [GONE_DIR]


def test_a_registered_project_dir_is_not_deleted_as_an_orphan(home: Home) -> None:
    registered = project_dir_name(PROJECT)
    (home.projects_root / registered).mkdir()
    result = delete_from_the_tree(home, registered)
    assert not result.ok and "not an orphaned project dir" in (result.error or "")
    assert (home.projects_root / registered).is_dir()


def test_an_orphan_whose_identity_is_unknown_is_kept_and_restored_without_meta(
    home: Home,
) -> None:
    unknown = project_dir_name("/lost/project")
    (home.projects_root / unknown).mkdir()
    (home.projects_root / unknown / "a.md").write_bytes(b"a\n")
    meta_before = (home.meta_path).read_bytes()
    delete_orphan_project_dir(home, unknown)
    store = OrphanProjectStore(home, unknown)
    assert store.identity is None
    (item,) = trash(store)
    restore(store, vpath(item.path), item.version.id)
    assert (home.projects_root / unknown / "a.md").read_bytes() == b"a\n"
    assert home.meta_path.read_bytes() == meta_before  # no key made up for it


def test_undo_brings_a_deleted_orphan_back_into_its_dir_with_its_pin(home: Home) -> None:
    stack = UndoStack()
    result = undo.delete_orphan(stack, home, GONE_DIR)
    assert result.ok and "Recently deleted (or Edit → Undo)" in result.message
    assert "memtab trash" not in result.message  # the window's words, not the CLI's
    step = stack.pop()
    assert step is not None and step.description == f"delete of {GONE_DIR}"
    assert step.written == () and step.affected == ()  # no path of the workspace's
    undone = undo_step(home, step)
    assert undone.ok and undone.created is None, undone.error
    for relative, data in FILES.items():
        assert (home.projects_root / GONE_DIR / relative).read_bytes() == data
    assert OrphanProjectStore(home, GONE_DIR).is_pinned(parse_file_path("/memories/project/old.md"))
    assert not (home.projects_root / project_dir_name(PROJECT)).exists()  # not the project's


def test_recently_deleted_lists_an_orphans_files_and_undoes_their_restore(home: Home) -> None:
    workspace = store_for(home)
    delete_orphan_project_dir(home, GONE_DIR)
    groups = load_trash(workspace)
    (group,) = [group for group in groups if group.orphan_dir == GONE_DIR]
    assert group.label == f"Orphaned project memory {GONE_DIR}" and len(group.items) == 2
    assert not any(group.items for group in groups if group.orphan_dir is None)
    assert orphans_with_history(home) == [GONE_DIR]
    stack = UndoStack()
    (item,) = [item for item in group.items if item.path == "/memories/project/old.md"]
    restored = undo.restore(stack, OrphanProjectStore(home, GONE_DIR), item.path, item.version.id)
    assert restored.ok and restored.created is None
    assert restored.message == f"Restored memory/project/{GONE_DIR}/old.md"
    assert (home.projects_root / GONE_DIR / "old.md").read_bytes() == FILES["old.md"]
    assert workspace.kind_of(parse_file_path("/memories/project/old.md")) is None
    step = stack.pop()
    assert step is not None and step.affected == ()
    assert undo_step(home, step).ok
    assert not (home.projects_root / GONE_DIR / "old.md").exists()
    (group,) = [group for group in load_trash(workspace) if group.orphan_dir == GONE_DIR]
    assert len(group.items) == 2
    # A registered project's history is its own scope's, not an orphan's.
    workspace.create_file(vpath("/memories/project/kept.md"), "kept\n")
    assert orphans_with_history(home) == [GONE_DIR]
