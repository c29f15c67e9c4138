"""Concurrency and crash safety: processes, threads, and SIGKILL in the middle of a save."""

from __future__ import annotations

import multiprocessing
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from multiprocessing.synchronize import Barrier
from pathlib import Path

import pytest

from memtab.fs.atomic import is_temp_name
from memtab.store.files import MAX_FILE_BYTES, STALE_TEMP_AGE_S
from memtab.store.home import Home
from memtab.store.paths import Scope
from memtab.store.scopes.memory import MemoryStore
from memtab.store.scopes.tool import MemoryTool
from memtab.store.sidecars.journal import Journal
from memtab.store.sidecars.meta import MetaStore, global_key
from memtab.store.sidecars.registry import Workspace

from . import workers
from .helpers import ok

PROCESSES = 4
PER_PROCESS = 50


def _run_in_processes(target: Callable[[str, int, int, Barrier], None], home: Home) -> None:
    context = multiprocessing.get_context("spawn")
    start = context.Barrier(PROCESSES)
    processes = [
        context.Process(target=target, args=(str(home.root), worker, PER_PROCESS, start))
        for worker in range(PROCESSES)
    ]
    for process in processes:
        process.start()
    for process in processes:
        process.join(timeout=120)
    assert [process.exitcode for process in processes] == [0] * PROCESSES


def test_concurrent_journal_saves_from_several_processes_all_survive(home: Home) -> None:
    _run_in_processes(workers.save_journal_runs, home)
    data = Journal(home).load()
    assert data.problems == ()
    assert set(data.workspaces) == {
        f"w{worker}-{index}" for worker in range(PROCESSES) for index in range(PER_PROCESS)
    }
    assert set(data.projects) == {f"/project/{worker}" for worker in range(PROCESSES)}


def test_concurrent_meta_writes_from_several_processes_all_survive(home: Home) -> None:
    _run_in_processes(workers.record_meta_writes, home)
    entries = MetaStore(home).load()
    assert set(entries) == {
        global_key(f"w{worker}/{index}.md")
        for worker in range(PROCESSES)
        for index in range(PER_PROCESS)
    }
    assert all(entry.access_count == 1 and entry.last_write_at for entry in entries.values())


def test_memtab_tool_edits_from_four_processes_lose_nothing(home: Home) -> None:
    # Inserts and str_replaces of one file, 50 per process through `memtab tool`: every
    # edit reported as done must be in the file (before the cross-process lock, about
    # one in forty was silently lost).
    markers = [
        workers.tool_marker(worker, index)
        for worker in range(PROCESSES)
        for index in range(1, PER_PROCESS, 2)
    ]
    log = home.global_root / "log.md"
    log.parent.mkdir(parents=True)
    log.write_text("\n".join(markers) + "\n", encoding="utf-8")
    _run_in_processes(workers.memtab_tool_edits, home)
    lines = log.read_text(encoding="utf-8").split("\n")
    expected = {
        f"ins {w}-{i}" if i % 2 == 0 else f"<r{w}-{i}>"
        for w in range(PROCESSES)
        for i in range(PER_PROCESS)
    }
    assert sorted(line for line in lines if line) == sorted(expected)


