"""Code run in child processes by the concurrency tests (importable by `spawn`)."""

from __future__ import annotations

import contextlib
import io
import json
from multiprocessing.synchronize import Barrier
from pathlib import Path

from memtab.store.home import Home
from memtab.store.sidecars.journal import ConsolidationRecord, Journal, JournalOp
from memtab.store.sidecars.meta import MetaStore, global_key


def save_journal_runs(home_root: str, worker: int, count: int, start: Barrier) -> None:
    """Journal `count` runs of distinct workspaces (and this worker's project)."""
    journal = Journal(Home(Path(home_root)))
    start.wait()
    for index in range(count):
        record = ConsolidationRecord(
            last_run_at=1_700_000_000_000 + index,
            trigger="launch",
            summary=f"worker {worker} run {index}",
            ops=(
                JournalOp(
                    command="create", path=f"/memories/global/{worker}-{index}.md", applied=True
                ),
            ),
        )
        journal.save_run(f"w{worker}-{index}", f"/project/{worker}", record)


def record_meta_writes(home_root: str, worker: int, count: int, start: Barrier) -> None:
    """Record `count` writes of distinct memory paths."""
    meta = MetaStore(Home(Path(home_root)))
    start.wait()
    for index in range(count):
        meta.record_write(global_key(f"w{worker}/{index}.md"))


TOOL_LOG = "/memories/global/log.md"


def tool_marker(worker: int, index: int) -> str:
    """A line the str_replace edits look for (delimited: `<m1-3>` is not in `<m1-30>`)."""
    return f"<m{worker}-{index}>"


def memtab_tool_edits(home_root: str, worker: int, count: int, start: Barrier) -> None:
    """Run `count` `memtab tool` edits of one file: inserts and str_replaces, alternating.

    Each goes through the CLI entry point, as `memtab tool` runs it; a failed call (or a
    call reported as a success whose edit is later missing) fails the test.
    """
    from memtab.cli.main import main

    start.wait()
    for index in range(count):
        if index % 2 == 0:
            call = {
                "command": "insert",
                "path": TOOL_LOG,
                "insert_line": 0,
                "insert_text": f"ins {worker}-{index}",
            }
        else:
            call = {
                "command": "str_replace",
                "path": TOOL_LOG,
                "old_str": tool_marker(worker, index),
                "new_str": f"<r{worker}-{index}>",
            }
        with contextlib.redirect_stdout(io.StringIO()):
            status = main(["--home", home_root, "tool", json.dumps(call)])
        if status != 0:
            raise SystemExit(f"worker {worker}: edit {index} failed")
