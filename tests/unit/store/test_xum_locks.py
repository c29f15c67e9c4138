"""xum's locks around every change Memtab makes to a xum home, and its removed workspaces
(`memtab.store.xum_locks`, docs/formats.md §21): a lock xum holds is waited for, then the
change is refused — never made under it."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest

from memtab.cli.main import main
from memtab.file_protocol.memory_file import MuxFile
from memtab.fs.atomic import atomic_write_json
from memtab.fs.locking.locks import LockUnavailableError
from memtab.store import xum_locks
from memtab.store.errors import MemoryStoreError, ScopeBusyError
from memtab.store.home import Home
from memtab.store.paths import parse_file_path
from memtab.store.restore.from_history import file_history, restore
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.meta import MetaStore
from memtab.store.sidecars.registry import load_registry
from memtab.store.xum_locks import (
    WorkspaceRemovedError,
    memory_lock_key,
    meta_lock_path,
    removal_tombstone_path,
    target_lock_path,
)
from support.memory_paths import vpath
from support.xum import xum_holding

from .helpers import WORKSPACE_ID, write_config

BUSY = "Another process is changing this memory"


@pytest.fixture(autouse=True)
def short_waits(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each refusal sits through its wait whole: 0.05 s is ~25 of the lock's polls."""
    monkeypatch.setattr(xum_locks, "TARGET_WAIT_S", 0.05)
    monkeypatch.setattr(xum_locks, "META_WAIT_S", 0.05)


def shared_target(home: Home) -> Path:
    return target_lock_path(home, memory_lock_key(home, home.global_root))


def test_the_lock_files_are_named_as_xum_names_them() -> None:
    home = Home(Path("/home/alice/.xum"))
    assert memory_lock_key(home, home.project_root("/src/app")) == "/home/alice/.xum/memory"
    assert target_lock_path(home, memory_lock_key(home, home.global_root)) == Path(
        "/home/alice/.xum/locks/target-7249760f3b4958a689dc00cdc4d94e0c.lock"
    )
    workspace_key = memory_lock_key(home, home.workspace_root("a1b2c3d4e5"))
    assert workspace_key == "/home/alice/.xum/sessions/a1b2c3d4e5/memory"
    assert target_lock_path(home, workspace_key).name == (
        "target-432d7ea42479a817492c1fdbf9c461dd.lock"
    )
    assert meta_lock_path(home) == Path("/home/alice/.xum/memory-meta.json.lock")
    assert removal_tombstone_path(home, "a1b2c3d4e5") == Path(
        "/home/alice/.xum/locks/workspace-removed-e32ac31e84e954c4ef30f7a6799948cd.json"
    )


def test_memtab_holds_xums_target_lock_while_it_changes_a_memory(store: MemoryStore) -> None:
    store.create_file(vpath("/memories/global/a.md"), "one\n")
    seen: list[str] = []

    def change(text: str) -> str:
        seen.append(shared_target(store.home).read_text())
        return text + "two\n"

    store.edit_text(vpath("/memories/global/a.md"), change)
    assert seen[0].split(":")[0] == str(os.getpid())
    assert not shared_target(store.home).exists()  # let go afterwards


@pytest.mark.parametrize("path", ["/memories/global/a.md", "/memories/project/a.md"])
def test_a_change_is_refused_while_xum_holds_the_memory_root(store: MemoryStore, path: str) -> None:
    with xum_holding(shared_target(store.home)), pytest.raises(ScopeBusyError, match=BUSY):
        store.create_file(vpath(path), "mine\n")
    assert store.kind_of(parse_file_path(path)) is None


def test_a_workspace_notebook_has_its_own_target_lock(store: MemoryStore) -> None:
    with xum_holding(shared_target(store.home)):
        mine = store.create_file(vpath("/memories/workspace/a.md"), "mine\n")  # not the shared lock
    workspace_lock = target_lock_path(
        store.home, memory_lock_key(store.home, store.home.workspace_root(WORKSPACE_ID))
    )
    with xum_holding(workspace_lock), pytest.raises(ScopeBusyError, match=BUSY):
        store.save(vpath("/memories/workspace/a.md"), "changed\n", mine.sha256)
    assert (store.home.workspace_root(WORKSPACE_ID) / "a.md").read_text() == "mine\n"


