"""Benchmark: the record codec against the hand-written reader it replaced, and what it costs
to import and to read each record class the first time.

Run: .venv/bin/python -m pytest -q --bench tests/bench/test_records_bench.py -s

- decode and encode 3,000 `memory-meta.json` entries (§7, the first paint reads them): the
  codec (`parse_meta_document`: `MetaFile.read`, its entries `MetaEntry`s, read by each
  class's plan, `fs/records/reading.py`; and `MetaEntry.to_json`, the writer generated per
  class by `fs/records/compiler.py`) against the hand reader memtab had before (kept here
  as the floor: `_hand_entry`). CPU time, best of `ROUNDS`;
- the description cache's file (§15.4, 20,000 entries, read by the first scan): checking the
  parsed file and encoding it, the record `DescriptionCacheFile` (its roots' lists
  `PlainJson`) against the hand codec it replaced, the walk of every entry the marker
  spares, and the record's first read (its plan made) in a fresh interpreter;
- in a fresh interpreter (its bytecode compiled by a first start, not measured):
  importing `memtab.fs.records`, defining 60 record classes of 8 fields, and the first
  read of each (its plan made then);
- the transcripts' events (§10.2), records built field by field as a transcript is parsed
  (`frozen=False`): every event of the real transcripts in tests/fixtures/shared encoded by
  its record against the hand `to_json` it replaced, built against the dataclass it was, and
  the writer's budget over the largest one (whole and streamed) with either encoding.
"""

from __future__ import annotations

import base64
import gzip
import json
import math
import struct
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from bench.floors import child_environment
from bench.table import Row, record
from memtab.fs.jsonfile import finite_number
from memtab.fs.records.codec import written
from memtab.store.description_cache import CACHE_VERSION, DescriptionCacheFile
from memtab.store.sidecars.meta import parse_meta_document
from memtab.transcripts.budget import select_event_budget
from memtab.transcripts.events import TranscriptEvent, TranscriptToolCall, compact_json
from memtab.transcripts.reader import read_transcript
from memtab.transcripts.window import read_newest_events

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


# --- the description cache (§15.4): 20,000 entries kept as parsed (`PlainJson`) ------------

CACHED_FILES = 20_000
_CACHE_FIRST_READ = """
import json, sys, time
from memtab.store.description_cache import CACHE_VERSION, DescriptionCacheFile
document = json.loads(sys.argv[1])
started = time.process_time()
DescriptionCacheFile.read(document)
first = time.process_time()
DescriptionCacheFile.read(document)
print(first - started, time.process_time() - first)
"""


def _cache_document() -> dict[str, Any]:
    roots = {}
    for r in range(4):
        numbers = range(r, CACHED_FILES, 4)
        stamps = b"".join(
            struct.pack("<qqqQ", 900 + n, 10**18 + n, 10**18 + n, 4_000_000 + n) for n in numbers
        )
        roots[f"/home/u/.mux/memory/scope{r}"] = {
            "paths": [f"dir{n % 40}/note{n}.md" for n in numbers],
            "stamps": base64.b64encode(stamps).decode("ascii"),
            "descriptions": [f"What note {n} is about" for n in numbers],
            "headings": ["" for _ in numbers],
            "binary": [False for _ in numbers],
        }
    document = {"version": CACHE_VERSION, "home": "/h", "roots": roots}
    parsed: dict[str, Any] = json.loads(json.dumps(document))
    return parsed


def _hand_cache_read(document: Any) -> dict[str, Any]:
    """The hand reader the cache had before its record (the floor): each root's lists
    checked as lists, its stamps as a text."""
    if (
        not isinstance(document, dict)
        or document.get("version") != CACHE_VERSION
        or document.get("home") != "/h"
        or not isinstance(document.get("roots"), dict)
    ):
        return {}
    return {
        root: files
        for root, files in document["roots"].items()
        if isinstance(files, dict)
        and isinstance(files.get("stamps"), str)
        and all(
            isinstance(files.get(k), list) for k in ("paths", "descriptions", "headings", "binary")
        )
    }


