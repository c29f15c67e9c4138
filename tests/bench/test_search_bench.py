"""Benchmark: searching a home of 20,000 memory files as the user types (no Qt).

Run: .venv/bin/python -m pytest --bench tests/bench/test_search_bench.py -s

The search runs on the search worker in the app; this measures what that worker does for
each keystroke: the first search (which reads every file into the content index), typing
on (each query narrows the last: only its matches are looked at), a fresh query over the
warm index, and how soon a superseded search stops.
"""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path

import pytest

from memtab.components.search.search import ContentIndex, SearchQuery, find_matches
from memtab.components.tree.full_scan import scan_home
from memtab.components.tree.scan import HomeScan, ScanRequest
from memtab.store.home import Home
from memtab.store.sidecars.registry import add_workspace

pytestmark = pytest.mark.bench

FILES = 20_000
WORKSPACE = "5e5e5e5e5e"
PROJECT = "/src/search-bench"
_PHRASES = (
    "the project uses pytest with xdist and a postgres container for integration tests",
    "never commit generated files run make lint before pushing prefer small commits",
)
_WORDS = [word for phrase in _PHRASES for word in phrase.split()]


def _note(rng: random.Random, index: int) -> str:
    lines = ["---", f"description: note {index} about {rng.choice(_WORDS)}", "---", ""]
    lines += ["- " + " ".join(rng.choice(_WORDS) for _ in range(12)) for _ in range(20)]
    if index % 500 == 0:
        lines.append("- deploy with `kubectl rollout restart` after the migration")
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def big_scan(tmp_path_factory: pytest.TempPathFactory) -> HomeScan:
    home = Home(tmp_path_factory.mktemp("search-bench") / "home")
    add_workspace(home, PROJECT, "bench", workspace_id=WORKSPACE)
    rng = random.Random(11)
    roots: list[Path] = [
        home.global_root,
        home.project_root(PROJECT),
        home.workspace_root(WORKSPACE),
    ]
    for index in range(FILES):
        folder = roots[index % 3] / f"area{index % 40:02d}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"note{index:05d}.md").write_text(_note(rng, index), encoding="utf-8")
    scan = scan_home(ScanRequest(home, WORKSPACE))
    assert scan.file_count == FILES
    return scan


def _timed(scan: HomeScan, text: str, index: ContentIndex, **options: object) -> tuple[float, int]:
    started = time.perf_counter()
    found = find_matches(scan, SearchQuery.parse(text), index, **options)  # type: ignore[arg-type]
    return (time.perf_counter() - started) * 1000, len(found)


def test_typing_a_query_over_20000_files(big_scan: HomeScan) -> None:
    index = ContentIndex()
    cold_ms, _ = _timed(big_scan, "d", index)
    timings: list[str] = []
    previous = SearchQuery.parse("d")
    matches = set(find_matches(big_scan, previous, index))
    for typed in ("de", "dep", "depl", "deplo", "deploy"):
        query = SearchQuery.parse(typed)
        candidates = matches if query.narrows(previous) else None
        ms, count = _timed(big_scan, typed, index, candidates=candidates)
        matches = set(find_matches(big_scan, query, index, candidates=candidates))
        previous = query
        timings.append(f"{typed!r} {ms:.0f} ms ({count} files)")
    full_ms, full_count = _timed(big_scan, "deploy", index)
    broad_ms, broad_count = _timed(big_scan, "the", index)
    print(
        f"\n[bench] search over {FILES} files: first query (reads every file) {cold_ms:.0f} ms;"
        f" typing on: {', '.join(timings)}; 'deploy' without narrowing {full_ms:.0f} ms "
        f"({full_count} files); 'the' (every file, lines for the first 200) {broad_ms:.0f} ms "
        f"({broad_count} files); index holds {len(index)} texts"
    )


def test_a_superseded_search_stops_quickly(big_scan: HomeScan) -> None:
    index = ContentIndex()
    index.refresh(big_scan)
    cancelled = threading.Event()

    class CancelledError(Exception):
        pass

    class Token:
        def raise_if_cancelled(self) -> None:
            if cancelled.is_set():
                raise CancelledError

    stopped_after: list[float] = []

    def search() -> None:
        try:
            find_matches(big_scan, SearchQuery.parse("the"), index, cancel=Token())
        except CancelledError:
            stopped_after.append(time.perf_counter() - cancelled_at[0])

    cancelled_at = [0.0]
    worker = threading.Thread(target=search)
    worker.start()
    time.sleep(0.02)
    cancelled_at[0] = time.perf_counter()
    cancelled.set()
    worker.join()
    latency = f"{stopped_after[0] * 1000:.1f} ms" if stopped_after else "finished before"
    print(f"\n[bench] a superseded search over {FILES} files stopped after {latency}")
