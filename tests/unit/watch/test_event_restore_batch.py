"""An event's files in one of mux's scopes are put back together (`bulk_restore`): durable
at once rather than five fsyncs each, every one recorded as the user's restore of the
version it puts back, a deleted file with its pins — and only where the event left it,
checked under the scope lock: what an agent writes meanwhile is left as it wrote it."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from memtab.components.files.undo import UndoStack, redo_step, restore_event, undo_step
from memtab.store.catch_up import external
from memtab.store.catch_up.external import record_external
from memtab.store.history.blobs import sha256_of
from memtab.store.home import Home
from memtab.store.paths import Scope
from memtab.store.restore import bulk_restore
from memtab.store.restore.from_history import file_history
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.meta import MetaStore
from memtab.watch import events
from memtab.watch.events import LeftPath, change_events
from support.memory_paths import vpath
from support.spies import calls_through

START_MS = 1_767_225_600_000
DELETED = 30
REWRITTEN = 10


class FakeClock:
    def __init__(self) -> None:
        self.now = START_MS

    def __call__(self) -> int:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeClock]:
    fake = FakeClock()
    monkeypatch.setattr(external, "now_ms", fake)
    # Publishing takes no time on bulk_restore's clock: one chunk however loaded the machine
    # (how a slow publish splits into chunks: tests/unit/store/test_bulk_restore_chunks.py).
    monkeypatch.setattr(
        bulk_restore, "time", SimpleNamespace(monotonic=lambda: 0.0, sleep=time.sleep)
    )
    yield fake


def _burst(tmp_path: Path, clock: FakeClock) -> tuple[MemoryStore, dict[str, bytes]]:
    """Forty notes of the global memory, the first pinned: another program deletes thirty
    and rewrites ten in one go. What every note held before it."""
    store = MemoryStore(Home(tmp_path / "home"), None)
    root = store.root(Scope.GLOBAL)
    root.mkdir(parents=True)
    for index in range(DELETED + REWRITTEN):
        (root / f"note{index:02d}.md").write_text(f"# Note {index}\n\nfact {index}\n", "utf-8")
    record_external(store, scopes=(Scope.GLOBAL,))
    store.set_pinned(vpath("/memories/global/note00.md"), True)
    before = _texts(root)
    clock.now += 60_000
    notes = sorted(root.glob("*.md"))
    for path in notes[:DELETED]:
        path.unlink()
    for path in notes[DELETED:]:
        path.write_text("# merged\n", "utf-8")
    record_external(store, scopes=(Scope.GLOBAL,))
    return store, before


def _texts(root: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(root.glob("*.md"))}


def test_an_events_files_of_one_scope_are_durable_together_each_a_restore(
    tmp_path: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    store, before = _burst(tmp_path, clock)
    root = store.root(Scope.GLOBAL)
    after = _texts(root)
    (event,) = change_events(store.home)
    stack = UndoStack()

    fsyncs = calls_through(monkeypatch, os, "fsync")
    restored, said = restore_event(stack, store.home, event)
    monkeypatch.undo()

    files = DELETED + REWRITTEN
    assert len(restored.restored) == files and restored.left == () and said.ok
    assert len(fsyncs) < files  # one by one: five each (200)
    assert _texts(root) == before
    assert store.is_pinned(vpath("/memories/global/note00.md"))  # its pin came back with it
    for name, index in (("note00.md", 1), ("note35.md", 2)):
        versions = file_history(store, vpath(f"/memories/global/{name}"))
        assert (versions[0].op, versions[0].actor) == ("restore", "user")
        assert versions[0].restored_from == versions[index].id  # the deletion, or before it
    (shown,) = change_events(store.home)
    assert shown.restored_words() == "restored"

    assert len(stack) == 1  # one step takes it all back
    undone = undo_step(store.home, stack.pop())  # type: ignore[arg-type]
    assert undone.ok, undone.message
    assert _texts(root) == after


def test_what_an_agent_writes_before_the_scope_is_locked_is_left_as_it_wrote_it(
    tmp_path: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    store, before = _burst(tmp_path, clock)
    root = store.root(Scope.GLOBAL)
    (event,) = change_events(store.home)
    real = events.restore_contents

    def agent_writes_first(*args: Any, **kwargs: Any) -> Any:
        (root / "note01.md").write_text("# Note 1, written again by the agent\n", "utf-8")
        (root / "note31.md").write_text("# merged, then edited\n", "utf-8")
        return real(*args, **kwargs)

    monkeypatch.setattr(events, "restore_contents", agent_writes_first)
    restored, said = restore_event(UndoStack(), store.home, event)

    assert set(restored.left) == {
        LeftPath(path="/memories/global/note01.md", why="a file is there again"),
        LeftPath(path="/memories/global/note31.md", why="it changed again since"),
    }
    assert len(restored.restored) == DELETED + REWRITTEN - 2
    assert said.message.endswith("left 2 files (changed since, or back already)")
    assert (root / "note01.md").read_text("utf-8") == "# Note 1, written again by the agent\n"
    assert (root / "note31.md").read_text("utf-8") == "# merged, then edited\n"
    assert (root / "note02.md").read_bytes() == before["note02.md"]
    assert not store.is_pinned(vpath("/memories/global/note01.md"))


def test_taking_the_restore_back_updates_the_uses_once(
    tmp_path: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    store, _before = _burst(tmp_path, clock)
    root = store.root(Scope.GLOBAL)
    after = _texts(root)
    (event,) = change_events(store.home)
    stack = UndoStack()
    restore_event(stack, store.home, event)
    pinned = vpath("/memories/global/note00.md")
    rewritten = store.meta.load()[store.meta_key(vpath("/memories/global/note35.md"))]
    assert store.is_pinned(pinned)

    updates = calls_through(monkeypatch, MetaStore, "_editing")
    undone = undo_step(store.home, stack.pop())  # type: ignore[arg-type]
    monkeypatch.undo()

    assert undone.ok and undone.message.endswith(f"{DELETED + REWRITTEN} files turned back")
    assert _texts(root) == after
    assert len(updates) == 1  # one update of memory-meta.json, not one a file (40)
    assert not store.is_pinned(pinned)  # what came back went again, its pins with it
    assert store.meta_key(pinned) not in store.meta.load()
    entries = store.meta.load()
    now = entries[store.meta_key(vpath("/memories/global/note35.md"))]
    assert now.access_count == rewritten.access_count + 1  # the undo's write counted


def test_taking_the_restore_back_is_durable_together_each_file_recorded(
    tmp_path: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    store, before = _burst(tmp_path, clock)
    root = store.root(Scope.GLOBAL)
    after = _texts(root)
    (event,) = change_events(store.home)
    stack = UndoStack()
    restore_event(stack, store.home, event)
    clock.now += 60_000

    fsyncs = calls_through(monkeypatch, os, "fsync")
    reads = calls_through(monkeypatch, MetaStore, "snapshot")
    undone = undo_step(store.home, stack.pop(), stack=stack)  # type: ignore[arg-type]
    monkeypatch.undo()

    files = DELETED + REWRITTEN
    assert undone.ok and undone.message.endswith(f"{files} files turned back")
    assert _texts(root) == after
    assert len(fsyncs) < files  # one by one: five each (200)
    assert len(reads) == 1  # memory-meta.json read once for the pins kept, not once a file
    pinned = file_history(store, vpath("/memories/global/note00.md"))
    assert (pinned[0].op, pinned[0].actor, pinned[0].deleted) == ("delete", "user", True)
    assert pinned[0].sha256 == pinned[1].sha256  # what the restore wrote is kept
    assert pinned[0].meta is not None and pinned[0].meta.get("pinned") is True
    rewritten = file_history(store, vpath("/memories/global/note35.md"))
    assert (rewritten[0].op, rewritten[0].actor) == ("restore", "user")
    assert rewritten[0].restored_from == rewritten[2].id  # what the burst wrote
    assert rewritten[1].sha256 == sha256_of(before["note35.md"])  # what it replaced, kept

    fsyncs = calls_through(monkeypatch, os, "fsync")
    redone = redo_step(store.home, stack.peek_redo(), stack=stack)  # type: ignore[arg-type]
    monkeypatch.undo()
    assert redone.ok, redone.message
    assert _texts(root) == before
    assert len(fsyncs) < files  # Redo together too
    assert store.is_pinned(vpath("/memories/global/note00.md"))  # its pin with it again
    back = file_history(store, vpath("/memories/global/note00.md"))[0]
    assert (back.op, back.restored_from) == ("restore", pinned[1].id)
    again = undo_step(store.home, stack.pop())  # type: ignore[arg-type]
    assert again.ok and again.message.endswith(f"{files} files turned back")
    assert _texts(root) == after


def test_taking_the_restore_back_together_leaves_what_was_changed_since(
    tmp_path: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    store, before = _burst(tmp_path, clock)
    root = store.root(Scope.GLOBAL)
    (event,) = change_events(store.home)
    stack = UndoStack()
    restore_event(stack, store.home, event)
    (root / "note01.md").write_text("# Note 1, edited since\n", "utf-8")
    (root / "note31.md").write_text("# Note 31, edited since\n", "utf-8")

    fsyncs = calls_through(monkeypatch, os, "fsync")
    undone = undo_step(store.home, stack.pop(), stack=stack)  # type: ignore[arg-type]
    monkeypatch.undo()

    files = DELETED + REWRITTEN
    assert len(fsyncs) < files  # the others still together
    assert undone.ok and f"{files - 2} of {files} files turned back" in undone.message
    assert "/memories/global/note01.md changed since it was created; kept" in undone.message
    assert "/memories/global/note31.md changed since; kept" in undone.message
    assert (root / "note01.md").read_text("utf-8") == "# Note 1, edited since\n"
    assert (root / "note31.md").read_text("utf-8") == "# Note 31, edited since\n"
    assert not (root / "note02.md").exists()
    assert (root / "note32.md").read_text("utf-8") == "# merged\n"
    assert before["note32.md"] != b"# merged\n"

    (root / "note02.md").write_text("# Note 2, written again by an agent\n", "utf-8")
    redone = redo_step(store.home, stack.peek_redo(), stack=stack)  # type: ignore[arg-type]
    assert redone.ok and "/memories/global/note02.md exists again; kept" in redone.message
    assert (root / "note02.md").read_text("utf-8") == "# Note 2, written again by an agent\n"
    assert (root / "note03.md").read_bytes() == before["note03.md"]
