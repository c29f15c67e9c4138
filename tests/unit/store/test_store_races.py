"""Changes made meanwhile by programs that take no lock (mux, an editor), and symlink swaps.

Each test makes the other program act at the worst moment: after Memtab has read the file
(or checked the path) and before it publishes its write. The hooks sit on `os` calls that
every version of the store makes on the way, so the tests also show what went wrong
before the store checked.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from memtab.fs import atomic
from memtab.store.paths import PathError, Scope
from memtab.store.scopes.memory import (
    AlreadyExistsError,
    ChangedDuringEditError,
    MemoryStore,
    MemoryStoreError,
    SaveConflictError,
)
from memtab.store.scopes.tool import MemoryTool
from support.memory_paths import vpath

from .helpers import err, ok, snapshot, write

pytestmark = pytest.mark.fsync  # real fsyncs, even in make test-fast

G = "/memories/global"


def act_once_before(
    monkeypatch: pytest.MonkeyPatch, name: str, action: Callable[[], None], *, times: int = 1
) -> list[int]:
    """Run `action` just before the next `times` calls of `os.<name>`; returns a counter."""
    real = getattr(os, name)
    done = [0]

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if done[0] < times:
            done[0] += 1
            action()
        return real(*args, **kwargs)

    monkeypatch.setattr(os, name, wrapper)
    return done


def act_once_before_publishing(
    monkeypatch: pytest.MonkeyPatch, action: Callable[[], None]
) -> list[int]:
    """Run `action` just before the next new file is published: the rename that never
    replaces (Linux) or the hard link (elsewhere, or where the file system refuses it)."""
    done = act_once_before(monkeypatch, "link", action)
    rename = atomic._no_replace_call()
    if rename is not None:

        def wrapper(*args: Any) -> Any:
            if not done[0]:
                done[0] += 1
                action()
            return rename(*args)

        monkeypatch.setattr(atomic, "_no_replace_call", lambda: wrapper)
    return done


def mux_writes(path: Path, text: str) -> Callable[[], None]:
    """mux's way of writing: a whole new file renamed over the old one, no lock."""

    def write_now() -> None:
        temp = path.with_name(path.name + ".mux-tmp")
        temp.write_text(text, encoding="utf-8")
        os.rename(temp, path)

    return write_now


# --- edits meet a change made meanwhile ---------------------------------------------------


