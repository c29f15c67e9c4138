"""Benchmarks of blame: a memory file with 1,000 versions, blamed cold and again.

Run: .venv/bin/python -m pytest --bench tests/bench/test_blame_bench.py -s
Targets: a file of 1,000 versions blames in under 1 s cold (history read as a fresh
process reads it) and under 30 ms again (the walk is cached per newest version), both
for a notes file that grew to some 900 lines and for one near the 100 KiB cap whose every
version changes lines far apart (the costly case: the lines between are compared one by
one).
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from memtab.blame import service
from memtab.blame.service import blame_memory_file
from memtab.store.history import jsonlines
from memtab.store.history.provenance import log_provenance
from memtab.store.history.records import FileVersions, NoteOrigin, ProvenanceRecord, RunEntry, RunOp
from memtab.store.history.runs import log_run
from memtab.store.home import Home
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.registry import add_workspace, load_registry
from support.memory_paths import vpath

VERSIONS = 1000
WS = "a1a1a1a1a1"
PATH = "/memories/workspace/notes.md"
ACTORS = ("user", "writer", "consolidator", "agent-tool")


def _history(home: Home, lines: int, edit: Callable[[random.Random, list[str], int], None]) -> None:
    """A file edited `VERSIONS` times by every actor in turn, runs and provenance logged."""
    add_workspace(home, "/home/dev/src/app", "main", workspace_id=WS)
    workspace = load_registry(home).require_workspace(WS)
    rng = random.Random(22)
    text = [f"- fact {n}: " + "lorem ipsum " * rng.randint(1, 6) for n in range(lines)]
    MemoryStore(home, workspace).create_file(vpath(PATH), "\n".join(text) + "\n")
    for number in range(1, VERSIONS):
        actor = ACTORS[number % len(ACTORS)]
        run_id = f"run-{number:08d}" if actor in ("writer", "consolidator") else None
        store = MemoryStore(home, workspace, actor=actor, run_id=run_id)
        edit(rng, text, number)
        with store.collecting_changes() as changes:
            store.save(vpath(PATH), "\n".join(text) + "\n", store.read(vpath(PATH)).sha256)
        if run_id is None:
            continue
        files = tuple(FileVersions.from_change(change) for change in changes)
        command = "memory_write" if actor == "writer" else "str_replace"
        op = RunOp(command=command, path=PATH, applied=True, note=f"reason {number}", files=files)
        kind = "writer" if actor == "writer" else "consolidation"
        run = RunEntry(id=run_id, at=number, kind=kind, workspace_id=WS, summary="run", ops=(op,))
        log_run(home, run)
        if actor == "writer":
            notes = tuple(NoteOrigin(line=line, message_ids=[f"m{number}"]) for line in text[-2:])
            versions = tuple(change.after.id for change in changes)
            log_provenance(
                home,
                ProvenanceRecord(
                    at=number, kind="writer-run", versions=versions, run_id=run_id, notes=notes
                ),
            )


def _notes_edit(rng: random.Random, text: list[str], number: int) -> None:
    """What a notes file sees: a note added, one reworded, now and then one dropped."""
    text.append(f"- note {number}: " + "dolor sit amet " * rng.randint(1, 5))
    text[rng.randrange(len(text))] = f"- reworded in {number}"
    if number % 7 == 0 and len(text) > 50:
        del text[rng.randrange(len(text))]


def _big_edit(rng: random.Random, text: list[str], number: int) -> None:
    """A file near the cap: two lines changed somewhere, the size kept."""
    for _ in range(2):
        text[rng.randrange(len(text))] = f"- changed in {number}: " + "x" * rng.randint(10, 50)


def _measure(home: Home, label: str) -> None:
    workspace = load_registry(home).require_workspace(WS)
    store = MemoryStore(home, workspace)
    cold = []
    for _ in range(5):
        jsonlines._caches.clear()  # as a fresh process reads the indexes and logs
        service._cache.clear()
        started = time.perf_counter()
        blame = blame_memory_file(store, PATH)
        cold.append(time.perf_counter() - started)
    again = []
    for _ in range(20):
        started = time.perf_counter()
        assert blame_memory_file(store, PATH) == blame
        again.append(time.perf_counter() - started)
    actors = {line.actor for line in blame.lines}
    assert {"user", "writer", "consolidator"} <= actors
    size = len(store.read_whole(vpath(PATH)) or b"")
    print(
        f"\nblame of {label} ({len(blame.lines)} lines, {size} B, "
        f"{VERSIONS} versions): {statistics.median(cold) * 1000:.0f} ms cold (median of 5, "
        f"target < 1000 ms), {statistics.median(again) * 1000:.1f} ms again (median of 20, "
        "target < 30 ms)"
    )


@pytest.mark.bench
def test_blame_of_a_notes_file_with_1000_versions(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    _history(home, 40, _notes_edit)
    _measure(home, "a notes file")


@pytest.mark.bench
def test_blame_of_a_file_near_the_cap_with_1000_versions(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    _history(home, 1400, _big_edit)
    _measure(home, "a file near the 100 KiB cap")
