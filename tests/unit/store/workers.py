"""Code run in child processes by the concurrency tests (importable by `spawn`)."""

from __future__ import annotations

from multiprocessing.synchronize import Barrier
from pathlib import Path

from memtab.store.home import Home
from memtab.store.journal import ConsolidationRecord, Journal, JournalOp
from memtab.store.meta import MetaStore, global_key


def save_journal_runs(home_root: str, worker: int, count: int, start: Barrier) -> None:
    """Journal `count` runs of distinct workspaces (and this worker's project)."""
    journal = Journal(Home(Path(home_root)))
    start.wait()
    for index in range(count):
        record = ConsolidationRecord(
            last_run_at=1_700_000_000_000 + index,
            trigger="launch",
            summary=f"worker {worker} run {index}",
            ops=(JournalOp("create", f"/memories/global/{worker}-{index}.md", True),),
        )
        journal.save_run(f"w{worker}-{index}", f"/project/{worker}", record)


def record_meta_writes(home_root: str, worker: int, count: int, start: Barrier) -> None:
    """Record `count` writes of distinct memory paths."""
    meta = MetaStore(Home(Path(home_root)))
    start.wait()
    for index in range(count):
        meta.record_write(global_key(f"w{worker}/{index}.md"))
