"""Benchmark: what `memtab recall PROMPT` (and the window's *Why recalled…*) costs.

Run: .venv/bin/python -m pytest --bench -p no:xdist tests/bench/test_recall_bench.py -s
Prints the warm median of `compute_recall` for the four agents on the developer machine
of the tests (the real Codex store, support.agent_machine) with 20,000 memory files: 10,000
xum notes over 100 folders of the global scope (1000 a scope are in xum's index, as xum
lists them) and 10,000 topic files in Claude Code's auto memory (target: 2 s warm, issue 72)
— as `memtab recall` computes it (nothing kept from an earlier call), and as the window
asks again for another prompt (what the last one read kept by stamp, `loads.kept`).
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

import pytest

from memtab.loads.kept import KeptHeads
from memtab.loads.recall.engine import compute_recall
from support.agent_machine import WORKSPACE_ID, build_machine

ROUNDS = 5
FILES_EACH = 10_000
WORDS = [
    "deploy",
    "staging",
    "token",
    "refresh",
    "webhook",
    "stripe",
    "cache",
    "redis",
    "search",
    "index",
    "migration",
]


def _note(number: int) -> str:
    a, b = WORDS[number % len(WORDS)], WORDS[(number * 7) % len(WORDS)]
    body = f"## {a}\n\nWhen {a} fails, check the {b} settings first.\n" * 8
    return (
        f"---\nname: n{number}\ndescription: {a} and {b} notes {number}\ntype: project\n---\n{body}"
    )


@pytest.mark.bench
def test_compute_recall_on_20000_files(tmp_path: Path) -> None:
    machine = build_machine(tmp_path)
    root = machine.home.global_root
    for number in range(FILES_EACH):
        folder = root / f"area-{number % 100:02d}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"note-{number:05d}.md").write_text(_note(number), encoding="utf-8")
    memory = machine.claude_memory
    for number in range(FILES_EACH):
        (memory / f"topic-{number:05d}.md").write_text(_note(number), encoding="utf-8")
    context = machine.context()
    prompts = ["why does the stripe webhook fail on staging?", "redis cache index migration"]
    samples = []
    for round_ in range(ROUNDS + 1):  # the first round warms the disk cache
        started = time.perf_counter()
        result = compute_recall(
            machine.home, prompts[round_ % 2], workspace_id=WORKSPACE_ID, context=context
        )
        samples.append(time.perf_counter() - started)
    assert [agent.agent for agent in result.agents] == ["claude", "codex", "xum", "gemini"]
    kept = KeptHeads()
    asked = []
    for round_ in range(ROUNDS + 1):  # the first round reads what the others find kept
        started = time.perf_counter()
        compute_recall(
            machine.home,
            prompts[round_ % 2],
            workspace_id=WORKSPACE_ID,
            context=context,
            kept=kept,
        )
        asked.append(time.perf_counter() - started)
    warm = statistics.median(samples[1:])
    print(
        f"\ncompute_recall, 4 agents, {2 * FILES_EACH:,} files: {warm:.2f}"
        f" s warm (median of {ROUNDS}; first {samples[0]:.2f} s); the window's next prompt "
        f"{statistics.median(asked[1:]):.2f} s (its first {asked[0]:.2f} s)"
    )
