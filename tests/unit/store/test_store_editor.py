"""Editor operations (docs/formats.md §6): sha-checked saves, moves across scopes, dirs, pins."""

from __future__ import annotations

import hashlib

import pytest

from memtab.store.files import MAX_FILE_BYTES
from memtab.store.paths import PathError, Scope
from memtab.store.scopes.memory import (
    AlreadyExistsError,
    CapError,
    MemoryStore,
    MemoryStoreError,
    NotFoundError,
    SaveConflictError,
)
from support.memory_paths import vpath

from .helpers import PROJECT, WORKSPACE_ID, read_meta, write

G = "/memories/global"
W = "/memories/workspace"
P = "/memories/project"


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# --- read ------------------------------------------------------------------------------


def test_read_returns_content_and_its_sha256(store: MemoryStore) -> None:
    write(store.root(Scope.GLOBAL) / "a.md", "héllo\n")
    current = store.read(vpath(f"{G}/a.md"))
    assert current.content == "héllo\n"
    assert current.sha256 == _sha("héllo\n")
    assert (current.size_bytes, current.binary) == (len("héllo\n".encode()), False)


def test_read_sha_is_over_the_content_with_invalid_utf8_replaced(store: MemoryStore) -> None:
    write(store.root(Scope.GLOBAL) / "a.md", b"ok \xff\xfe end \xe9")
    current = store.read(vpath(f"{G}/a.md"))
    assert current.content == "ok \ufffd\ufffd end \ufffd"
    assert current.sha256 == _sha("ok \ufffd\ufffd end \ufffd")
    assert current.sha256 != hashlib.sha256(b"ok \xff\xfe end \xe9").hexdigest()


@pytest.mark.parametrize("raw", [f"{G}/missing.md", f"{G}/dir"])
def test_read_of_a_missing_file_or_a_directory(store: MemoryStore, raw: str) -> None:
    write(store.root(Scope.GLOBAL) / "dir" / "a.md", "a")
    with pytest.raises(NotFoundError):
        store.read(vpath(raw))


def test_read_rejects_invalid_paths(store: MemoryStore) -> None:
    with pytest.raises(PathError):
        store.read(vpath(f"{G}/../x.md"))
    with pytest.raises(PathError):
        store.read(vpath(G))


# --- save ------------------------------------------------------------------------------


def test_save_new_file(store: MemoryStore) -> None:
    result = store.save(vpath(f"{W}/notes/new.md"), "fresh\n", None)
    assert str(result.path) == f"{W}/notes/new.md"
    assert result.sha256 == _sha("fresh\n")
    assert (store.root(Scope.WORKSPACE) / "notes" / "new.md").read_text() == "fresh\n"


def test_save_existing_file_with_the_loaded_sha(store: MemoryStore) -> None:
    write(store.root(Scope.GLOBAL) / "a.md", "v1")
    loaded = store.read(vpath(f"{G}/a.md"))
    result = store.save(vpath(f"{G}/a.md"), "v2", loaded.sha256)
    assert result.sha256 == _sha("v2") == store.read(vpath(f"{G}/a.md")).sha256
    # The new sha guards the next save.
    store.save(vpath(f"{G}/a.md"), "v3", result.sha256)
    assert store.read(vpath(f"{G}/a.md")).content == "v3"


def test_saved_sha_matches_the_file_read_back_even_with_lone_surrogates(
    store: MemoryStore,
) -> None:
    result = store.save(vpath(f"{G}/s.md"), "a\ud800b", None)
    assert result.sha256 == store.read(vpath(f"{G}/s.md")).sha256 == _sha("a\ufffdb")


def test_conflict_null_sha_but_the_file_exists(store: MemoryStore) -> None:
    path = write(store.root(Scope.GLOBAL) / "a.md", b"theirs\r\n\xff")
    with pytest.raises(SaveConflictError) as conflict:
        store.save(vpath(f"{G}/a.md"), "mine", None)
    assert conflict.value.kind == "exists"
    assert "already exists; reload before saving" in str(conflict.value)
    assert path.read_bytes() == b"theirs\r\n\xff"
    assert read_meta(store.home) == {}


