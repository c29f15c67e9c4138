"""Benchmark: `memtab mcp` from its start to its first answer, against its floor — a Python
that imports the MCP SDK's server side alone and answers (issue 56's target: at most 1.2×
that floor).

Run: .venv/bin/python -m pytest --bench tests/bench/test_agent_server_start_bench.py -s

Starts the server as an agent does (a child process on the demo home), sends the 2025-11-25
`initialize` and times the answer; the floor is started the same way (same interpreter,
environment and bytecode cache) and answers the same line once it has imported what
Memtab's server imports of the SDK. Also each child's CPU time (user + sys, from
`os.wait4`), which the machine's load does not inflate as much. Five starts of each,
alternated so both meet the same load, after one of each not counted (an installed Memtab
has its bytecode compiled).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bench.floors import INITIALIZE, SDK_FLOOR
from bench.table import Row, median, record
from memtab.demo import create_demo_home

pytestmark = pytest.mark.bench

TARGET_RATIO = 1.2


def _start(command: list[str]) -> tuple[float, float]:
    """Wall time from the spawn to the answer to `initialize`, and the child's CPU time."""
    started = time.perf_counter()
    child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert child.stdin is not None and child.stdout is not None
    child.stdin.write(json.dumps(INITIALIZE).encode() + b"\n")
    child.stdin.flush()
    answer = json.loads(child.stdout.readline())
    elapsed = time.perf_counter() - started
    assert answer["id"] == 1 and "result" in answer
    child.stdin.close()
    _, _, usage = os.wait4(child.pid, 0)
    child.returncode = 0  # reaped by wait4
    child.stdout.close()
    return elapsed, usage.ru_utime + usage.ru_stime


def test_start_to_first_answer_against_the_sdks_import(tmp_path: Path) -> None:
    home = create_demo_home(tmp_path / "demo").root
    memtab = [sys.executable, "-m", "memtab", "mcp", "--home", str(home)]
    floor = [sys.executable, "-c", SDK_FLOOR]
    _start(memtab)
    _start(floor)
    runs = [(_start(memtab), _start(floor)) for _ in range(5)]
    wall = median([m[0] for m, _ in runs])
    cpu = median([m[1] for m, _ in runs])
    floor_wall = median([f[0] for _, f in runs])
    floor_cpu = median([f[1] for _, f in runs])
    load = os.getloadavg()[0]
    record(
        "mcp-start",
        Row(
            f"`memtab mcp`: start → first answer (initialize), median of 5 (load {load:.1f}); "
            f"CPU {cpu * 1000:.0f} ms against {floor_cpu * 1000:.0f} ms "
            f"({cpu / floor_cpu:.2f}×)",
            f"{wall * 1000:.0f} ms",
            f"≤ {TARGET_RATIO}× the SDK's import",
            floor=f"{floor_wall * 1000:.0f} ms (the MCP SDK's server import alone)",
            ratio=wall / floor_wall,
        ),
    )
