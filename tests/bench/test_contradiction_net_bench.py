"""Benchmark: the contradictions net a model is asked (`trust.judging.net`) over 1,000 memory
files of a project and 1,000 Codex rollout summaries, records of what happened.

Run: .venv/bin/python -m pytest --bench tests/bench/test_contradiction_net_bench.py -s

Every file is a look-alike of the others (one service's ports, versions and settings said in a
few ways, each with its own numbers), so most statements share rare words with many others:
the net's worst case. Measured: building the net with the records (what `memtab
contradictions` does with a model) against the net of the memories alone (its floor, the
net before records were asked), each in a fresh engine after the offline search. Reported,
never asserted (target: well under one model call, ~5 s on a small local model).
"""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path

import pytest

from bench.table import Row, record
from memtab.check.documents import Document
from memtab.store.home import Home
from memtab.trust.contradictions.engine import ContradictionsEngine
from memtab.trust.judging.contradictions import wider_contradictions
from support.seeded_memories import memory

pytestmark = pytest.mark.bench

FILES = 1_000
ROUNDS = 3

NOTE = """\
# Service {n}

- The worker {n} listens on port {port} and Postgres {major} holds its queue.
- Redis {redis} keeps the sessions of area {area}; the cache expires after {ttl} minutes.
- Deploys of area {area} run from the release branch at {hour}:00 UTC.
- The importer {n} retries {retries} times, then gives up and writes to the dead-letter table.
"""

ROLLOUT = """\
# Rollout {n}

- Moved worker {n} to port {port} after the clash with the metrics exporter.
- Upgraded Postgres to {major} for area {area}; the queue migrated cleanly.
- Raised the importer's retries to {retries} after the vendor's outage.
"""


def _documents() -> list[Document]:
    found: list[Document] = []
    for n in range(FILES):
        numbers = {
            "n": n,
            "area": n % 40,
            "port": 8000 + n % 97,
            "major": 14 + n % 4,
            "redis": 6 + n % 2,
            "ttl": 10 + n % 50,
            "hour": n % 24,
            "retries": 2 + n % 7,
        }
        found.append(memory("project:acme", f"service-{n}.md", NOTE.format(**numbers)))
        rollout = memory("codex", f"rollout_summaries/r{n}.md", ROLLOUT.format(**numbers))
        found.append(replace(rollout, record=True))
    return found


def _timed(documents: list[Document], *, records: bool) -> tuple[float, int]:
    engine = ContradictionsEngine(Home(Path("/nowhere")), line_time=lambda d, line: 0)
    report = engine.report_of(documents)
    best, size = float("inf"), 0
    for _ in range(ROUNDS):
        start = time.perf_counter()
        net = wider_contradictions(report, engine.compared, engine.records if records else ())
        best, size = min(best, time.perf_counter() - start), len(net)
    return best, size


def test_the_contradictions_net_with_records_of_1000_rollouts() -> None:
    documents = _documents()
    floor_s, floor_size = _timed(documents, records=False)
    with_s, size = _timed(documents, records=True)
    print(
        f"\n{FILES} memories + {FILES} rollout summaries (best of {ROUNDS}): net of the "
        f"memories alone {floor_s:.2f} s ({floor_size} pairs); with the records {with_s:.2f} s "
        f"({size} pairs)"
    )
    record(
        "contradiction-net",
        Row(
            f"contradictions' net: {FILES:,} look-alike memories + {FILES:,} rollout summaries",
            f"{with_s:.2f} s ({size:,} pairs)",
            "well under one model call (~5 s)",
            f"{floor_s:.2f} s (memories alone, {floor_size:,} pairs)",
            with_s / floor_s,
        ),
    )
