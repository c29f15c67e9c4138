"""Benchmark: what `memtab loads` (and View → What each agent loads) costs.

Run: .venv/bin/python -m pytest --bench tests/bench/test_loads_bench.py -s
Prints the median of `compute_loads` for every agent on the developer machine of
the tests (the real Claude Code and Codex stores, support.agent_machine) with a xum home
of 200 memory files, 20 of them pinned (target: well under 0.5 s, off the GUI thread).
"""

from __future__ import annotations

import json
import statistics
import time
from pathlib import Path

import pytest

from memtab.loads.engine import compute_loads
from support.agent_machine import WORKSPACE_ID, build_machine

ROUNDS = 20


@pytest.mark.bench
def test_compute_loads_for_every_agent(tmp_path: Path) -> None:
    machine = build_machine(tmp_path)
    root = machine.home.global_root
    root.mkdir(parents=True, exist_ok=True)
    entries = {}
    for number in range(200):
        name = f"note-{number:03d}.md"
        (root / name).write_text(
            f"---\ndescription: note {number}\n---\n" + "- a fact\n" * 40, encoding="utf-8"
        )
        entries[f"global:{name}"] = {"pinned": number < 20, "accessCount": number % 7}
    machine.home.meta_path.write_text(json.dumps({"entries": entries}), encoding="utf-8")
    context = machine.context()
    samples = []
    for _ in range(ROUNDS):
        started = time.perf_counter()
        loads = compute_loads(machine.home, workspace_id=WORKSPACE_ID, context=context)
        samples.append(time.perf_counter() - started)
    assert [agent.agent for agent in loads.agents] == ["claude", "codex", "xum", "gemini"]
    median_ms = statistics.median(samples) * 1000
    print(f"\ncompute_loads, every agent, 200 xum files: {median_ms:.1f} ms")
