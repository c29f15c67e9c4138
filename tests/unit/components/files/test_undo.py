"""Edit → Undo without Qt: each file operation pushes how to take it back, and taking it
back never overwrites what changed since."""

from __future__ import annotations

import errno

import pytest

from memtab.components.files import undo
from memtab.components.files.undo import MAX_STEPS, PinStep, UndoStack, undo_step
from memtab.file_protocol.file_ref import MemoryFileRef
from memtab.store.history.blobs import BlobStore
from memtab.store.home import Home
from memtab.store.paths import parse_file_path as p
from memtab.store.restore.from_history import file_history, trash
from memtab.store.scopes.memory import MemoryStore
from support.memory_paths import vpath
from unit.history.helpers import disk


def undo_last(home: Home, stack: UndoStack) -> str:
    step = stack.pop()
    assert step is not None
    result = undo_step(home, step)
    assert result.ok, result.error
    return result.message


def test_undoing_a_delete_brings_files_folders_pins_and_usage_back(
    home: Home, store: MemoryStore
) -> None:
    store.create_file(vpath("/memories/workspace/notes.md"), "notes\n")
    store.set_pinned(vpath("/memories/workspace/notes.md"), True)
    store.create_file(vpath("/memories/workspace/ideas/a.md"), "a\n")
    store.create_file(vpath("/memories/workspace/ideas/deep/b.md"), "b\n")
    store.create_directory(vpath("/memories/workspace/empty"))
    stack = UndoStack()
    paths = [p("/memories/workspace/notes.md"), p("/memories/workspace/ideas")]
    result = undo.delete(stack, store, [*paths, p("/memories/workspace/empty")])
    assert result.ok and disk(store, "/memories/workspace/ideas/a.md") is None
    step = stack.peek()
    assert step is not None and step.description == "delete of 3 items"
    assert undo_last(home, stack) == "Undid delete of 3 items: Restored 3 files"
    assert disk(store, "/memories/workspace/notes.md") == b"notes\n"
    assert disk(store, "/memories/workspace/ideas/deep/b.md") == b"b\n"
    assert store.kind_of(p("/memories/workspace/empty")) == "dir"
    assert store.is_pinned(p("/memories/workspace/notes.md"))
    assert len(stack) == 0


def test_undoing_a_delete_whose_name_was_taken_keeps_the_newer_file(
    home: Home, store: MemoryStore
) -> None:
    store.create_file(vpath("/memories/global/a.md"), "old\n")
    stack = UndoStack()
    undo.delete(stack, store, [p("/memories/global/a.md")])
    store.create_file(vpath("/memories/global/a.md"), "new\n")
    message = undo_last(home, stack)
    assert "a-restored.md" in message
    assert disk(store, "/memories/global/a.md") == b"new\n"
    assert disk(store, "/memories/global/a-restored.md") == b"old\n"


def test_undoing_a_move_across_scopes_moves_it_back_with_its_pin(
    home: Home, store: MemoryStore
) -> None:
    store.create_file(vpath("/memories/global/a.md"), "a\n")
    store.set_pinned(vpath("/memories/global/a.md"), True)
    stack = UndoStack()
    undo.move(stack, store, [(p("/memories/global/a.md"), p("/memories/project/a.md"))])
    step = stack.peek()
    assert step is not None and step.description == "move of a.md"
    assert step.affected == (MemoryFileRef.of_mux(p("/memories/project/a.md")),)
    assert undo_last(home, stack).startswith("Undid move of a.md: Moved")
    assert disk(store, "/memories/global/a.md") == b"a\n"
    assert disk(store, "/memories/project/a.md") is None
    assert store.is_pinned(p("/memories/global/a.md"))


def test_a_move_back_never_replaces_what_appeared_at_the_old_name(
    home: Home, store: MemoryStore
) -> None:
    store.create_file(vpath("/memories/global/a.md"), "a\n")
    stack = UndoStack()
    undo.move(stack, store, [(p("/memories/global/a.md"), p("/memories/global/b.md"))])
    assert stack.peek() is not None and stack.peek().description == "rename of a.md"  # type: ignore[union-attr]
    store.create_file(vpath("/memories/global/a.md"), "someone else's\n")
    step = stack.pop()
    assert step is not None
    result = undo_step(home, step)
    assert not result.ok and "already exists" in (result.error or "")
    assert disk(store, "/memories/global/a.md") == b"someone else's\n"
    assert disk(store, "/memories/global/b.md") == b"a\n"


def test_undoing_a_create_deletes_it_only_while_unchanged(home: Home, store: MemoryStore) -> None:
    stack = UndoStack()
    undo.create_file(stack, store, p("/memories/global/new.md"), "fresh\n")
    undo.create_file(stack, store, p("/memories/global/kept.md"), "fresh\n")
    kept = store.read(vpath("/memories/global/kept.md"))
    store.save(vpath("/memories/global/kept.md"), "edited since\n", kept.sha256)
    step = stack.pop()
    assert step is not None and step.description == "new file kept.md"
    refused = undo_step(home, step)
    assert not refused.ok and "changed since it was created" in (refused.error or "")
    assert disk(store, "/memories/global/kept.md") == b"edited since\n"
    assert undo_last(home, stack) == (
        "Undid new file new.md: Removed the new file /memories/global/new.md"
    )
    assert disk(store, "/memories/global/new.md") is None


def test_undoing_a_new_folder_removes_it_only_while_empty(home: Home, store: MemoryStore) -> None:
    stack = UndoStack()
    undo.create_directory(stack, store, p("/memories/global/empty"))
    undo.create_directory(stack, store, p("/memories/global/used"))
    store.create_file(vpath("/memories/global/used/x.md"), "x\n")
    step = stack.pop()
    assert step is not None
    assert not undo_step(home, step).ok
    assert store.kind_of(p("/memories/global/used/x.md")) == "file"
    undo_last(home, stack)
    assert store.kind_of(p("/memories/global/empty")) is None