def test_a_change_waits_for_xum_to_let_go(
    store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(xum_locks, "TARGET_WAIT_S", 10.0)
    with xum_holding(shared_target(store.home)) as xum:
        assert xum.stdin is not None
        threading.Timer(0.2, xum.stdin.close).start()
        store.create_file(vpath("/memories/global/a.md"), "mine\n")
    assert (store.home.global_root / "a.md").read_text() == "mine\n"


def test_memory_meta_is_not_written_while_xum_holds_its_lock(store: MemoryStore) -> None:
    store.create_file(vpath("/memories/global/a.md"), "one\n")
    before = store.home.meta_path.read_bytes()
    refused = pytest.raises(LockUnavailableError, match=BUSY)
    with xum_holding(meta_lock_path(store.home)), refused:
        store.set_pinned(vpath("/memories/global/a.md"), True)
    assert store.home.meta_path.read_bytes() == before
    store.set_pinned(vpath("/memories/global/a.md"), True)
    assert json.loads(store.home.meta_path.read_text())["entries"]["global:a.md"]["pinned"]


def test_memtab_holds_xums_meta_lock_inside_its_own(home: Home) -> None:
    held: list[bool] = []
    meta = MetaStore(home)
    with meta._editing() as entries:
        held.append(meta_lock_path(home).exists())
        entries.set("global:a.md", entries.get("global:a.md").replaced(pinned=True))
    assert held == [True] and not meta_lock_path(home).exists()


def remove_in_xum(home: Home, workspace_id: str) -> None:
    atomic_write_json(
        removal_tombstone_path(home, workspace_id),
        {"workspaceId": workspace_id, "removedAt": 1767225600000, "attemptId": "x"},
    )


def test_a_removed_workspaces_notebook_takes_no_writes(store: MemoryStore) -> None:
    kept = store.create_file(vpath("/memories/workspace/a.md"), "kept\n").sha256
    global_sha = store.create_file(vpath("/memories/global/g.md"), "g\n").sha256
    remove_in_xum(store.home, WORKSPACE_ID)
    refused = pytest.raises(WorkspaceRemovedError, match=f"Workspace {WORKSPACE_ID} was removed")
    with refused:
        store.create_file(vpath("/memories/workspace/b.md"), "new\n")
    with refused:
        store.save(vpath("/memories/workspace/a.md"), "changed\n", kept)
    with refused:
        store.delete(vpath("/memories/workspace/a.md"))
    with refused:
        store.move(vpath("/memories/workspace/a.md"), vpath("/memories/global/a.md"))
    with refused:
        store.set_pinned(vpath("/memories/workspace/a.md"), True)
    assert (store.home.workspace_root(WORKSPACE_ID) / "a.md").read_text() == "kept\n"
    assert not (store.home.workspace_root(WORKSPACE_ID) / "b.md").exists()
    assert store.removed_reason() is not None
    store.save(
        vpath("/memories/global/g.md"), "still yours\n", global_sha
    )  # the other scopes are not


def test_a_removed_workspace_is_not_recreated_by_a_write(store: MemoryStore) -> None:
    remove_in_xum(store.home, WORKSPACE_ID)
    with pytest.raises(WorkspaceRemovedError):
        store.create_file(vpath("/memories/workspace/b.md"), "new\n")
    assert not store.home.workspace_dir(WORKSPACE_ID).exists()


def test_an_unreadable_removal_record_counts_as_removed(store: MemoryStore) -> None:
    tombstone = removal_tombstone_path(store.home, WORKSPACE_ID)
    tombstone.parent.parent.mkdir(parents=True, exist_ok=True)
    tombstone.parent.write_text("not a directory")  # `locks` is a file: cannot be told
    assert xum_locks.workspace_removed(store.home, WORKSPACE_ID)


def test_memtab_tool_says_why_a_removed_workspace_takes_no_write(
    store: MemoryStore, capsys: pytest.CaptureFixture[str]
) -> None:
    remove_in_xum(store.home, WORKSPACE_ID)
    call = json.dumps({"command": "create", "path": "/memories/workspace/b.md", "file_text": "x"})
    status = main(["--home", str(store.home.root), "tool", "--workspace", WORKSPACE_ID, call])
    assert status == 1
    assert json.loads(capsys.readouterr().out) == {
        "success": False,
        "error": f"Workspace {WORKSPACE_ID} was removed in xum: Memtab writes nothing into "
        "its memory any more",
    }


def test_the_window_opens_a_removed_workspaces_notes_read_only(store: MemoryStore) -> None:
    store.create_file(vpath("/memories/workspace/a.md"), "kept\n")
    note = MuxFile(store, parse_file_path("/memories/workspace/a.md"))
    elsewhere = MuxFile(store, parse_file_path("/memories/global/a.md"))
    assert note.read_only_reason is None
    remove_in_xum(store.home, WORKSPACE_ID)
    assert note.read_only_reason == xum_locks.removed_message(WORKSPACE_ID)
    assert elsewhere.read_only_reason is None


def test_a_change_is_refused_when_xums_lock_cannot_be_taken(store: MemoryStore) -> None:
    (store.home.root / "locks").parent.mkdir(parents=True, exist_ok=True)
    (store.home.root / "locks").write_text("a file where xum keeps its locks")
    with pytest.raises(MemoryStoreError, match="Cannot take xum's lock"):
        store.create_file(vpath("/memories/global/a.md"), "mine\n")
    assert not (store.home.global_root / "a.md").exists()


def test_xums_lock_is_found_under_the_name_xum_gives_the_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Memtab finds a legacy home through ~/.mux and follows the link; xum names it ~/.mux.
    real = tmp_path / "data" / "mux-home"
    user = tmp_path / "user"
    real.mkdir(parents=True)
    user.mkdir()
    (user / ".mux").symlink_to(real)
    monkeypatch.setenv("HOME", str(user))
    for name in ("XUM_ROOT", "MUX_ROOT"):
        monkeypatch.delenv(name, raising=False)
    home = Home(real)
    as_xum_names_it = Home(user / ".mux")
    xums_lock = target_lock_path(
        as_xum_names_it, memory_lock_key(as_xum_names_it, as_xum_names_it.global_root)
    )
    assert xums_lock != shared_target(home)
    with xum_holding(xums_lock), pytest.raises(ScopeBusyError, match=BUSY):
        MemoryStore(home).create_file(vpath("/memories/global/a.md"), "mine\n")
    assert not (real / "memory" / "global" / "a.md").exists()


def test_a_sub_agent_writes_nothing_into_the_notebook_of_a_removed_root(home: Home) -> None:
    child = "c1c1c1c1c1"
    write_config(
        home,
        {
            "projects": [
                [
                    "/src/app",
                    {
                        "workspaces": [
                            {"path": "/src/app", "id": WORKSPACE_ID, "name": "main"},
                            {
                                "path": "/src/app",
                                "id": child,
                                "name": "sub",
                                "parentWorkspaceId": WORKSPACE_ID,
                            },
                        ]
                    },
                ]
            ]
        },
    )
    store = MemoryStore(home, load_registry(home).require_workspace(child))
    notebook = target_lock_path(home, memory_lock_key(home, home.workspace_root(WORKSPACE_ID)))
    with xum_holding(notebook), pytest.raises(ScopeBusyError):  # the root's notebook lock
        store.create_file(vpath("/memories/workspace/a.md"), "from the sub-agent\n")
    remove_in_xum(home, WORKSPACE_ID)  # the root is being removed; the child still listed
    with pytest.raises(WorkspaceRemovedError, match=f"Workspace {WORKSPACE_ID} was removed"):
        store.create_file(vpath("/memories/workspace/a.md"), "from the sub-agent\n")
    assert not home.workspace_dir(WORKSPACE_ID).exists()
    assert not home.workspace_dir(child).exists()


@pytest.mark.parametrize(
    "change",
    [
        "create_directory",
        "edit_text",
        "delete",
        "move",
        "set_pinned",
        "restore",
    ],
)
def test_every_change_of_the_store_is_refused_while_xum_holds_the_memory(
    store: MemoryStore, change: str
) -> None:
    path = "/memories/global/a.md"
    store.create_file(vpath(path), "one\n")
    store.edit_text(vpath(path), lambda text: text + "two\n")
    first = file_history(store, vpath(path))[-1]
    before = store.read(vpath(path)).content
    lock = meta_lock_path(store.home) if change == "set_pinned" else shared_target(store.home)
    actions = {
        "create_directory": lambda: store.create_directory(vpath("/memories/global/sub")),
        "edit_text": lambda: store.edit_text(vpath(path), lambda text: text + "three\n"),
        "delete": lambda: store.delete(vpath(path)),
        "move": lambda: store.move(vpath(path), vpath("/memories/global/b.md")),
        "set_pinned": lambda: store.set_pinned(vpath(path), True),
        "restore": lambda: restore(store, vpath(path), first.id, replace=True),
    }
    with xum_holding(lock), pytest.raises((ScopeBusyError, LockUnavailableError), match=BUSY):
        actions[change]()
    assert store.read(vpath(path)).content == before
    assert sorted(p.name for p in store.home.global_root.iterdir()) == ["a.md"]
