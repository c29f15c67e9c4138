"""Benchmark: the window's search as the user types, over 3,000 and 20,000 memory files,
answered from the home's search index on disk (no Qt).

Run: .venv/bin/python -m pytest --bench tests/bench/test_search_bench.py -s

The search runs on the scans lane in the app; this measures what that lane does: bringing
the index to the scan the first time (every file read into the index), a window started
again over the index left (a stat of each file, nothing read), typing on (each query
narrows the last: only its matches are looked at), fresh queries (a word's start, the
middle of a word, a word in every file, a letter in nearly every line of every file), and
how soon a superseded search stops.
"""

from __future__ import annotations

import gc
import os
import random
import threading
import time
from pathlib import Path

import pytest

from memtab.components.search.indexed import IndexedTexts
from memtab.components.search.search import Matches, SearchQuery, find_matches
from memtab.components.tree.full_scan import scan_home
from memtab.components.tree.scan import HomeScan, ScanRequest
from memtab.components.tree.tree import build_tree, prepare_search
from memtab.fs import memo
from memtab.store.home import Home
from memtab.store.sidecars.registry import add_workspace

pytestmark = pytest.mark.bench

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


@pytest.fixture(scope="module", params=[3_000, 20_000], ids=["3k", "20k"])
def big_scan(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> HomeScan:
    files = int(request.param)
    home = Home(tmp_path_factory.mktemp(f"search-bench-{files}") / "home")
    add_workspace(home, PROJECT, "bench", workspace_id=WORKSPACE)
    rng = random.Random(11)
    roots: list[Path] = [
        home.global_root,
        home.project_root(PROJECT),
        home.workspace_root(WORKSPACE),
    ]
    for index in range(files):
        folder = roots[index % 3] / f"area{index % 40:02d}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"note{index:05d}.md").write_text(_note(rng, index), encoding="utf-8")
    scan = scan_home(ScanRequest(home, WORKSPACE))
    assert scan.file_count == files
    return scan


def _timed(
    scan: HomeScan, text: str, texts: IndexedTexts, **options: object
) -> tuple[float, float, Matches]:
    """A keystroke as the scans lane answers it: the matches, then the tree shown (wall
    and CPU, ms)."""
    started, cpu = time.perf_counter(), time.thread_time()
    found = find_matches(scan, SearchQuery.parse(text), texts, **options)  # type: ignore[arg-type]
    build_tree(scan, found)
    return (time.perf_counter() - started) * 1000, (time.thread_time() - cpu) * 1000, found


def _shown(text: str, wall: float, cpu: float, found: Matches) -> str:
    more = "+" if found.more else ""
    return f"{text!r} {wall:.0f} ms (CPU {cpu:.0f}; {len(found)}{more} files)"


def test_typing_a_query(
    big_scan: HomeScan, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Written (and their mtimes set back) just now: not racy for this measure.
    monkeypatch.setattr(memo, "RACY_MARGIN_NS", 0)
    path = tmp_path / "index"
    texts = IndexedTexts(path)
    started = time.perf_counter()
    texts.refresh(big_scan)
    first_ms = (time.perf_counter() - started) * 1000
    texts.close()
    again = IndexedTexts(path)
    started = time.perf_counter()
    again.refresh(big_scan)
    prepare_search(big_scan)  # as the lane's warm-up does when the field takes the focus
    again_ms = (time.perf_counter() - started) * 1000
    gc.freeze()  # as the window does once it has loaded
    timings: list[str] = []
    cpus: list[float] = []
    wall, cpu, matches = _timed(big_scan, "d", again)
    timings.append(_shown("d", wall, cpu, matches))
    previous = SearchQuery.parse("d")
    for typed in ("de", "dep", "depl", "deplo", "deploy"):
        query = SearchQuery.parse(typed)
        # As the window's searcher: the last matches, when they were all found.
        narrowing = query.narrows(previous) and not matches.more
        wall, cpu, matches = _timed(
            big_scan, typed, again, candidates=frozenset(matches) if narrowing else None
        )
        previous = query
        cpus.append(cpu)
        timings.append(_shown(typed, wall, cpu, matches))
    fresh = []
    for text in ("deploy", "kubectl", "ploy", "tegrat", "the", "-", "q", "e", "a"):
        wall, cpu, found = _timed(big_scan, text, again)
        cpus.append(cpu)
        fresh.append(_shown(text, wall, cpu, found))
    gc.unfreeze()
    again.close()
    files = big_scan.file_count
    size_mib = sum(p.stat().st_size for p in path.iterdir()) / 2**20
    print(
        f"\n[bench] window search over {files} files (load {os.getloadavg()[0]:.1f}; a "
        f"keystroke: its matches and its tree): the index built {first_ms:.0f} ms, a window "
        f"started again {again_ms:.0f} ms (index {size_mib:.1f} MiB); typing: "
        f"{', '.join(timings)}; fresh queries: {', '.join(fresh)}; CPU after the first "
        f"keystroke: max {max(cpus):.0f} ms, median {sorted(cpus)[len(cpus) // 2]:.0f} ms"
    )


def test_a_superseded_search_stops_quickly(
    big_scan: HomeScan, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(memo, "RACY_MARGIN_NS", 0)
    texts = IndexedTexts(tmp_path / "index")
    texts.refresh(big_scan)
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
            find_matches(big_scan, SearchQuery.parse("the"), texts, cancel=Token())
        except CancelledError:
            stopped_after.append(time.perf_counter() - cancelled_at[0])

    cancelled_at = [0.0]
    worker = threading.Thread(target=search)
    worker.start()
    time.sleep(0.02)
    cancelled_at[0] = time.perf_counter()
    cancelled.set()
    worker.join()
    texts.close()
    latency = f"{stopped_after[0] * 1000:.1f} ms" if stopped_after else "finished before"
    print(f"\n[bench] a superseded search over {big_scan.file_count} files stopped after {latency}")