def test_description_cache_read_and_write_against_the_hand_codec(tmp_path: Path) -> None:
    document = _cache_document()
    cache = DescriptionCacheFile.read(document)
    assert cache is not None
    assert {root: files.to_json() for root, files in cache.roots.items()} == _hand_cache_read(
        document
    )
    compact: dict[str, Any] = {"ensure_ascii": False, "separators": (",", ":")}
    assert cache.to_json() == document
    read_floor = _best_ms(lambda: _hand_cache_read(document))
    read = _best_ms(lambda: DescriptionCacheFile.read(document))
    write_floor = _best_ms(lambda: json.dumps(document, **compact))
    write = _best_ms(lambda: json.dumps(cache.to_json(), **compact))
    walked = _best_ms(  # what a record's writer walked before
        lambda: {root: written(dict(files.to_json())) for root, files in cache.roots.items()}
    )
    env = child_environment(tmp_path / "pycache")
    firsts = []
    empty = json.dumps(_cache_document() | {"roots": {}})
    for _ in range(4):
        out = subprocess.run(
            [sys.executable, "-c", _CACHE_FIRST_READ, empty],
            capture_output=True, text=True, check=True, env=env,
        ).stdout  # fmt: skip
        firsts.append(float(out.split()[0]) * 1000)
    for key, what, floor, value, unit, scale in (
        ("read", "check the parsed cache file", read_floor, read, "µs", 1000),
        ("write", "encode the cache file (json.dumps)", write_floor, write, "ms", 1),
    ):
        record(
            f"records-description-cache-{key}",
            Row(
                f"{what}, {CACHED_FILES:,} entries (CPU, best of {ROUNDS})",
                f"{value * scale:.1f} {unit}",
                "as cheap as the hand codec",
                f"{floor * scale:.1f} {unit} (hand)",
                value / floor if floor else None,
            ),
        )
    record(
        "records-description-cache-walk",
        Row(f"the walk PlainJson spares, {CACHED_FILES:,} entries", f"{walked:.1f} ms", "—"),
    )
    record(
        "records-description-cache-first-read",
        Row("the cache record's first read (its plan made; best of 3)",
            f"{min(firsts[1:]):.2f} ms", "—"),
    )  # fmt: skip


# --- the transcripts' events (§10.2): records built as a transcript is parsed -------------

SHARED = Path(__file__).resolve().parents[1] / "fixtures" / "shared"
LARGEST = (
    SHARED
    / "claude-code"
    / ("marot-spotter__test__fixtures__transcripts__4d5611e5-241a-462a-8d15-5122611a9569.jsonl")
)


def _hand_call_json(call: TranscriptToolCall) -> dict[str, Any]:
    """The hand `to_json` a call had before it was a record (the floor)."""
    item: dict[str, Any] = {"toolCallId": call.id, "toolName": call.name, "input": call.input}
    if call.output is not None:
        item["output"] = call.output
    if call.is_error:
        item["isError"] = True
    if call.error and call.error != call.output:
        item["error"] = call.error
    if call.exit_code is not None:
        item["exitCode"] = call.exit_code
    return item


def _hand_event_json(event: TranscriptEvent) -> dict[str, Any]:
    """The hand `to_json` an event had before it was a record (the floor)."""
    item: dict[str, Any] = {"id": event.id, "role": event.role}
    if event.history_sequence is not None:
        item["historySequence"] = event.history_sequence
    if event.timestamp is not None:
        item["timestamp"] = event.timestamp
    if event.text:
        item["text"] = event.text
    if event.tool_calls:
        item["toolCalls"] = [_hand_call_json(call) for call in event.tool_calls]
    if event.sidechain:
        item["sidechain"] = True
    return item


@dataclass(slots=True, eq=False)
class _DataclassCall:
    """What a call was before it was a record (the floor of a build)."""

    id: str
    name: str
    input: dict[str, Any] | str
    output: str | None = None
    is_error: bool = False
    error: str = ""
    exit_code: int | None = None


