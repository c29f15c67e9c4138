"""Benchmark: `memtab mcp` from its start to its first answer (issue 38's target: < 1 s).

Run: .venv/bin/python -m pytest --bench tests/bench/test_agent_server_start_bench.py -s

Starts the server as an agent does (a child process on the demo home), sends the 2025-11-25
`initialize` and times the answer; also the child's CPU time (user + sys, from
`os.wait4`), which the machine's load does not inflate as much. Five starts, the first
after a fresh bytecode cache is not counted (an installed Memtab has it compiled).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bench.table import Row, median, record
from memtab.demo import create_demo_home

pytestmark = pytest.mark.bench

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "bench", "version": "1"},
    },
}


def _start(home: Path) -> tuple[float, float]:
    started = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, "-m", "memtab", "mcp", "--home", str(home)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    assert child.stdin is not None and child.stdout is not None
    child.stdin.write(json.dumps(INITIALIZE).encode() + b"\n")
    child.stdin.flush()
    answer = json.loads(child.stdout.readline())
    elapsed = time.perf_counter() - started
    assert answer["result"]["protocolVersion"] == "2025-11-25"
    child.stdin.close()
    _, _, usage = os.wait4(child.pid, 0)
    child.returncode = 0  # reaped by wait4
    child.stdout.close()
    return elapsed, usage.ru_utime + usage.ru_stime


def test_start_to_first_answer(tmp_path: Path) -> None:
    home = create_demo_home(tmp_path / "demo").root
    _start(home)
    runs = [_start(home) for _ in range(5)]
    walls = [wall for wall, _ in runs]
    cpus = [cpu for _, cpu in runs]
    load = os.getloadavg()[0]
    record(
        "mcp-start",
        Row(
            f"`memtab mcp`: start → first answer (initialize), median of 5 (load {load:.1f})",
            f"{median(walls) * 1000:.0f} ms (child CPU {median(cpus) * 1000:.0f} ms)",
            "< 1 s",
        ),
    )