def test_undoing_a_pin_and_failed_operations_push_nothing(home: Home, store: MemoryStore) -> None:
    store.create_file(vpath("/memories/global/a.md"), "a\n")
    stack = UndoStack()
    undo.set_pinned(stack, store, p("/memories/global/a.md"), True)
    assert stack.peek() == PinStep(
        store.workspace, "pin of a.md", p("/memories/global/a.md"), False
    )
    undo_last(home, stack)
    assert not store.is_pinned(p("/memories/global/a.md"))
    undo.delete(stack, store, [p("/memories/global/missing.md")])
    undo.move(stack, store, [(p("/memories/global/missing.md"), p("/memories/global/b.md"))])
    undo.create_file(stack, store, p("/memories/global/a.md"), "exists\n")
    assert len(stack) == 0


def test_taking_a_step_leaves_the_newer_ones() -> None:
    stack = UndoStack()
    older = PinStep(None, "pin of a.md", p("/memories/global/a.md"), False)
    stack.push(older)
    newer = PinStep(None, "pin of b.md", p("/memories/global/b.md"), False)
    stack.push(newer)  # e.g. pushed by the worker after `older` was peeked at
    assert stack.take(older) and stack.peek() is newer and len(stack) == 1
    assert not stack.take(older)


def test_the_stack_keeps_the_newest_steps() -> None:
    stack = UndoStack()
    for number in range(MAX_STEPS + 5):
        stack.push(PinStep(None, f"pin {number}", p("/memories/global/a.md"), False))
    assert len(stack) == MAX_STEPS
    top = stack.pop()
    assert top is not None and top.description == f"pin {MAX_STEPS + 4}"


def test_undoing_a_restore_of_a_deleted_file_deletes_it_again_with_its_pin(
    home: Home, store: MemoryStore
) -> None:
    store.create_file(vpath("/memories/global/a.md"), "a\n")
    store.set_pinned(vpath("/memories/global/a.md"), True)
    stack = UndoStack()
    undo.delete(stack, store, [p("/memories/global/a.md")])
    (item,) = [item for item in trash(store) if item.path == "/memories/global/a.md"]
    stack = UndoStack()  # the delete was made in another window
    assert undo.restore(stack, store, item.path, item.version.id).ok
    step = stack.peek()
    assert step is not None and step.description == "restore of a.md"
    assert undo_last(home, stack) == (
        "Undid restore of a.md: Removed the new file /memories/global/a.md"
    )
    assert disk(store, "/memories/global/a.md") is None
    (again,) = [item for item in trash(store) if item.path == "/memories/global/a.md"]
    assert again.pinned  # back in Recently deleted, as it was


def test_undoing_a_restore_of_an_older_version_brings_the_newer_back_only_if_unchanged(
    home: Home, store: MemoryStore
) -> None:
    store.create_file(vpath("/memories/global/a.md"), "one\n")
    first = store.read(vpath("/memories/global/a.md"))
    store.save(vpath("/memories/global/a.md"), "two\n", first.sha256)
    oldest = file_history(store, vpath("/memories/global/a.md"))[-1]
    stack = UndoStack()
    assert undo.restore(stack, store, "/memories/global/a.md", oldest.id).ok
    assert disk(store, "/memories/global/a.md") == b"one\n"
    assert undo_last(home, stack).startswith("Undid restore of a.md")
    assert disk(store, "/memories/global/a.md") == b"two\n"
    # Edited after the restore: the undo refuses and keeps the edit.
    undo.restore(stack, store, "/memories/global/a.md", oldest.id)
    restored = store.read(vpath("/memories/global/a.md"))
    store.save(vpath("/memories/global/a.md"), "three\n", restored.sha256)
    step = stack.pop()
    assert step is not None
    refused = undo_step(home, step)
    assert not refused.ok and "changed since" in (refused.error or "")
    assert disk(store, "/memories/global/a.md") == b"three\n"


def test_a_restore_that_changes_nothing_pushes_nothing(home: Home, store: MemoryStore) -> None:
    store.create_file(vpath("/memories/global/a.md"), "one\n")
    (version,) = file_history(store, vpath("/memories/global/a.md"))
    stack = UndoStack()
    assert undo.restore(stack, store, "/memories/global/a.md", version.id).ok
    assert undo.restore(stack, store, "/memories/global/a.md", "unknown").error
    assert len(stack) == 0


def _disk_full(*_args: object, **_kwargs: object) -> None:
    raise OSError(errno.ENOSPC, "No space left on device")


@pytest.mark.expect_log("memtab.store.history.recorder", "WARNING", r"restored without a copy")
@pytest.mark.expect_log("memtab.store.history.recorder", "WARNING", r"Could not record")
def test_a_restore_history_cannot_keep_says_so_and_goes_on_only_when_allowed(
    home: Home, store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = p("/memories/global/a.md")
    store.create_file(vpath(path), "first\n")
    (first,) = file_history(store, vpath(path))
    store.physical(path).write_text("their rewrite\n")  # history has not seen it
    monkeypatch.setattr(BlobStore, "put", _disk_full)
    stack = UndoStack()

    refused = undo.restore(stack, store, str(path), first.id)
    assert refused.unkept == "restored" and refused.error is not None
    assert refused.error.startswith(f"{path} was not restored: history cannot keep a copy")
    assert disk(store, str(path)) == b"their rewrite\n"

    done = undo.restore(stack, store, str(path), first.id, allow_unkept=True)
    assert done.ok and done.unkept is None
    assert disk(store, str(path)) == b"first\n"
