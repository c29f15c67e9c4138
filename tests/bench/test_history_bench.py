"""Benchmarks of history: what recording costs a save, listing a long history, and
`record_external` on a home of 1000 files a scope.

Run: .venv/bin/python -m pytest --bench tests/bench/test_history_bench.py -s
Targets: recording adds under 5 ms to a save (median); the history of a file with 1,000
versions lists in under 100 ms; a sync of an unchanged home is stat-only.
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

import pytest

from memtab.store.catch_up import external
from memtab.store.catch_up.external import record_external
from memtab.store.history import jsonlines
from memtab.store.home import Home
from memtab.store.paths import SCOPE_ORDER
from memtab.store.restore.from_history import file_history
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.registry import add_workspace, load_registry
from support.memory_paths import vpath

SAVE_ROUNDS = 300
VERSIONS = 1000
FILES_PER_SCOPE = 1000
WS = "a1a1a1a1a1"


def _home(root: Path) -> Home:
    home = Home(root)
    add_workspace(home, "/home/dev/src/app", "main", workspace_id=WS)
    return home


def _store(home: Home, *, record: bool) -> MemoryStore:
    return MemoryStore(home, load_registry(home).require_workspace(WS), record_history=record)


@pytest.mark.bench
def test_recording_overhead_per_save(tmp_path: Path) -> None:
    home = _home(tmp_path / "home")
    recording, plain = _store(home, record=True), _store(home, record=False)
    texts = [f"# Notes\n\n- line {n} " + "lorem ipsum " * 40 + "\n" for n in range(SAVE_ROUNDS)]
    for store, path in ((recording, "/memories/global/a.md"), (plain, "/memories/global/b.md")):
        store.create_file(vpath(path), "start\n")
    samples: dict[str, list[float]] = {"with": [], "without": []}
    # Alternate, so load from other processes and fsync times hit both alike.
    for text in texts:
        for kind, store, path in (
            ("with", recording, "/memories/global/a.md"),
            ("without", plain, "/memories/global/b.md"),
        ):
            loaded = store.read(vpath(path)).sha256
            started = time.perf_counter()
            store.save(vpath(path), text, loaded)
            samples[kind].append(time.perf_counter() - started)
    with_ms = statistics.median(samples["with"]) * 1000
    without_ms = statistics.median(samples["without"]) * 1000
    print(
        f"\neditor save (median of {SAVE_ROUNDS}, alternating): {with_ms:.3f} ms recorded, "
        f"{without_ms:.3f} ms without history: recording adds {with_ms - without_ms:.3f} ms "
        "(target < 5 ms)"
    )


@pytest.mark.bench
def test_listing_the_history_of_a_file_with_1000_versions(tmp_path: Path) -> None:
    home = _home(tmp_path / "home")
    store = _store(home, record=True)
    path = "/memories/workspace/notes.md"
    store.create_file(vpath(path), "v0\n")
    for number in range(1, VERSIONS):
        store.save(vpath(path), f"v{number}\n" * 20, store.read(vpath(path)).sha256)
    cold = []
    for _ in range(5):
        jsonlines._caches.clear()  # as a fresh process reads it
        started = time.perf_counter()
        listed = file_history(store, vpath(path))
        cold.append(time.perf_counter() - started)
    assert len(listed) == VERSIONS
    started = time.perf_counter()
    file_history(store, vpath(path))
    warm_ms = (time.perf_counter() - started) * 1000
    print(
        f"\nhistory of a file with {VERSIONS} versions: {statistics.median(cold) * 1000:.1f} ms "
        f"read cold (median of 5), {warm_ms:.1f} ms with the index cached (target < 100 ms)"
    )


@pytest.mark.bench
def test_sync_external_on_3_x_1000_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = _home(tmp_path / "home")
    store = _store(home, record=True)
    for scope_root in (store.root(scope) for scope in SCOPE_ORDER):
        for index in range(FILES_PER_SCOPE):
            folder = scope_root / f"d{index % 10}"
            folder.mkdir(parents=True, exist_ok=True)
            (folder / f"f{index}.md").write_text(f"# File {index}\n\n- fact {index}\n" * 5)
    started = time.perf_counter()
    first = record_external(store)
    first_s = time.perf_counter() - started
    assert first.recorded == len(SCOPE_ORDER) * FILES_PER_SCOPE
    started = time.perf_counter()
    soon = record_external(store)  # files changed as recorded: read until they are 2 s old
    soon_ms = (time.perf_counter() - started) * 1000
    later_ms = external.now_ms() + 3_600_000
    monkeypatch.setattr(external, "now_ms", lambda: later_ms)  # the files an hour old
    started = time.perf_counter()
    settling = record_external(store)
    settling_ms = (time.perf_counter() - started) * 1000
    unchanged = []
    for _ in range(5):
        started = time.perf_counter()
        report = record_external(store)
        unchanged.append(time.perf_counter() - started)
        assert report.hashed == 0 and not report.changed
    (home.global_root / "d0" / "f0.md").write_text("changed by mux\n")
    started = time.perf_counter()
    one = record_external(store)
    one_ms = (time.perf_counter() - started) * 1000
    assert one.recorded == 1
    print(
        f"\nsync_external, {len(SCOPE_ORDER)} × {FILES_PER_SCOPE} files: "
        f"first sight (baselines) {first_s:.2f} s; "
        f"unchanged at once {soon_ms:.1f} ms ({soon.hashed} read), an hour on "
        f"{settling_ms:.1f} ms ({settling.hashed} read), then "
        f"{statistics.median(unchanged) * 1000:.1f} ms (median of 5, stat only); "
        f"one file changed {one_ms:.1f} ms"
    )