def test_a_tool_edit_is_redone_on_a_change_made_while_it_wrote(
    tool: MemoryTool, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(tool.store.root(Scope.GLOBAL) / "a.md", "one\ntwo\n")
    # mux adds a line while Memtab writes its version (its temp file is being synced).
    act_once_before(monkeypatch, "fsync", mux_writes(path, "one\ntwo\nfrom mux\n"))
    ok(
        tool.execute(
            {"command": "str_replace", "path": f"{G}/a.md", "old_str": "two", "new_str": "2"}
        )
    )
    monkeypatch.undo()
    assert path.read_text() == "one\n2\nfrom mux\n"  # both changes kept


def test_a_change_made_while_memtab_checks_the_file_is_not_overwritten(
    tool: MemoryTool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # mux renames its version in after Memtab's last look at the content (the check has
    # read the old text and is closing the file), just before Memtab's rename.
    path = write(tool.store.root(Scope.GLOBAL) / "a.md", "one\ntwo\n")
    real_fsync, real_close = os.fsync, os.close
    armed, done = [False], [False]

    def fsync(fd: int) -> None:
        real_fsync(fd)
        armed[0] = True  # Memtab's new version is written; the check comes next

    def close(fd: int) -> None:
        real_close(fd)
        if armed[0] and not done[0]:
            done[0] = True
            mux_writes(path, "one\ntwo\nfrom mux\n")()

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "close", close)
    ok(
        tool.execute(
            {"command": "str_replace", "path": f"{G}/a.md", "old_str": "two", "new_str": "2"}
        )
    )
    monkeypatch.undo()
    assert done[0]
    assert path.read_text() == "one\n2\nfrom mux\n"  # both changes kept


def test_an_insert_is_redone_on_a_change_made_while_it_wrote(
    tool: MemoryTool, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(tool.store.root(Scope.GLOBAL) / "a.md", "one")
    act_once_before(monkeypatch, "fsync", mux_writes(path, "zero\none"))
    ok(
        tool.execute(
            {"command": "insert", "path": f"{G}/a.md", "insert_line": 0, "insert_text": "top"}
        )
    )
    monkeypatch.undo()
    assert path.read_text() == "top\nzero\none"


def test_an_edit_whose_text_is_gone_after_the_change_fails_cleanly(
    tool: MemoryTool, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(tool.store.root(Scope.GLOBAL) / "a.md", "old line\n")
    act_once_before(monkeypatch, "fsync", mux_writes(path, "rewritten by mux\n"))
    error = err(
        tool.execute(
            {"command": "str_replace", "path": f"{G}/a.md", "old_str": "old", "new_str": "x"}
        )
    )
    monkeypatch.undo()
    assert "old_str was not found" in error
    assert path.read_text() == "rewritten by mux\n"


def test_a_file_that_keeps_changing_is_not_overwritten(
    store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(store.root(Scope.GLOBAL) / "a.md", "v0")
    versions = iter(range(1, 100))
    act_once_before(
        monkeypatch, "fsync", lambda: mux_writes(path, f"v{next(versions)}")(), times=100
    )
    with pytest.raises(ChangedDuringEditError, match="kept changing"):
        store.edit_text(vpath(f"{G}/a.md"), lambda text: text + " edited")
    monkeypatch.undo()
    assert "edited" not in path.read_text()
    assert [p.name for p in path.parent.iterdir() if p.name.startswith(".")] == []


def test_an_editor_save_reports_a_change_made_while_it_wrote(
    store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(store.root(Scope.GLOBAL) / "a.md", "loaded")
    loaded = store.read(vpath(f"{G}/a.md"))
    act_once_before(monkeypatch, "fsync", mux_writes(path, "mux's version"))
    with pytest.raises(SaveConflictError) as conflict:
        store.save(vpath(f"{G}/a.md"), "mine", loaded.sha256)
    monkeypatch.undo()
    assert conflict.value.kind == "changed"
    assert path.read_text() == "mux's version"


# --- creates and renames never clobber ------------------------------------------------------


@pytest.mark.parametrize("os_call", ["replace", "link"])
def test_create_never_clobbers_a_file_that_appeared_after_the_check(
    tool: MemoryTool, monkeypatch: pytest.MonkeyPatch, os_call: str
) -> None:
    path = tool.store.root(Scope.GLOBAL) / "new.md"
    path.parent.mkdir(parents=True)

    def appear() -> None:
        path.write_text("written by mux first")

    act_once_before(monkeypatch, "replace", appear)
    act_once_before_publishing(monkeypatch, appear)
    error = err(tool.execute({"command": "create", "path": f"{G}/new.md", "file_text": "mine"}))
    monkeypatch.undo()
    assert "already exists" in error
    assert path.read_text() == "written by mux first"
    assert [p.name for p in path.parent.iterdir()] == ["new.md"]


def test_a_new_editor_file_never_clobbers_one_that_appeared(
    store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = store.root(Scope.GLOBAL) / "new.md"
    path.parent.mkdir(parents=True)
    appear = mux_writes(path, "theirs")
    act_once_before(monkeypatch, "replace", appear)
    act_once_before_publishing(monkeypatch, appear)
    with pytest.raises(SaveConflictError) as conflict:
        store.save(vpath(f"{G}/new.md"), "mine", None)
    monkeypatch.undo()
    assert conflict.value.kind == "exists" and path.read_text() == "theirs"


@pytest.mark.parametrize("kind", ["file", "dir"])
def test_a_rename_never_overwrites_a_destination_created_after_the_check(
    store: MemoryStore, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    root = store.root(Scope.GLOBAL)
    if kind == "file":
        write(root / "old.md", "moving")
    else:
        write(root / "old.md" / "inner.md", "moving")
    destination = root / "new.md"

    def appear() -> None:
        write(destination / "theirs.md" if kind == "dir" else destination, "theirs")

    act_once_before(monkeypatch, "rename", appear)
    act_once_before(monkeypatch, "link", appear)
    with pytest.raises(AlreadyExistsError):
        store.move(vpath(f"{G}/old.md"), vpath(f"{G}/new.md"))
    monkeypatch.undo()
    theirs = destination / "theirs.md" if kind == "dir" else destination
    assert theirs.read_text() == "theirs"
    moving = root / "old.md" / "inner.md" if kind == "dir" else root / "old.md"
    assert moving.read_text() == "moving"


# --- symlinks swapped in after the check --------------------------------------------------


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    directory = tmp_path / "outside"
    directory.mkdir()
    return directory


def swap_for_link(directory: Path, outside: Path) -> Callable[[], None]:
    """Replace `directory` by a symlink to `outside` (what an attacker races in)."""

    def swap() -> None:
        moved = directory.with_name(directory.name + ".real")
        os.rename(directory, moved)
        os.symlink(outside, directory)

    return swap


@pytest.mark.parametrize(
    "call",
    [
        {"command": "create", "path": f"{G}/sub/x.md", "file_text": "x"},
        {"command": "str_replace", "path": f"{G}/sub/a.md", "old_str": "a", "new_str": "b"},
        {"command": "insert", "path": f"{G}/sub/a.md", "insert_line": 0, "insert_text": "b"},
        {"command": "delete", "path": f"{G}/sub/a.md"},
        {"command": "rename", "old_path": f"{G}/sub/a.md", "new_path": f"{G}/moved.md"},
    ],
    ids=lambda call: str(call["command"]),
)
def test_a_directory_swapped_for_a_link_just_before_the_write_gets_nothing_outside(
    tool: MemoryTool, outside: Path, monkeypatch: pytest.MonkeyPatch, call: dict[str, object]
) -> None:
    root = tool.store.root(Scope.GLOBAL)
    write(root / "sub" / "a.md", "a")
    write(outside / "a.md", "outside a")
    before = snapshot(outside)
    swap = swap_for_link(root / "sub", outside)
    swapped: list[bool] = []

    def hook(name: str, is_write: Callable[..., bool]) -> None:
        real = getattr(os, name)

        def wrapper(*args: Any, **kwargs: Any) -> Any:
            # Every check is done; the write itself is next: swap the directory now.
            if not swapped and is_write(*args, **kwargs):
                swapped.append(True)
                swap()
            return real(*args, **kwargs)

        monkeypatch.setattr(os, name, wrapper)

    hook("open", lambda path, flags, *a, **k: bool(flags & os.O_CREAT) and ".tmp" in str(path))
    for name in ("unlink", "rename", "link"):
        hook(name, lambda *a, **k: True)
    tool.execute(call)
    monkeypatch.undo()
    assert swapped
    assert snapshot(outside) == before, "the write went outside the memory root"


FLIPPER = r"""
import os, sys

root, outside = sys.argv[1], sys.argv[2]
sub, real = os.path.join(root, "sub"), os.path.join(root, "sub.real")
print("flipping", flush=True)
while True:  # swap sub between a real directory and a link out, as fast as possible
    try:
        os.rename(sub, real)
        os.symlink(outside, sub)
        os.unlink(sub)
        os.rename(real, sub)
    except OSError:
        pass
"""


@pytest.mark.slow
def test_racing_symlink_swaps_never_let_a_create_land_outside(
    store: MemoryStore, outside: Path
) -> None:
    root = store.root(Scope.GLOBAL)
    (root / "sub").mkdir(parents=True)
    flipper = subprocess.Popen(
        [sys.executable, "-c", FLIPPER, str(root), str(outside)], stdout=subprocess.PIPE
    )
    try:
        assert flipper.stdout is not None and flipper.stdout.readline() == b"flipping\n"
        for index in range(150):
            with contextlib.suppress(PathError, MemoryStoreError):  # refused is fine
                store.create_file(vpath(f"{G}/sub/x{index}.md"), "x")
    finally:
        flipper.kill()
        flipper.wait()
        if flipper.stdout:
            flipper.stdout.close()
    assert list(outside.iterdir()) == []


# --- links that stay inside a scope ---------------------------------------------------------


@pytest.mark.parametrize(
    "call",
    [
        {"command": "view", "path": f"{G}/al/preferences.md"},
        {"command": "create", "path": f"{G}/al/new.md", "file_text": "x"},
        {
            "command": "str_replace",
            "path": f"{G}/al/preferences.md",
            "old_str": "k",
            "new_str": "x",
        },
        {
            "command": "insert",
            "path": f"{G}/al/preferences.md",
            "insert_line": 0,
            "insert_text": "x",
        },
        {"command": "delete", "path": f"{G}/al/preferences.md"},
        {"command": "rename", "old_path": f"{G}/al/preferences.md", "new_path": f"{G}/p.md"},
    ],
    ids=lambda call: str(call["command"]),
)
def test_a_path_through_a_symlinked_directory_inside_the_scope_is_refused(
    tool: MemoryTool, call: dict[str, object]
) -> None:
    root = tool.store.root(Scope.GLOBAL)
    write(root / "preferences.md", "keep\n")
    (root / "al").symlink_to(".")
    before = snapshot(root)
    error = err(tool.execute(call))
    assert "symbolic link" in error
    assert snapshot(root) == before


def test_editor_operations_refuse_a_path_through_a_symlinked_directory(store: MemoryStore) -> None:
    root = store.root(Scope.GLOBAL)
    write(root / "preferences.md", "keep\n")
    (root / "al").symlink_to(".")
    for action in (
        lambda: store.read(vpath(f"{G}/al/preferences.md")),
        lambda: store.save(vpath(f"{G}/al/preferences.md"), "x", None),
        lambda: store.delete(vpath(f"{G}/al/preferences.md")),
        lambda: store.set_pinned(vpath(f"{G}/al/preferences.md"), True),
    ):
        with pytest.raises(PathError, match="symbolic link"):
            action()
    assert (root / "preferences.md").read_text() == "keep\n"


# --- hard links -------------------------------------------------------------------------------


def test_a_hard_link_to_an_outside_file_is_not_readable(tool: MemoryTool, outside: Path) -> None:
    secret = write(outside / "secret.md", "---\ndescription: TOP SECRET\n---\nTOP SECRET\n")
    root = tool.store.root(Scope.GLOBAL)
    root.mkdir(parents=True)
    os.link(secret, root / "linked.md")
    error = err(tool.execute({"command": "view", "path": f"{G}/linked.md"}))
    assert "hard links" in error and "SECRET" not in error
    with pytest.raises(Exception, match="hard links"):
        tool.store.read(vpath(f"{G}/linked.md"))
    assert "hard links" in err(
        tool.execute(
            {"command": "str_replace", "path": f"{G}/linked.md", "old_str": "TOP", "new_str": "x"}
        )
    )
    (entry,) = tool.store.list_scope(Scope.GLOBAL).files
    assert entry.description == ""  # listed, but its content is not read
    assert secret.read_text().startswith("---\ndescription: TOP SECRET")


@pytest.mark.expect_log(
    "memtab.store.history.capture",
    "WARNING",
    r"^History cannot keep /memories/global/(dir/)?linked.md: it has other hard links",
)
@pytest.mark.parametrize("moved", ["linked.md", "dir"])
def test_a_hard_link_cannot_be_laundered_by_a_move_across_scopes(
    store: MemoryStore, outside: Path, moved: str
) -> None:
    # A copy would turn the link to an outside file into a readable file of its own.
    secret = write(outside / "secret.md", "TOP SECRET\n")
    root = store.root(Scope.GLOBAL)
    target = root / "dir" / "linked.md" if moved == "dir" else root / "linked.md"
    target.parent.mkdir(parents=True)
    if moved == "dir":
        write(root / "dir" / "plain.md", "plain")
    os.link(secret, target)
    with pytest.raises(MemoryStoreError, match="hard links"):
        store.move(vpath(f"{G}/{moved}"), vpath(f"/memories/workspace/{moved}"))
    assert not (store.root(Scope.WORKSPACE) / moved).exists()
    assert target.exists() and secret.read_text() == "TOP SECRET\n"


def test_a_create_killed_after_publishing_leaves_a_readable_file(tool: MemoryTool) -> None:
    # Killed between the link that publishes a new file and the unlink of its temp name:
    # the file's other link is Memtab's own temp, not a file outside.
    path = write(tool.store.root(Scope.GLOBAL) / "new.md", "complete\n")
    os.link(path, path.with_name(".new.md.0123abcd.tmp"))
    assert ok(tool.execute({"command": "view", "path": f"{G}/new.md"})) == "1\tcomplete"
    ok(
        tool.execute(
            {"command": "str_replace", "path": f"{G}/new.md", "old_str": "c", "new_str": "C"}
        )
    )
    assert path.read_text() == "Complete\n"