def test_conflict_null_sha_but_a_directory_exists(store: MemoryStore) -> None:
    write(store.root(Scope.GLOBAL) / "a.md" / "inner.md", "x")
    with pytest.raises(SaveConflictError) as conflict:
        store.save(vpath(f"{G}/a.md"), "mine", None)
    assert conflict.value.kind == "exists"
    assert (store.root(Scope.GLOBAL) / "a.md").is_dir()


def test_conflict_sha_given_but_the_file_is_gone(store: MemoryStore) -> None:
    with pytest.raises(SaveConflictError) as conflict:
        store.save(vpath(f"{G}/deleted.md"), "mine", _sha("old"))
    assert conflict.value.kind == "missing"
    assert "no longer exists; it may have been deleted" in str(conflict.value)
    assert not (store.root(Scope.GLOBAL) / "deleted.md").exists()
    assert read_meta(store.home) == {}


def test_conflict_sha_mismatch(store: MemoryStore) -> None:
    path = write(store.root(Scope.GLOBAL) / "a.md", "changed by mux\n")
    with pytest.raises(SaveConflictError) as conflict:
        store.save(vpath(f"{G}/a.md"), "mine", _sha("what the editor loaded\n"))
    assert conflict.value.kind == "changed"
    assert "changed since it was loaded" in str(conflict.value)
    assert path.read_bytes() == b"changed by mux\n"
    assert read_meta(store.home) == {}


def test_cap_violation_on_save_is_a_plain_error(store: MemoryStore) -> None:
    path = write(store.root(Scope.GLOBAL) / "a.md", "small")
    loaded = store.read(vpath(f"{G}/a.md"))
    with pytest.raises(CapError) as failure:
        store.save(vpath(f"{G}/a.md"), "x" * (MAX_FILE_BYTES + 1), loaded.sha256)
    assert not isinstance(failure.value, SaveConflictError)
    assert "limited to 102400 bytes" in str(failure.value)
    assert path.read_text() == "small"
    with pytest.raises(CapError):
        store.save(vpath(f"{G}/new.md"), "x" * (MAX_FILE_BYTES + 1), None)
    assert not (store.root(Scope.GLOBAL) / "new.md").exists()


def test_save_into_an_unavailable_project_scope(multi_store: MemoryStore) -> None:
    with pytest.raises(MemoryStoreError, match="multi-project"):
        multi_store.save(vpath(f"{P}/a.md"), "x", None)


# --- create, directories, delete ------------------------------------------------------


def test_create_file_returns_the_sha_and_refuses_to_overwrite(store: MemoryStore) -> None:
    assert store.create_file(vpath(f"{G}/a.md"), "x").sha256 == _sha("x")
    with pytest.raises(AlreadyExistsError):
        store.create_file(vpath(f"{G}/a.md"), "y")
    assert store.read(vpath(f"{G}/a.md")).content == "x"


def test_create_directory(store: MemoryStore) -> None:
    created = store.create_directory(vpath(f"{G}/a/b/c"))
    assert str(created) == f"{G}/a/b/c"
    assert (store.root(Scope.GLOBAL) / "a" / "b" / "c").is_dir()
    assert [d.relative for d in store.list_scope(Scope.GLOBAL).directories] == ["a", "a/b", "a/b/c"]
    with pytest.raises(AlreadyExistsError):
        store.create_directory(vpath(f"{G}/a/b"))
    write(store.root(Scope.GLOBAL) / "f.md", "x")
    with pytest.raises(AlreadyExistsError):
        store.create_directory(vpath(f"{G}/f.md"))
    with pytest.raises(AlreadyExistsError, match="is a file"):
        store.create_directory(vpath(f"{G}/f.md/sub"))


def test_delete_file_and_directory(store: MemoryStore) -> None:
    write(store.root(Scope.GLOBAL) / "a.md", "a")
    write(store.root(Scope.GLOBAL) / "dir" / "deep" / "b.md", "b")
    store.set_pinned(vpath(f"{G}/dir/deep/b.md"), True)
    store.set_pinned(vpath(f"{G}/a.md"), True)
    store.delete(vpath(f"{G}/a.md"))
    store.delete(vpath(f"{G}/dir"))
    assert list(store.root(Scope.GLOBAL).iterdir()) == []
    assert read_meta(store.home) == {}
    with pytest.raises(NotFoundError):
        store.delete(vpath(f"{G}/a.md"))
    with pytest.raises(PathError):
        store.delete(vpath(G))