@dataclass(slots=True, eq=False)
class _DataclassEvent:
    """What an event was before it was a record (the floor of a build)."""

    id: str
    role: str
    source: str
    text: str = ""
    tool_calls: list[Any] = field(default_factory=list)
    timestamp: int | None = None
    message_id: str | None = None
    history_sequence: int | None = None
    model: str | None = None
    completed_turn: bool = False
    sidechain: bool = False
    cwd: str | None = None


def _real_events(folder: Path) -> list[TranscriptEvent]:
    """Every event of every real transcript (mux, Claude Code, Codex; gzipped ones too)."""
    events: list[TranscriptEvent] = []
    for path in sorted(SHARED.glob("*/*.jsonl*")):
        read = path
        if path.name.endswith(".gz"):
            read = folder / path.name.removesuffix(".gz")
            read.write_bytes(gzip.decompress(path.read_bytes()))
        events += read_transcript(read).events
    return events


def _build(events: list[TranscriptEvent], event: Any, call: Any) -> list[Any]:
    return [
        event(
            id=e.id, role=e.role, source=e.source, text=e.text, timestamp=e.timestamp,
            message_id=e.message_id, history_sequence=e.history_sequence, model=e.model,
            completed_turn=e.completed_turn, sidechain=e.sidechain, cwd=e.cwd,
            tool_calls=[
                call(id=c.id, name=c.name, input=c.input, output=c.output,
                     is_error=c.is_error, error=c.error, exit_code=c.exit_code)
                for c in e.tool_calls
            ],
        )
        for e in events
    ]  # fmt: skip


def test_transcript_events_against_the_hand_code_they_replaced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    events = _real_events(tmp_path)
    assert all(
        compact_json(event.to_json()) == compact_json(_hand_event_json(event)) for event in events
    )
    count, calls = len(events), sum(len(event.tool_calls) for event in events)
    encode_floor = _best_ms(lambda: [_hand_event_json(event) for event in events])
    encode = _best_ms(lambda: [event.to_json() for event in events])
    build_floor = _best_ms(lambda: _build(events, _DataclassEvent, _DataclassCall))
    build = _best_ms(lambda: _build(events, TranscriptEvent, TranscriptToolCall))
    for key, what, floor, value in (
        ("encode", "encode", encode_floor, encode),
        ("build", "build (the constructor generated)", build_floor, build),
    ):
        record(
            f"records-events-{key}",
            Row(
                f"{what} {count:,} real transcript events, {calls:,} calls (CPU, best of "
                f"{ROUNDS}; per event)",
                f"{value / count * 1000:.2f} µs",
                f"≤ 1.5× the {'hand code' if key == 'encode' else 'dataclass'}",
                f"{floor / count * 1000:.2f} µs ({'hand' if key == 'encode' else 'dataclass'})",
                value / floor,
            ),
        )
    largest = read_transcript(LARGEST).events
    budgets = {}
    for encoding, to_json in (("hand", _hand_event_json), ("record", TranscriptEvent.to_json)):
        monkeypatch.setattr(TranscriptEvent, "to_json", to_json)
        budgets[encoding] = (
            _best_ms(lambda: select_event_budget(largest, 80_000, redact=True)),
            _best_ms(lambda: read_newest_events(LARGEST, max_json_chars=80_000, redact=True)),
        )
    for n, what in enumerate(("whole (select_event_budget)", "streamed (read_newest_events)")):
        record(
            f"records-events-budget-{n}",
            Row(
                f"the writer's budget, redacted, over the largest real transcript, {what} "
                f"(CPU, best of {ROUNDS})",
                f"{budgets['record'][n]:.1f} ms",
                "within noise of the hand code",
                f"{budgets['hand'][n]:.1f} ms (hand to_json)",
                budgets["record"][n] / budgets["hand"][n],
            ),
        )
