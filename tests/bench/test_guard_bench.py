"""The guard: how soon a mass change is noticed (issue 72 point 6: within 5 s).

Run: .venv/bin/python -m pytest -q -p no:xdist --bench tests/bench/test_guard_bench.py -s

A memory of 931 notes in mux's global scope; another process deletes 400 and rewrites 345
of them in one run (a consolidator gone wrong). Measured from the end of that run:
- `memtab watch`'s recorder (in this process, its own thread): to its notification;
- the window (no recorder running: it records after its scans, as it does alone, with the
  window's own watcher settings): to the notice over the tree;
and what putting the 745 files back costs (`restore_event`, with its undo step), taking
that back (Edit → Undo) and making it again (Edit → Redo): wall and CPU, with the load.
Reported, never asserted.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from bench.table import Row, record
from gui import memory_tree_support as support
from gui.memory_tree_support import WindowFactory
from memtab.components.files.undo import UndoStack, redo_step, restore_event, undo_step
from memtab.gui.activity.watch import HomeWatcher
from memtab.gui.window import keys
from memtab.store.catch_up.external import record_external
from memtab.store.home import Home
from memtab.store.paths import Scope
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.registry import add_workspace, load_registry
from memtab.watch.events import change_events
from memtab.watch.guard import mass_changes
from memtab.watch.recorder import Recorder

pytestmark = pytest.mark.bench
make_window = support.make_window

FILES = 931
DELETED = 400
REWRITTEN = 345
TARGET_S = 5.0


def _memory(root: Path) -> tuple[Home, MemoryStore, list[Path]]:
    home = Home(root / "home")
    add_workspace(home, str(root / "project"), "main", workspace_id="a1a1a1a1a1")
    store = MemoryStore(home, load_registry(home).workspaces[0])
    folder = store.root(Scope.GLOBAL)
    folder.mkdir(parents=True)
    for index in range(FILES):
        text = f"# Note {index}\n\n- fact {index}: the service keeps it\n"
        (folder / f"note{index:04d}.md").write_text(text, "utf-8")
    record_external(store)
    return home, store, sorted(folder.glob("*.md"))


def _consolidator_run(notes: list[Path]) -> float:
    """Delete and rewrite from another process; when it ended (perf_counter)."""
    todo = {
        "delete": [str(p) for p in notes[:DELETED]],
        "rewrite": [str(p) for p in notes[DELETED : DELETED + REWRITTEN]],
    }
    script = (
        "import json, os, sys\n"
        "todo = json.loads(sys.argv[1])\n"
        "for path in todo['delete']: os.unlink(path)\n"
        "for path in todo['rewrite']: open(path, 'w').write('# merged\\n')\n"
    )
    subprocess.run([sys.executable, "-c", script, json.dumps(todo)], check=True, env=os.environ)
    return time.perf_counter()


@pytest.mark.expect_log("memtab.watch.recorder", "WARNING", "Mass change: ")
def test_the_recorder_tells_of_a_mass_change(tmp_path: Path) -> None:
    home, _store, notes = _memory(tmp_path)
    told = threading.Event()
    told_at: list[float] = []

    def notify(_summary: str, _body: str) -> bool:
        told_at.append(time.perf_counter())
        told.set()
        return True

    recorder = Recorder(home, notify=notify)
    thread = threading.Thread(target=recorder.run)
    thread.start()
    try:
        assert recorder.ready.wait(60)
        ended = _consolidator_run(notes)
        assert told.wait(60), "never told"
    finally:
        recorder.stop()
        thread.join(30)
    seconds = told_at[0] - ended
    record(
        "guard-recorder",
        Row(
            f"guard: {DELETED + REWRITTEN} of {FILES} files changed → memtab watch's notification",
            f"{seconds:.2f} s",
            f"≤ {TARGET_S:g} s",
        ),
    )
    print(f"\nrecorder → notification: {seconds:.2f} s")


def test_restoring_a_mass_change(tmp_path: Path) -> None:
    """Restore all of the 745 files the run took, as the window's Restore all does (one undo
    step); wall and CPU of the restore alone, the load beside them."""
    home, store, notes = _memory(tmp_path)
    _consolidator_run(notes)
    record_external(store)
    (change,) = mass_changes(home)
    load = os.getloadavg()[0]
    started, started_cpu = time.perf_counter(), time.process_time()
    stack = UndoStack()
    restored, _said = restore_event(stack, home, change.event)
    spent, cpu = time.perf_counter() - started, time.process_time() - started_cpu
    assert len(restored.restored) == DELETED + REWRITTEN
    (event,) = [event for event in change_events(home) if event.id == change.event.id]
    assert event.restored_words() == "restored"
    record(
        "guard-restore",
        Row(
            f"guard: Restore all of {DELETED + REWRITTEN} files (one undo step)",
            f"{spent:.2f} s ({cpu:.2f} s CPU, load {load:.1f})",
            "—",
        ),
    )
    print(
        f"\nrestore of {DELETED + REWRITTEN} files: {spent:.2f} s, {cpu:.2f} s CPU, load {load:.1f}"
    )

    step = stack.pop()
    assert step is not None
    load = os.getloadavg()[0]
    started, started_cpu = time.perf_counter(), time.process_time()
    undone = undo_step(home, step, stack=stack)
    spent, cpu = time.perf_counter() - started, time.process_time() - started_cpu
    assert undone.ok and undone.message.endswith(f"{DELETED + REWRITTEN} files turned back")
    record(
        "guard-undo",
        Row(
            "guard: Edit → Undo of that Restore all",
            f"{spent:.2f} s ({cpu:.2f} s CPU, load {load:.1f})",
            "—",
        ),
    )
    print(f"its undo: {spent:.2f} s, {cpu:.2f} s CPU, load {load:.1f}")

    again = stack.peek_redo()
    assert again is not None
    load = os.getloadavg()[0]
    started, started_cpu = time.perf_counter(), time.process_time()
    redone = redo_step(home, again, stack=stack)
    spent, cpu = time.perf_counter() - started, time.process_time() - started_cpu
    assert redone.ok and redone.message.endswith(f"{DELETED + REWRITTEN} files turned back")
    record(
        "guard-redo",
        Row(
            "guard: Edit → Redo of that Restore all",
            f"{spent:.2f} s ({cpu:.2f} s CPU, load {load:.1f})",
            "—",
        ),
    )
    print(f"its redo: {spent:.2f} s, {cpu:.2f} s CPU, load {load:.1f}")


def test_the_window_shows_a_mass_change(
    qtbot: QtBot, make_window: WindowFactory, tmp_path: Path
) -> None:
    home, _store, notes = _memory(tmp_path)
    window = make_window(
        home, "a1a1a1a1a1", watcher=HomeWatcher(), start_writer=False, start_check=False
    )
    support.wait_watching(qtbot, window)
    history = window.part(keys.HISTORY)
    assert history is not None and history.notices is not None
    notices = history.notices
    ended = _consolidator_run(notes)
    qtbot.waitUntil(lambda: notices.text.startswith("Mass change: "), timeout=60_000)
    seconds = time.perf_counter() - ended
    record(
        "guard-window",
        Row(
            f"guard: {DELETED + REWRITTEN} of {FILES} files changed → the window's notice",
            f"{seconds:.2f} s",
            f"≤ {TARGET_S:g} s",
        ),
    )
    print(f"\nwindow → notice: {seconds:.2f} s ({notices.text})")
