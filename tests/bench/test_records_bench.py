"""Benchmark: the record codec against the hand-written reader it replaced, and what it costs
to import and to read each record class the first time.

Run: .venv/bin/python -m pytest -q --bench tests/bench/test_records_bench.py -s

- decode and encode 3,000 `memory-meta.json` entries (§7, the first paint reads them): the
  codec (`parse_meta_document`: `MetaFile.read`, its entries `MetaEntry`s, and
  `MetaEntry.to_json`; the readers and writer generated per class by
  `fs/records/compiler.py`) against the hand reader memtab had before (kept here as the
  floor: `_hand_entry`). CPU time, best of `ROUNDS`;
- in a fresh interpreter (its bytecode compiled by a first start, not measured):
  importing `memtab.fs.records`, defining 60 record classes of 8 fields, and the first
  read of each (its reader built then).
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from bench.floors import child_environment
from bench.table import Row, record
from memtab.fs.jsonfile import finite_number
from memtab.store.sidecars.meta import parse_meta_document

pytestmark = pytest.mark.bench

ENTRIES = 3000
ROUNDS = 15


def _positive_time(value: Any) -> int | None:
    number = finite_number(value)
    return int(number) if number is not None and number > 0 else None


class _HandEntry(NamedTuple):
    pinned: bool = False
    access_count: int = 0
    last_accessed_at: int | None = None
    last_write_at: int | None = None


def _hand_entry(raw: Any) -> _HandEntry:
    """The hand reader of a meta entry memtab had before the codec (the floor)."""
    if not isinstance(raw, dict):
        return _HandEntry()
    count = finite_number(raw.get("accessCount"))
    return _HandEntry(
        pinned=raw.get("pinned") is True,
        access_count=math.floor(count) if count is not None and count > 0 else 0,
        last_accessed_at=_positive_time(raw.get("lastAccessedAt")),
        last_write_at=_positive_time(raw.get("lastWriteAt")),
    )


def _hand_document(document: Any) -> dict[str, _HandEntry]:
    entries = document.get("entries") if isinstance(document, dict) else None
    if not isinstance(entries, dict):
        return {}
    healed = {}
    for key, raw in entries.items():
        entry = _hand_entry(raw)
        if entry != _HandEntry():
            healed[key] = entry
    return healed


def _hand_json(entry: _HandEntry) -> dict[str, Any]:
    return {
        "pinned": entry.pinned,
        "accessCount": entry.access_count,
        "lastAccessedAt": entry.last_accessed_at,
        "lastWriteAt": entry.last_write_at,
    }


def _entries() -> dict[str, Any]:
    start = 1_760_000_000_000
    made = {
        f"global:dir{n % 30}/note{n}.md": {
            "pinned": n % 7 == 0,
            "accessCount": 1 + n % 50,
            "lastAccessedAt": start + n,
            "lastWriteAt": start + 2 * n if n % 3 else None,
        }
        for n in range(ENTRIES)
    }
    parsed: dict[str, Any] = json.loads(json.dumps(made))  # as read from the file
    return parsed


def _best_ms(action: Callable[[], object]) -> float:
    samples = []
    for _ in range(ROUNDS):
        started = time.process_time()
        action()
        samples.append(time.process_time() - started)
    return min(samples) * 1000


def test_meta_entries_codec_against_the_hand_reader() -> None:
    raw = _entries()
    document = {"version": 1, "entries": raw}
    hand = {key: _hand_entry(value) for key, value in raw.items()}
    records = parse_meta_document(document)
    assert {key: entry.to_json() for key, entry in records.items()} == {
        key: _hand_json(entry) for key, entry in hand.items()
    }
    decode_floor = _best_ms(lambda: _hand_document(document))
    decode = _best_ms(lambda: parse_meta_document(document))
    encode_floor = _best_ms(lambda: {key: _hand_json(entry) for key, entry in hand.items()})
    encode = _best_ms(lambda: {key: entry.to_json() for key, entry in records.items()})
    for what, floor, codec in (("decode", decode_floor, decode), ("encode", encode_floor, encode)):
        record(
            f"records-meta-{what}",
            Row(
                f"{what} {ENTRIES:,} memory-meta.json entries (CPU, best of {ROUNDS})",
                f"{codec:.1f} ms",
                "as cheap as the hand reader",
                f"{floor:.1f} ms (hand reader)",
                codec / floor,
            ),
        )


_FIRST_READS = """
import time
started = time.process_time()
from memtab.fs.records import Record, OrNone, Count
imported = time.process_time()
from typing import Annotated
classes = []
for n in range(60):
    namespace = {
        "__annotations__": {
            "name": "str", "size": "int", "at": "OrNone[int]", "count": "Count",
            "tags": "tuple[str, ...]", "flag": "bool", "ratio": "float | None", "note": "str",
        },
        "__module__": __name__,
        "size": 0, "at": None, "count": 0, "tags": (), "flag": False, "ratio": None, "note": "",
    }
    classes.append(type(Record)(f"Rec{n}", (Record,), namespace))
defined = time.process_time()
raw = {"name": "x", "size": 2, "at": 5, "count": 3, "tags": ["a"], "flag": True, "ratio": 0.5}
assert all(cls.read(raw) is not None for cls in classes)
read = time.process_time()
print(imported - started, defined - imported, read - defined)
"""


def test_import_define_and_first_read_of_records(tmp_path: Path) -> None:
    env = child_environment(tmp_path / "pycache")  # bytecode kept, as an installed app has it
    samples = []
    for _ in range(6):
        out = subprocess.run(
            [sys.executable, "-c", _FIRST_READS],
            capture_output=True,
            text=True,
            check=True,
            env=env,
        ).stdout
        samples.append([float(word) * 1000 for word in out.split()])
    samples.pop(0)  # the start that compiled the bytecode
    best = [min(column) for column in zip(*samples, strict=True)]
    for key, what, value in zip(
        ("import", "define", "first-read"),
        ("import memtab.fs.records", "define 60 record classes of 8 fields", "first read of each"),
        best,
        strict=True,
    ):
        record(f"records-{key}", Row(f"{what} (CPU, best of 5)", f"{value:.1f} ms", "—"))