def test_parallel_tool_inserts_from_threads_never_lose_an_edit(
    home: Home, workspace: Workspace
) -> None:
    threads_count, inserts = 8, 25
    MemoryTool(MemoryStore(home, workspace)).execute(
        {"command": "create", "path": "/memories/workspace/log.md", "file_text": ""}
    )
    failures: list[str] = []

    def insert_lines(thread: int) -> None:
        # Each thread has its own store and tool: the locks must be process-wide.
        tool = MemoryTool(MemoryStore(home, workspace))
        for index in range(inserts):
            result = tool.execute(
                {
                    "command": "insert",
                    "path": "/memories/workspace/log.md",
                    "insert_line": 0,
                    "insert_text": f"t{thread}-{index}",
                }
            )
            if not result.success:
                failures.append(result.error)

    threads = [threading.Thread(target=insert_lines, args=(n,)) for n in range(threads_count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    store = MemoryStore(home, workspace)
    lines = store.read("/memories/workspace/log.md").content.split("\n")
    assert sorted(lines) == sorted(
        f"t{thread}-{index}" for thread in range(threads_count) for index in range(inserts)
    )
    (entry,) = store.meta_entries().values()
    assert entry.access_count == threads_count * inserts + 1  # no lost usage update either


def test_parallel_creates_of_one_path_let_exactly_one_win(home: Home, workspace: Workspace) -> None:
    results: list[bool] = []
    barrier = threading.Barrier(6)

    def create(thread: int) -> None:
        tool = MemoryTool(MemoryStore(home, workspace))
        barrier.wait()
        result = tool.execute(
            {"command": "create", "path": "/memories/global/race.md", "file_text": f"{thread}"}
        )
        results.append(result.success)

    threads = [threading.Thread(target=create, args=(n,)) for n in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == [False] * 5 + [True]


CRASH_ROUNDS = 20
CRASH_FILE_SIZE = 2 << 20  # 2 MiB: each save takes a few milliseconds
CRASH_NAMES = ("one.md", "two.md", "three.md")


def _kill_mid_write(
    mode: str, where: Path, size: int, names: tuple[str, ...], randomness: random.Random
) -> None:
    """Start crash_writer.py, let it write for a random moment, SIGKILL it."""
    writer = Path(__file__).with_name("crash_writer.py")
    child = subprocess.Popen(
        [sys.executable, str(writer), mode, str(where), str(size), *names],
        stdout=subprocess.PIPE,
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline() == b"writing\n"
        # Not waiting for anything: a random moment in the middle of the write loop.
        threading.Event().wait(randomness.uniform(0, 0.04))
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=10)
        if child.stdout:
            child.stdout.close()
    assert child.returncode == -signal.SIGKILL


def _age_leftovers(directory: Path) -> list[str]:
    """Make the temp files a killed writer left look a minute old; returns their names."""
    leftovers = [path for path in directory.iterdir() if path.name.startswith(".")]
    then = time.time() - 2 * STALE_TEMP_AGE_S
    for path in leftovers:
        os.utime(path, (then, then))
    return [path.name for path in leftovers]


def test_sigkill_during_atomic_writes_never_leaves_a_torn_file(store: MemoryStore) -> None:
    root = store.root(Scope.GLOBAL)
    root.mkdir(parents=True)
    old, new = b"A" * CRASH_FILE_SIZE, b"B" * CRASH_FILE_SIZE
    for name in CRASH_NAMES:
        (root / name).write_bytes(old)
    randomness = random.Random(1234)
    for _ in range(CRASH_ROUNDS):
        _kill_mid_write("atomic", root, CRASH_FILE_SIZE, CRASH_NAMES, randomness)
        for name in CRASH_NAMES:
            assert (root / name).read_bytes() in (old, new), f"{name} is torn"
        assert all(is_temp_name(name) for name in _age_leftovers(root))
        listing = store.list_scope(Scope.GLOBAL)  # the next start of the store
        assert [f.path.name for f in listing.files] == sorted(CRASH_NAMES)
        assert all(f.size_bytes == CRASH_FILE_SIZE for f in listing.files)
        assert sorted(os.listdir(root)) == sorted(CRASH_NAMES), "a temp file was left behind"


STORE_CRASH_SIZE = MAX_FILE_BYTES  # memory files are capped: the largest a save can be
STORE_CRASH_NAMES = ("saved.md", "edited.md", "saved-too.md", "edited-too.md")


def test_sigkill_during_store_saves_and_edits_leaves_no_torn_file_and_no_temp(
    home: Home,
) -> None:
    store = MemoryStore(home)
    root = store.root(Scope.GLOBAL)
    root.mkdir(parents=True)
    contents = ("A" * STORE_CRASH_SIZE, "B" * STORE_CRASH_SIZE)
    randomness = random.Random(4321)
    for _ in range(CRASH_ROUNDS):
        for name in STORE_CRASH_NAMES:  # every round starts from A
            (root / name).write_text(contents[0])
        _kill_mid_write("store", home.root, STORE_CRASH_SIZE, STORE_CRASH_NAMES, randomness)
        for name in STORE_CRASH_NAMES:
            assert (root / name).read_text() in contents, f"{name} is torn"
        _age_leftovers(root)
        store.list_scope(Scope.GLOBAL)  # the next start of the store
        assert sorted(os.listdir(root)) == sorted(STORE_CRASH_NAMES), "a temp was left behind"
        # The killed writer's scope lock died with it: the next edit goes straight on.
        current = store.read("/memories/global/saved.md")
        store.save("/memories/global/saved.md", contents[0], current.sha256)


@pytest.mark.parametrize("scope", [Scope.GLOBAL, Scope.WORKSPACE])
def test_tool_writes_leave_no_temp_files_behind(tool: MemoryTool, scope: Scope) -> None:
    path = f"{scope.virtual_root}/a.md"
    ok(tool.execute({"command": "create", "path": path, "file_text": "one"}))
    ok(tool.execute({"command": "insert", "path": path, "insert_line": 1, "insert_text": "two"}))
    ok(tool.execute({"command": "str_replace", "path": path, "old_str": "one", "new_str": "1"}))
    assert [p.name for p in tool.store.root(scope).iterdir()] == ["a.md"]
