"""Edit → Redo without Qt: what Undo took back is made again — through the same steps,
recorded in history like any change — only where nothing changed since; a new operation
empties the redo stack."""

from __future__ import annotations

from memtab.components.files import undo
from memtab.components.files.undo import UndoStack, redo_step, undo_step
from memtab.store.home import Home
from memtab.store.paths import parse_file_path as p
from memtab.store.restore.from_history import file_history, trash
from memtab.store.scopes.memory import MemoryStore
from support.memory_paths import vpath
from unit.history.helpers import disk


def undo_last(home: Home, stack: UndoStack) -> str:
    step = stack.peek()
    assert step is not None and stack.take(step)
    result = undo_step(home, step, stack=stack)
    assert result.ok, result.error
    return result.message


def redo_last(home: Home, stack: UndoStack) -> str:
    step = stack.peek_redo()
    assert step is not None and stack.take_redo(step)
    result = redo_step(home, step, stack=stack)
    assert result.ok, result.error
    return result.message


def test_a_delete_is_made_again_and_taken_back_again(home: Home, store: MemoryStore) -> None:
    store.create_file(vpath("/memories/workspace/notes.md"), "notes\n")
    store.set_pinned(vpath("/memories/workspace/notes.md"), True)
    store.create_file(vpath("/memories/workspace/ideas/a.md"), "a\n")
    store.create_directory(vpath("/memories/workspace/empty"))
    stack = UndoStack()
    paths = [p("/memories/workspace/notes.md"), p("/memories/workspace/ideas")]
    undo.delete(stack, store, [*paths, p("/memories/workspace/empty")])
    undo_last(home, stack)
    assert stack.peek() is None and stack.peek_redo() is not None
    assert redo_last(home, stack) == "Redid delete of 3 items: Removed 3 items"
    assert disk(store, "/memories/workspace/notes.md") is None
    assert disk(store, "/memories/workspace/ideas/a.md") is None
    assert store.kind_of(p("/memories/workspace/empty")) is None
    # In Recently deleted with its pin, as after the first delete; and back once more.
    (notes,) = [item for item in trash(store) if item.path == "/memories/workspace/notes.md"]
    assert notes.pinned
    assert undo_last(home, stack).startswith("Undid delete of 3 items: Restored 2 files")
    assert disk(store, "/memories/workspace/ideas/a.md") == b"a\n"
    assert store.kind_of(p("/memories/workspace/empty")) == "dir"
    assert store.is_pinned(p("/memories/workspace/notes.md"))
    # Every change either way is in the file's history.
    ops = [version.op for version in file_history(store, vpath("/memories/workspace/notes.md"))]
    assert ops[:4] == ["restore", "delete", "restore", "delete"]


def test_a_redo_never_deletes_what_changed_since_the_undo(home: Home, store: MemoryStore) -> None:
    store.create_file(vpath("/memories/global/a.md"), "a\n")
    stack = UndoStack()
    undo.delete(stack, store, [p("/memories/global/a.md")])
    undo_last(home, stack)
    back = store.read(vpath("/memories/global/a.md"))
    store.save(vpath("/memories/global/a.md"), "edited since\n", back.sha256)
    step = stack.peek_redo()
    assert step is not None and stack.take_redo(step)
    refused = redo_step(home, step, stack=stack)
    assert not refused.ok and refused.message == "Redo of delete of a.md failed"
    assert "changed since" in (refused.error or "")
    assert disk(store, "/memories/global/a.md") == b"edited since\n"


def test_create_move_and_pin_are_made_again(home: Home, store: MemoryStore) -> None:
    stack = UndoStack()
    undo.create_file(stack, store, p("/memories/global/new.md"), "fresh\n")
    undo_last(home, stack)
    assert disk(store, "/memories/global/new.md") is None
    assert redo_last(home, stack).startswith("Redid new file new.md: Restored")
    assert disk(store, "/memories/global/new.md") == b"fresh\n"
    assert undo_last(home, stack).startswith("Undid new file new.md: Removed")
    assert disk(store, "/memories/global/new.md") is None

    undo.create_directory(stack, store, p("/memories/global/box"))
    undo_last(home, stack)
    redo_last(home, stack)
    assert store.kind_of(p("/memories/global/box")) == "dir"

    store.create_file(vpath("/memories/global/a.md"), "a\n")
    undo.move(stack, store, [(p("/memories/global/a.md"), p("/memories/project/b.md"))])
    undo_last(home, stack)
    assert disk(store, "/memories/global/a.md") == b"a\n"
    assert redo_last(home, stack).startswith("Redid move of a.md: Moved")
    assert disk(store, "/memories/project/b.md") == b"a\n"
    assert disk(store, "/memories/global/a.md") is None

    undo.set_pinned(stack, store, p("/memories/project/b.md"), True)
    undo_last(home, stack)
    assert not store.is_pinned(p("/memories/project/b.md"))
    assert (
        redo_last(home, stack)
        == "Redid pin of b.md: Pinned b.md — a running mux may overwrite pin changes"
    )
    assert store.is_pinned(p("/memories/project/b.md"))


def test_restores_are_made_again(home: Home, store: MemoryStore) -> None:
    store.create_file(vpath("/memories/global/a.md"), "one\n")
    first = store.read(vpath("/memories/global/a.md"))
    store.save(vpath("/memories/global/a.md"), "two\n", first.sha256)
    oldest = file_history(store, vpath("/memories/global/a.md"))[-1]
    stack = UndoStack()
    undo.restore(stack, store, "/memories/global/a.md", oldest.id)  # an older version
    undo_last(home, stack)
    assert disk(store, "/memories/global/a.md") == b"two\n"
    redo_last(home, stack)
    assert disk(store, "/memories/global/a.md") == b"one\n"
    undo_last(home, stack)
    assert disk(store, "/memories/global/a.md") == b"two\n"
    # A deleted file restored from Recently deleted: removed by Undo, back by Redo.
    undo.delete(stack, store, [p("/memories/global/a.md")])
    (item,) = [item for item in trash(store) if item.path == "/memories/global/a.md"]
    stack = UndoStack()
    undo.restore(stack, store, item.path, item.version.id)
    undo_last(home, stack)
    assert disk(store, "/memories/global/a.md") is None
    assert redo_last(home, stack) == "Redid restore of a.md: Restored /memories/global/a.md"
    assert disk(store, "/memories/global/a.md") == b"two\n"
    # Not over a file that took its name since the undo.
    undo_last(home, stack)
    store.create_file(vpath("/memories/global/a.md"), "someone else's\n")
    step = stack.peek_redo()
    assert step is not None and stack.take_redo(step)
    refused = redo_step(home, step, stack=stack)
    assert not refused.ok and "exists again" in (refused.error or "")
    assert disk(store, "/memories/global/a.md") == b"someone else's\n"


def test_a_new_operation_empties_the_redo_stack(home: Home, store: MemoryStore) -> None:
    store.create_file(vpath("/memories/global/a.md"), "a\n")
    stack = UndoStack()
    undo.set_pinned(stack, store, p("/memories/global/a.md"), True)
    undo_last(home, stack)
    assert stack.peek_redo() is not None
    undo.set_pinned(stack, store, p("/memories/global/a.md"), False)
    assert stack.peek_redo() is None
