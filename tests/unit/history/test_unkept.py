"""A change that would destroy content history cannot keep is refused, not made with a
warning; one that destroys nothing goes on (docs/formats.md §14.2).

"History cannot keep" is simulated two ways that work as root and as a user: history's
directory replaced by a file (the OS refuses every write under it: ENOTDIR), and every
write of a copy or an index line failing as on a read-only file system (EROFS).
"""

from __future__ import annotations

import errno
import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from memtab.cli.main import main
from memtab.store.catch_up.external import record_external
from memtab.store.history import capture
from memtab.store.history.blobs import BlobStore
from memtab.store.history.jsonlines import JsonLinesFile
from memtab.store.home import Home
from memtab.store.paths import parse_file_path
from memtab.store.restore.from_history import file_history, restore, trash
from memtab.store.scopes.memory import MemoryStore, UnkeptChangeError
from memtab.store.scopes.tool import MemoryTool
from support.memory_paths import vpath

from .helpers import WS, disk, new_home, store_for, versions

A = "/memories/global/a.md"


@pytest.fixture
def home(tmp_path: Path) -> Home:
    return new_home(tmp_path / "home")


@pytest.fixture
def read_only_history(home: Home, monkeypatch: pytest.MonkeyPatch) -> Callable[[], None]:
    """Call it: from then on history can store no copy and append no line (EROFS)."""

    def refuse(*_args: object, **_kwargs: object) -> None:
        raise OSError(errno.EROFS, "Read-only file system", str(home.history_dir))

    def make_read_only() -> None:
        monkeypatch.setattr(BlobStore, "put", refuse)
        monkeypatch.setattr(JsonLinesFile, "append_locked", refuse)

    return make_read_only


def history_is_a_file(home: Home) -> None:
    """History's directory replaced by a regular file: nothing can be written under it."""
    shutil.rmtree(home.history_dir)
    home.history_dir.write_text("not a directory\n")


def edited_outside(store: MemoryStore, path: str, text: str) -> None:
    """A file Memtab made, then changed by mux or an editor (history has not seen it)."""
    store.create_file(vpath(path), "as memtab wrote it\n")
    store.physical(parse_file_path(path)).write_text(text)


def tool_cli(capsys: pytest.CaptureFixture[str], home: Home, **call: Any) -> tuple[int, Any]:
    status = main(["--home", str(home.root), "tool", json.dumps(call), "--workspace", WS])
    return status, json.loads(capsys.readouterr().out)


def refused_message(path: str, done: str) -> str:
    return rf"^{path} was not {done}: history cannot keep a copy of what it holds \("


# --- refused: the content would be gone -----------------------------------------------------


@pytest.mark.expect_log("memtab.store.history.jsonlines", "WARNING", r"Cannot read .*Not a dir")
def test_a_tool_delete_is_refused_when_history_is_not_a_directory(
    home: Home, capsys: pytest.CaptureFixture[str]
) -> None:
    store = store_for(home)
    store.create_file(vpath(A), "only copy\n")
    store.physical(parse_file_path(A)).write_text("their edit, the only copy\n")
    history_is_a_file(home)

    status, result = tool_cli(capsys, home, command="delete", path=A)

    assert status == 1 and result["success"] is False
    assert result["error"] == (
        f"{A} was not deleted: history cannot keep a copy of what it holds "
        f"({home.history_dir} is not a directory)"
    )
    assert disk(store, A) == b"their edit, the only copy\n"


def test_an_edit_that_removes_text_is_refused_and_the_model_is_told(
    home: Home, read_only_history: Callable[[], None]
) -> None:
    store = store_for(home, actor="consolidator")
    edited_outside(store, A, "keep this line\nand this one\n")
    read_only_history()
    result = MemoryTool(store).execute(
        {"command": "str_replace", "path": A, "old_str": "and this one\n", "new_str": ""}
    )
    assert not result.success
    assert result.error.startswith(f"{A} was not edited: history cannot keep a copy")
    assert f"{store.home.history_dir} is on a read-only file system" in result.error
    assert disk(store, A) == b"keep this line\nand this one\n"


def test_an_editor_save_over_unkept_content_is_refused_unless_chosen(
    home: Home, read_only_history: Callable[[], None], expect_log: Any
) -> None:
    store = store_for(home)
    edited_outside(store, A, "their edit\n")
    read_only_history()
    loaded = store.read(vpath(A)).sha256
    with pytest.raises(UnkeptChangeError, match=refused_message(A, "saved")) as refused:
        store.save(vpath(A), "mine\n", loaded)
    assert refused.value.cause.endswith("is on a read-only file system")
    assert disk(store, A) == b"their edit\n"

    expect_log("memtab.store.history.recorder", "WARNING", rf"^{A} saved without a copy")
    expect_log("memtab.store.history.recorder", "WARNING", r"Could not record the history")
    store.save(vpath(A), "mine\n", loaded, allow_unkept=True)  # "Save without a copy"
    assert disk(store, A) == b"mine\n"


