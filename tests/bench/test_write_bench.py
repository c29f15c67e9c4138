"""Benchmark: `memtab write` (offline writer, `--json`) on a 200 MB transcript, in a child
process: wall time and peak RSS in MiB (target: peak ≤ 100 MB = 95.4 MiB; time may grow).

Run: .venv/bin/python -m pytest --bench tests/bench/test_write_bench.py -s

The transcripts (mux `chat.jsonl` and a Claude Code session) hold the line mix of
`transcript_gen` plus four 10 MB tool outputs (a `cat` of a build log), the last one
about 10 MB before the end. The same
command on a two-line transcript is measured first: the interpreter and Memtab's imports,
which no streaming can remove.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from memtab.store.home import Home
from memtab.store.sidecars.registry import add_workspace

from .table import mib, mib_target
from .transcript_gen import Lines, claude_lines, huge_log, mux_lines, write_transcript

TARGET_BYTES = 200 * 2**20
TARGET_PEAK_MB = 100  # MB: 10^6 bytes; the peak is measured in MiB (`table.mib`)
HUGE_AT = (0.2, 0.45, 0.7, 0.9)
WORKSPACE = "bench-write"


@dataclass(frozen=True)
class Measured:
    seconds: float
    peak_mib: float
    output: dict[str, object]


# Measures its child alone: a process's peak RSS counts the memory of the process it was
# forked from, so `memtab` must not be forked from this (large) pytest process directly.
_LAUNCHER = """
import json, os, subprocess, sys, time
started = time.perf_counter()
child = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE)
output = child.stdout.read()
_, status, usage = os.wait4(child.pid, 0)
print(json.dumps({
    "status": os.waitstatus_to_exitcode(status),
    "seconds": time.perf_counter() - started,
    "peak_kb": usage.ru_maxrss,
    "output": output.decode(),
}))
"""


def _memtab_write(home: Home, transcript: Path, transcript_format: str) -> Measured:
    """Run `memtab write --json` in a child process; its wall time and peak RSS."""
    command = [
        sys.executable,
        "-m",
        "memtab",
        "--home",
        str(home.root),
        "write",
        "--workspace",
        WORKSPACE,
        "--transcript",
        str(transcript),
        "--format",
        transcript_format,
        "--json",
    ]
    launched = subprocess.run(
        [sys.executable, "-c", _LAUNCHER, *command], capture_output=True, check=True
    )
    report = json.loads(launched.stdout)
    assert report["status"] == 0, launched.stderr.decode()
    return Measured(report["seconds"], report["peak_kb"] / 1024, json.loads(report["output"]))


def _home(root: Path) -> Home:
    home = Home(root / "home")
    add_workspace(home, "/src/bench", "bench", workspace_id=WORKSPACE)
    return home


def _bench(tmp_path: Path, lines: Lines, transcript_format: str) -> None:
    small = tmp_path / "small.jsonl"
    write_transcript(small, lines, 2048)
    floor = _memtab_write(_home(tmp_path / "floor"), small, transcript_format)

    big = tmp_path / "big.jsonl"
    size = write_transcript(big, lines, TARGET_BYTES, huge_at=HUGE_AT, huge_output=huge_log(10))
    measured = _memtab_write(_home(tmp_path / "big"), big, transcript_format)

    verdict = "ok" if measured.peak_mib <= mib(TARGET_PEAK_MB) else "OVER"
    print(
        f"\nmemtab write --json, {transcript_format}: {size / 2**20:.0f} MB transcript"
        f"\n  wall time   {measured.seconds:6.2f} s"
        f"\n  peak RSS    {measured.peak_mib:6.1f} MiB  ({mib_target(TARGET_PEAK_MB)}: {verdict})"
        f"\n  floor       {floor.peak_mib:6.1f} MiB, {floor.seconds:.2f} s  (same command, "
        f"{small.stat().st_size} B transcript)"
        f"\n  outcome     {measured.output['outcome']}: {measured.output['summary']}"
    )
    assert measured.output["ok"] is True


@pytest.mark.bench
def test_bench_memtab_write_mux_200mb(tmp_path: Path) -> None:
    _bench(tmp_path, mux_lines, "mux")


@pytest.mark.bench
def test_bench_memtab_write_claude_200mb(tmp_path: Path) -> None:
    _bench(tmp_path, claude_lines, "claude")
