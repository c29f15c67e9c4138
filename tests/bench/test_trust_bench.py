"""Benchmark: `memtab duplicates`, `contradictions` and `leaks` on 20,000 memory files, and
the window's one read for the three (issue 72: each command within 2 s warm).

Run: .venv/bin/python -m pytest --bench tests/bench/test_trust_bench.py -s

The home: `homes.HOME_20K` (4,000 global, 6,000 project, 6,000 workspace files and two
orphaned project dirs), every file its own note but one in 50 a copy of another, one in
40 stating a port and one in 60 naming another project's path, so each engine has
something to find. Measured, the disk cache warm (a first read before the rounds): each
command's engine fresh, as a command runs it (every file read and worked out); the
window's `TrustEngines` — the first look, then the next after one file changed (each
engine keeps what it worked out of every file by its text). Reported, never asserted.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest

from bench.homes import HOME_20K, build_home, relative, scope_roots
from bench.table import Row, record
from memtab.operations.job import JobContext
from memtab.operations.trust.window import WindowTrust
from memtab.store.home import Home
from memtab.trust.contradictions.engine import ContradictionsEngine
from memtab.trust.duplicates.engine import DuplicatesEngine
from memtab.trust.leaks.engine import LeaksEngine
from memtab.trust.memories import read_memories
from memtab.trust.together import TrustEngines

pytestmark = pytest.mark.bench

ROUNDS = 3
TARGET = "≤ 2 s warm"


def _note(index: int) -> str:
    words = " ".join(f"w{(index * 7 + k) % 997}" for k in range(40))
    extra = ""
    if index % 40 == 0:
        extra += f"- The API runs on port {8000 + index % 3}.\n"
    if index % 60 == 0:
        extra += f"- The client code is in /src/other{index % 5}/src/app.ts.\n"
    head = f"---\ndescription: Note {index} on area {index % 25}\n---\n# Note {index}\n\n"
    return f"{head}{words}\n{extra}"


def _home(root: Path) -> Home:
    home = build_home(root, HOME_20K)
    counts = (HOME_20K.global_files, HOME_20K.project_files, HOME_20K.workspace_files)
    for scope_root, count in zip(scope_roots(home), counts, strict=True):
        for index in range(count):
            text = _note(index - 1 if index % 50 == 49 else index)
            scope_root.joinpath(*relative(index)).write_text(text, encoding="utf-8")
    return home


def _best(run: Callable[[], object]) -> float:
    """The best wall time of `ROUNDS` runs (the machine is shared: its CPU time is
    printed beside it)."""
    times = []
    for _ in range(ROUNDS):
        start, cpu = time.perf_counter(), time.process_time()
        run()
        times.append(time.perf_counter() - start)
        print(f"[bench] … wall {times[-1]:.2f} s, CPU {time.process_time() - cpu:.2f} s")
    return min(times)


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Home:
    return _home(tmp_path_factory.mktemp("trust") / "home")


def test_each_command_on_20000_files(home: Home) -> None:
    read_memories(home, sources=False)  # the disk cache warm
    floor = _best(lambda: read_memories(home, sources=False))
    for name, run in (
        ("duplicates", lambda: DuplicatesEngine(home, sources=False).find()),
        ("contradictions", lambda: ContradictionsEngine(home, sources=False).find()),
        ("leaks", lambda: LeaksEngine(home, sources=False).find()),
    ):
        took = _best(run)
        record(
            f"trust-{name}",
            Row(
                f"memtab {name}, 20,000 files (fresh engine)",
                f"{took:.2f} s",
                TARGET,
                f"{floor:.2f} s (the read)",
                took / floor,
            ),
        )


def test_the_three_over_one_read(home: Home) -> None:
    engines = TrustEngines(home, sources=False)
    start = time.perf_counter()
    engines.find()
    first = time.perf_counter() - start
    changed = scope_roots(home)[0].joinpath(*relative(3))
    changed.write_text(_note(3) + "\n- One more line.\n", encoding="utf-8")
    after_change = _best(engines.find)
    record(
        "trust-together",
        Row(
            "the three over one read, 20,000 files: first · again after one file changed",
            f"{first:.2f} s · {after_change:.2f} s",
            TARGET,
        ),
    )
    look = _best(lambda: WindowTrust(home).find(JobContext.standalone()))
    record("trust-window", Row("the window's look, in its child process", f"{look:.2f} s", "—"))
