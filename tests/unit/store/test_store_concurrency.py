"""Concurrency: processes and threads writing at once lose nothing (SIGKILL in the middle of
a save: test_store_kills.py)."""

from __future__ import annotations

import multiprocessing
import threading
from collections.abc import Callable
from multiprocessing.synchronize import Barrier

import pytest

from memtab.store.home import Home
from memtab.store.paths import Scope
from memtab.store.scopes.memory import MemoryStore
from memtab.store.scopes.tool import MemoryTool
from memtab.store.sidecars.journal import Journal
from memtab.store.sidecars.meta import MetaStore, global_key
from memtab.store.sidecars.registry import Workspace
from support.memory_paths import vpath

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


@pytest.mark.slow
def test_concurrent_journal_saves_from_several_processes_all_survive(home: Home) -> None:
    _run_in_processes(workers.save_journal_runs, home)
    data = Journal(home).load()
    assert data.problems == ()
    assert set(data.workspaces) == {
        f"w{worker}-{index}" for worker in range(PROCESSES) for index in range(PER_PROCESS)
    }
    assert set(data.projects) == {f"/project/{worker}" for worker in range(PROCESSES)}


@pytest.mark.slow
def test_concurrent_meta_writes_from_several_processes_all_survive(home: Home) -> None:
    _run_in_processes(workers.record_meta_writes, home)
    entries = MetaStore(home).load()
    assert set(entries) == {
        global_key(f"w{worker}/{index}.md")
        for worker in range(PROCESSES)
        for index in range(PER_PROCESS)
    }
    assert all(entry.access_count == 1 and entry.last_write_at for entry in entries.values())


@pytest.mark.slow
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


@pytest.mark.slow
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
    lines = store.read(vpath("/memories/workspace/log.md")).content.split("\n")
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


@pytest.mark.parametrize("scope", [Scope.GLOBAL, Scope.WORKSPACE])
def test_tool_writes_leave_no_temp_files_behind(tool: MemoryTool, scope: Scope) -> None:
    path = f"{scope.virtual_root}/a.md"
    ok(tool.execute({"command": "create", "path": path, "file_text": "one"}))
    ok(tool.execute({"command": "insert", "path": path, "insert_line": 1, "insert_text": "two"}))
    ok(tool.execute({"command": "str_replace", "path": path, "old_str": "one", "new_str": "1"}))
    assert [p.name for p in tool.store.root(scope).iterdir()] == ["a.md"]