@pytest.mark.expect_log("memtab.store.catch_up.external", "WARNING", r"cannot record external")
def test_a_restore_over_unkept_content_is_refused_by_the_cli(
    home: Home, read_only_history: Callable[[], None], capsys: pytest.CaptureFixture[str]
) -> None:
    store = store_for(home)
    store.create_file(vpath(A), "first\n")
    (first,) = versions(store)
    history_root = home.history_dir
    store.physical(parse_file_path(A)).write_text("their edit\n")
    read_only_history()

    status = main(["--home", str(home.root), "restore", A, "--version", first.id])

    assert status == 1
    error = capsys.readouterr().err.splitlines()[-1]
    assert error.startswith(f"memtab: {A} was not restored: history cannot keep a copy")
    assert str(history_root) in error
    assert disk(store, A) == b"their edit\n"


def test_deleting_a_file_too_large_for_history_is_refused(
    home: Home, monkeypatch: pytest.MonkeyPatch, expect_log: Any
) -> None:
    monkeypatch.setattr(capture, "MAX_HISTORY_FILE_BYTES", 1024)
    store = store_for(home)
    big = store.physical(parse_file_path("/memories/global/notes/big.md"))
    big.parent.mkdir(parents=True)
    big.write_bytes(b"x" * 2048)
    with pytest.raises(UnkeptChangeError, match=r"keeps no copy of /memories/global/notes/big"):
        store.delete(vpath("/memories/global/notes"))
    assert big.exists()

    expect_log("memtab.store.scopes.memory", "WARNING", r"^/memories/global/notes deleted without")
    store.delete(vpath("/memories/global/notes"), allow_unkept=True)
    assert not big.exists()


# --- never refused: nothing is destroyed, or history holds it already -----------------------


@pytest.mark.expect_log("memtab.store.history.recorder", "WARNING", r"Could not record")
def test_content_history_already_holds_is_deleted_and_restorable_later(
    home: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = store_for(home)
    store.create_file(vpath(A), "recorded\n")
    with monkeypatch.context() as patch:  # read-only for the delete only
        patch.setattr(BlobStore, "put", _read_only)
        patch.setattr(JsonLinesFile, "append_locked", _read_only)
        assert MemoryTool(store).execute({"command": "delete", "path": A}).success
    assert disk(store, A) is None
    record_external(store)  # history writable again: the deletion is seen
    (item,) = trash(store)
    restore(store, vpath(item.path), item.version.id)
    assert disk(store, A) == b"recorded\n"


def test_inserts_creates_and_moves_go_on_with_a_warning(
    home: Home, read_only_history: Callable[[], None], expect_log: Any
) -> None:
    store = store_for(home)
    tool = MemoryTool(store)
    read_only_history()
    expect_log("memtab.store.history.recorder", "WARNING", r"Could not record")
    assert tool.execute({"command": "create", "path": A, "file_text": "one\n"}).success
    store.physical(parse_file_path(A)).write_text("one\ntwo\n")  # unseen by history

    expect_log("memtab.store.history.recorder", "WARNING", rf"^{A} edited \(nothing of it was")
    inserted = tool.execute({"command": "insert", "path": A, "insert_line": 1, "insert_text": "x"})
    assert inserted.success, inserted.error
    assert disk(store, A) == b"one\nx\ntwo\n"

    expect_log("memtab.store.history.recorder", "WARNING", rf"^{A} moved \(nothing of it was")
    store.move(vpath(A), vpath("/memories/workspace/a.md"))
    assert disk(store, "/memories/workspace/a.md") == b"one\nx\ntwo\n"


def test_a_save_that_only_adds_text_goes_on(
    home: Home, read_only_history: Callable[[], None], expect_log: Any
) -> None:
    store = store_for(home)
    edited_outside(store, A, "their line\n")
    read_only_history()
    expect_log("memtab.store.history.recorder", "WARNING", rf"^{A} saved \(nothing of it was")
    expect_log("memtab.store.history.recorder", "WARNING", r"Could not record")
    store.save(vpath(A), "their line\nmy line\n", store.read(vpath(A)).sha256)
    assert disk(store, A) == b"their line\nmy line\n"


def _read_only(*_args: object, **_kwargs: object) -> None:
    raise OSError(errno.EROFS, "Read-only file system")


# --- restore --to onto another file ---------------------------------------------------------


def test_restore_to_an_existing_other_file_needs_force(
    home: Home, capsys: pytest.CaptureFixture[str]
) -> None:
    store = store_for(home)
    store.create_file(vpath(A), "a's first\n")
    store.create_file(vpath("/memories/global/b.md"), "b, unrelated\n")
    (first,) = file_history(store, vpath(A))
    restore_to_b = ["--home", str(home.root), "restore", A, "--version", first.id]
    restore_to_b += ["--to", "/memories/global/b.md"]

    assert main(restore_to_b) == 1
    assert "/memories/global/b.md already exists" in capsys.readouterr().err
    assert disk(store, "/memories/global/b.md") == b"b, unrelated\n"

    assert main([*restore_to_b, "--force"]) == 0
    assert disk(store, "/memories/global/b.md") == b"a's first\n"
    held = [BlobStore(home.history_blobs_dir).get(v.sha256) for v in versions(store)]
    assert b"b, unrelated\n" in held  # what it replaced is in history
