"""Benchmark: listing every scope of 1000 files against a bare walk-and-read baseline.

Run: .venv/bin/python -m pytest --bench tests/bench/test_listing_bench.py -s
Prints both timings and their ratio (target: the store within 2x of the baseline).
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from memtab.store.home import Home
from memtab.store.paths import Scope
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.registry import add_workspace, load_registry

FILES_PER_SCOPE = 1000
ROUNDS = 15
_TOPICS = ["testing", "deploy", "database", "auth", "style", "tooling", "api", "perf", "ci"]
_SENTENCES = (
    "the project uses pytest with xdist and a postgres container for integration tests "
    "never commit generated files run make lint before pushing prefer small focused "
    "commits the api gateway retries idempotent requests twice with jittered backoff"
)
_WORDS = _SENTENCES.split()


def _markdown(rng: random.Random, index: int) -> str:
    topic = rng.choice(_TOPICS)
    description = " ".join(rng.choice(_WORDS) for _ in range(rng.randint(6, 18)))
    lines = [
        "---",
        f"description: {description.capitalize()}",
        f"tags: [{topic}, note-{index % 7}]",
        "---",
        "",
        f"# {topic.title()} note {index}",
        "",
    ]
    target = rng.randint(1024, 4096)
    while sum(len(line) + 1 for line in lines) < target:
        lines.append("- " + " ".join(rng.choice(_WORDS) for _ in range(rng.randint(5, 15))))
    return "\n".join(lines)[:target] + "\n"


def _fill(root: Path, rng: random.Random) -> None:
    for index in range(FILES_PER_SCOPE):
        depth = rng.choice([0, 0, 1, 1, 2])
        parts = [rng.choice(_TOPICS) for _ in range(depth)]
        directory = root.joinpath(*parts)
        directory.mkdir(parents=True, exist_ok=True)
        (directory / f"note-{index:04d}.md").write_text(_markdown(rng, index), encoding="utf-8")


@pytest.fixture(scope="module")
def bench_store(tmp_path_factory: pytest.TempPathFactory) -> MemoryStore:
    home = Home(tmp_path_factory.mktemp("bench") / "home")
    workspace_id = add_workspace(home, "/work/bench-project", "main", workspace_id="be0cbe0cbe")
    store = MemoryStore(home, load_registry(home).require_workspace(workspace_id))
    rng = random.Random(7)
    for scope in Scope:
        _fill(store.root(scope), rng)
    return store


def _baseline(roots: list[Path]) -> int:
    """os.walk every scope and read the first 4 KiB of every file: the floor to compare to."""
    count = 0
    for root in roots:
        for directory, _dirs, names in os.walk(root):
            for name in names:
                with open(os.path.join(directory, name), "rb") as handle:
                    handle.read(4096)
                count += 1
    return count


def _best_times(
    first: Callable[[], object], second: Callable[[], object]
) -> tuple[tuple[float, float], tuple[float, float]]:
    """Best (wall, CPU) seconds of each action over ROUNDS, alternating them so that load
    from other processes hits both alike (CPU time is the steadier of the two)."""
    first(), second()  # warm the page cache and any lazy imports
    best = [[float("inf"), float("inf")], [float("inf"), float("inf")]]
    for _ in range(ROUNDS):
        for index, action in enumerate((first, second)):
            wall, cpu = time.perf_counter(), time.process_time()
            action()
            best[index][0] = min(best[index][0], time.perf_counter() - wall)
            best[index][1] = min(best[index][1], time.process_time() - cpu)
    return (best[0][0], best[0][1]), (best[1][0], best[1][1])


@pytest.mark.bench
def test_list_all_against_walk_and_read_baseline(bench_store: MemoryStore) -> None:
    roots = [bench_store.root(scope) for scope in Scope]
    listings = bench_store.list_all()
    assert [len(listing.files) for listing in listings] == [FILES_PER_SCOPE] * len(Scope)
    assert all(f.description for listing in listings for f in listing.files)
    assert _baseline(roots) == len(Scope) * FILES_PER_SCOPE

    store, baseline = _best_times(bench_store.list_all, lambda: _baseline(roots))
    print(
        f"\nlist_all over {len(Scope)} x {FILES_PER_SCOPE} files vs os.walk + 4 KiB reads"
        f" (best of {ROUNDS}):"
    )
    for label, index in (("wall", 0), ("CPU", 1)):
        print(
            f"  {label:>4}: store {store[index] * 1000:.1f} ms, baseline "
            f"{baseline[index] * 1000:.1f} ms, ratio {store[index] / baseline[index]:.2f}x "
            "(target <= 2x)"
        )
