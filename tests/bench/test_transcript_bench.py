"""Benchmark: read a 20 MB transcript and select the writer's event budget (target < 2 s),
whole (every event in memory) and streamed (`read_newest_events`, what a run uses).

Run: .venv/bin/python -m pytest --bench tests/bench/test_transcript_bench.py -s
"""

from __future__ import annotations

import time
import tracemalloc
from pathlib import Path

import pytest

from memtab.transcripts.budget import select_event_budget
from memtab.transcripts.reader import TranscriptTail, read_transcript
from memtab.transcripts.window import read_newest_events

from .transcript_gen import claude_lines, mux_lines, write_transcript

TARGET_BYTES = 20 * 1024 * 1024


def _measure(path: Path) -> None:
    started = time.perf_counter()
    transcript = read_transcript(path)
    parsed = time.perf_counter()
    budget = select_event_budget(transcript.events, 80_000, redact=True)
    selected = time.perf_counter()

    tracemalloc.start()
    select_event_budget(read_transcript(path).events, 80_000)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()

    streamed_started = time.perf_counter()
    streamed = read_newest_events(path, max_json_chars=80_000, redact=True)
    streamed_seconds = time.perf_counter() - streamed_started
    tracemalloc.start()
    read_newest_events(path, max_json_chars=80_000, redact=True)
    _, streamed_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert streamed.budget.json_text() == budget.json_text()

    tail = TranscriptTail(path)
    tail_started = time.perf_counter()
    tail.read_new()
    tail_first = time.perf_counter() - tail_started
    with path.open("a", encoding="utf-8") as handle:
        handle.write(path.read_text(encoding="utf-8").splitlines()[0].replace('"u', '"v', 1) + "\n")
    tail_started = time.perf_counter()
    tail.read_new()
    tail_next = time.perf_counter() - tail_started

    calls = sum(len(event.tool_calls) for event in transcript.events)
    size_mb = path.stat().st_size / 2**20
    report = [
        f"{transcript.format}: {size_mb:.1f} MB, {len(transcript.events)} events, {calls} calls",
        f"  read_transcript       {parsed - started:6.3f} s",
        f"  select_event_budget   {selected - parsed:6.3f} s  (redacted; kept "
        f"{budget.trimmed_count}, {budget.json_chars} chars, clamped={budget.clamped})",
        f"  total                 {selected - started:6.3f} s  (target < 2 s)",
        f"  peak traced memory    {peak / 2**20:6.1f} MB",
        f"  streamed, redacted    {streamed_seconds:6.3f} s, peak traced memory "
        f"{streamed_peak / 2**20:.1f} MB  (read_newest_events)",
        f"  tail: first read_new  {tail_first:6.3f} s; one appended line {tail_next * 1000:.2f} ms",
    ]
    print("\n" + "\n".join(report))
    assert transcript.skipped_lines == 0 and budget.json_chars <= 80_000


@pytest.mark.bench
def test_bench_mux_chat_jsonl_20mb(tmp_path: Path) -> None:
    path = tmp_path / "chat.jsonl"
    write_transcript(path, mux_lines, TARGET_BYTES)
    _measure(path)


@pytest.mark.bench
def test_bench_claude_session_20mb(tmp_path: Path) -> None:
    path = tmp_path / "session.jsonl"
    write_transcript(path, claude_lines, TARGET_BYTES)
    _measure(path)
