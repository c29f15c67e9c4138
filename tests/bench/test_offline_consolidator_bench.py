"""Benchmark: the offline consolidator on 1000 files holding 100 near-duplicate pairs
(target: a full run under 5 s), and `memtab consolidate --dry-run` on the 20,000-file
home (issue 15: ≤ 2 s; it took 17.5 s and 447 MB before the planner's rework).

Run: .venv/bin/python -m pytest --bench tests/bench/test_offline_consolidator_bench.py -s

Reports the whole run (every file read through the memory tool, usage recorded, the plan,
the changes, the journal) and the planner alone on the same files.
"""

from __future__ import annotations

import random
import sys
import time
import tracemalloc
from pathlib import Path

import pytest

from bench.floors import child_environment
from bench.homes import WORKSPACE
from bench.table import Row, median, record
from bench.test_headless_bench import run_once
from memtab.consolidation.offline.inputs import MemoryFile
from memtab.consolidation.offline.plan import plan_consolidation
from memtab.consolidation.service import ConsolidationService
from memtab.fs.atomic import atomic_write_text
from memtab.llm.settings import ProviderSettings
from memtab.store.home import Home
from memtab.store.paths import Scope, parse_file_path
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.registry import add_workspace, load_registry

WS = "a1a1a1a1a1"
PROJECT = "/home/dev/src/big"
FILES = 1000
PAIRS = 100
SCOPES = (Scope.GLOBAL, Scope.PROJECT, Scope.WORKSPACE)
_WORDS = [
    "build",
    "cache",
    "token",
    "refresh",
    "database",
    "migration",
    "deploy",
    "staging",
    "review",
    "commit",
    "branch",
    "test",
    "fixture",
    "lint",
    "format",
    "release",
    "tag",
    "docker",
    "podman",
    "python",
    "node",
    "redis",
    "queue",
    "worker",
    "retry",
    "timeout",
    "header",
    "client",
    "server",
    "schema",
    "index",
    "query",
    "lock",
    "race",
    "flaky",
    "clock",
]


def bullet(rng: random.Random) -> str:
    return "- " + " ".join(rng.choice(_WORDS) for _ in range(rng.randint(8, 14))) + "."


def note(rng: random.Random, index: int) -> list[str]:
    lines = ["---", f"description: Notes on topic {index}", "---", f"# Topic {index}", ""]
    return lines + [bullet(rng) for _ in range(rng.randint(6, 12))]


def build_store(root: Path) -> tuple[Home, list[MemoryFile]]:
    """FILES files over the three scopes; PAIRS of them near-duplicates of another."""
    rng = random.Random(7)
    home = Home(root)
    add_workspace(home, PROJECT, "big", workspace_id=WS)
    store = MemoryStore(home, load_registry(home).require_workspace(WS))
    files: list[MemoryFile] = []
    originals = FILES - PAIRS
    for index in range(originals):
        scope = SCOPES[index % 3]
        files.append(
            MemoryFile(f"/memories/{scope.value}/t{index:04d}.md", scope, tuple(note(rng, index)))
        )
    for pair in range(PAIRS):
        source = files[pair * 7 % originals]
        lines = list(source.lines)
        lines[-1] = bullet(rng)  # change one bullet, add another: a near-duplicate
        lines.append(bullet(rng))
        path = source.path.replace(".md", f"-copy{pair}.md")
        files.append(MemoryFile(path, source.scope, tuple(lines)))
    for file in files:
        atomic_write_text(store.physical(parse_file_path(file.path)), "\n".join(file.lines) + "\n")
    return home, files


@pytest.mark.bench
def test_offline_consolidator_on_1000_files(tmp_path: Path) -> None:
    home, files = build_store(tmp_path / "home")

    started = time.perf_counter()
    plan = plan_consolidation(files, budget=8)
    plan_seconds = time.perf_counter() - started

    service = ConsolidationService(home, settings=ProviderSettings("offline", "offline", ""))
    started = time.perf_counter()
    record = service.run(WS)
    run_seconds = time.perf_counter() - started

    merged = sum(1 for change in plan.deletes if change.effects.combined_into)
    print(
        f"\noffline consolidator, {len(files)} files / {PAIRS} near-duplicate pairs: "
        f"full run {run_seconds:.2f} s ({len(record.ops)} ops, target < 5 s); "
        f"planner alone {plan_seconds:.2f} s ({merged} merges within the budget of 8)"
    )
    assert record.ops and all(op.applied for op in record.ops)


@pytest.mark.bench
def test_a_50_mb_memory_file_is_listed_not_read(tmp_path: Path) -> None:
    """Issue 8: a 50 MB file took the offline consolidator 50 s and 2.2 GB (it was read
    whole through `view`). Now it is listed by size and left alone."""
    home = Home(tmp_path / "home")
    add_workspace(home, PROJECT, "big", workspace_id=WS)
    store = MemoryStore(home, load_registry(home).require_workspace(WS))
    big = store.physical(parse_file_path("/memories/global/huge.md"))
    big.parent.mkdir(parents=True)
    line = b"- " + b"lorem ipsum dolor sit amet " * 3 + b"\n"
    with big.open("wb") as handle:
        for _ in range(50 * 1024 * 1024 // len(line)):
            handle.write(line)
    service = ConsolidationService(home, settings=ProviderSettings("offline", "offline", ""))
    tracemalloc.start()
    started = time.perf_counter()
    record = service.run(WS)
    seconds = time.perf_counter() - started
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(
        f"\noffline consolidator with a {big.stat().st_size / 1e6:.0f} MB file: "
        f"{seconds * 1000:.0f} ms, peak {peak / 1e3:.0f} KB allocated (was 50 s and 2.2 GB)"
    )
    assert record.ops == ()


@pytest.mark.bench
@pytest.mark.skipif(sys.platform == "win32", reason="os.wait4, os.posix_spawn")
def test_consolidate_dry_run_on_20000_files(home_20k: Home, tmp_path: Path) -> None:
    """The command as a user runs it, on 16,000 Markdown files of one workspace's
    scopes: median of three runs and the peak RSS (the row of issue 15's table)."""
    env = child_environment(tmp_path / "pycache")
    result = tmp_path / "measured"
    arguments = ("consolidate", "--workspace", WORKSPACE, "--dry-run")
    run_once(home_20k, ("workspaces",), env, result)  # compile bytecode
    runs = [run_once(home_20k, arguments, env, result) for _ in range(3)]
    seconds = median([wall for wall, _ in runs])
    peak = max(rss for _, rss in runs)
    record(
        "consolidate-20k",
        Row(
            "`consolidate --dry-run` (offline) on 20,000 files, median",
            f"{seconds:.2f} s, {peak:.0f} MiB (was 17.5 s, 447 MiB)",
            "≤ 2 s",
        ),
    )