# --- move (rename, and across scopes) -------------------------------------------------


def test_move_file_across_scopes_carries_pins_and_usage(store: MemoryStore) -> None:
    write(store.root(Scope.GLOBAL) / "a.md", b"bytes \xff kept")
    store.set_pinned(vpath(f"{G}/a.md"), True)
    moved = store.move(vpath(f"{G}/a.md"), vpath(f"{W}/sub/a2.md"))
    assert str(moved) == f"{W}/sub/a2.md"
    assert (store.root(Scope.WORKSPACE) / "sub" / "a2.md").read_bytes() == b"bytes \xff kept"
    assert not (store.root(Scope.GLOBAL) / "a.md").exists()
    entries = read_meta(store.home)
    assert "global:a.md" not in entries
    new_entry = entries[f"workspace:{WORKSPACE_ID}:sub/a2.md"]
    assert new_entry["pinned"] is True
    assert new_entry["accessCount"] == 2  # the pin, then the move's write


def test_move_directory_across_scopes(store: MemoryStore) -> None:
    write(store.root(Scope.GLOBAL) / "dir" / "x.md", "x")
    write(store.root(Scope.GLOBAL) / "dir" / "y" / "z.md", "z")
    store.set_pinned(vpath(f"{G}/dir/y/z.md"), True)
    store.move(vpath(f"{G}/dir"), vpath(f"{P}/dir2"))
    assert not (store.root(Scope.GLOBAL) / "dir").exists()
    assert [f.path.relative for f in store.list_scope(Scope.PROJECT).files] == [
        "dir2/x.md",
        "dir2/y/z.md",
    ]
    entries = read_meta(store.home)
    assert entries[f"project:{PROJECT}:dir2/y/z.md"]["pinned"] is True
    assert not any(key.startswith("global:") for key in entries)


@pytest.mark.parametrize("destination", [f"{W}/taken.md", f"{G}/taken.md"])
def test_move_refuses_to_overwrite(store: MemoryStore, destination: str) -> None:
    write(store.root(Scope.GLOBAL) / "a.md", "source")
    write(store.root(Scope.WORKSPACE) / "taken.md", "workspace's")
    write(store.root(Scope.GLOBAL) / "taken.md", "global's")
    with pytest.raises(AlreadyExistsError):
        store.move(vpath(f"{G}/a.md"), vpath(destination))
    assert store.read(vpath(f"{G}/a.md")).content == "source"
    assert store.read(vpath(f"{W}/taken.md")).content == "workspace's"
    assert store.read(vpath(f"{G}/taken.md")).content == "global's"


def test_move_within_a_scope_creates_parents(store: MemoryStore) -> None:
    write(store.root(Scope.GLOBAL) / "a.md", "a")
    store.move(vpath(f"{G}/a.md"), vpath(f"{G}/x/y/a.md"))
    assert store.read(vpath(f"{G}/x/y/a.md")).content == "a"


def test_move_into_itself_and_of_missing_sources(store: MemoryStore) -> None:
    write(store.root(Scope.GLOBAL) / "d" / "a.md", "a")
    with pytest.raises(MemoryStoreError, match="into itself"):
        store.move(vpath(f"{G}/d"), vpath(f"{G}/d/e"))
    with pytest.raises(MemoryStoreError, match="into itself"):
        store.move(vpath(f"{G}/d"), vpath(f"{G}/d"))
    with pytest.raises(NotFoundError):
        store.move(vpath(f"{G}/none.md"), vpath(f"{W}/none.md"))


def test_move_into_an_unavailable_scope(multi_store: MemoryStore) -> None:
    write(multi_store.root(Scope.GLOBAL) / "a.md", "a")
    with pytest.raises(MemoryStoreError, match="multi-project"):
        multi_store.move(vpath(f"{G}/a.md"), vpath(f"{P}/a.md"))
    assert multi_store.read(vpath(f"{G}/a.md")).content == "a"
