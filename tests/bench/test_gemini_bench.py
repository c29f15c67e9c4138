"""Benchmark: Gemini CLI's memory on a busy machine — finding and listing it beside the other
agents, listing its memory inboxes for the Inbox, and applying a big patch in memory.

Run: .venv/bin/python -m pytest --bench tests/bench/test_gemini_bench.py -s

The machine: 40 projects Gemini CLI ran in (`support.gemini_home`), each with its private
memory (MEMORY.md, a note, a skill) and both canonical patches waiting. Reported, never
asserted: the discovery and scan run off the GUI thread after the first paint (the sources'
budget, docs/performance.md), the Inbox's read runs on its files lane, a patch is planned
off the GUI thread.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest

from memtab.sources.config import SourceContext
from memtab.sources.discovery import discover, scan
from memtab.sources.gemini.inbox import MemoryRoots, plan_patch, read_patch
from memtab.store.home import Home
from memtab.writer.inbox.gemini import GeminiInbox
from support.gemini_home import build_gemini_home

pytestmark = pytest.mark.bench

ROUNDS = 7
PROJECTS = 40


def _best(action: Callable[[], object]) -> tuple[float, float]:
    action()  # warm the page cache
    wall = cpu = float("inf")
    for _ in range(ROUNDS):
        started, started_cpu = time.perf_counter(), time.process_time()
        action()
        wall = min(wall, time.perf_counter() - started)
        cpu = min(cpu, time.process_time() - started_cpu)
    return wall, cpu


def test_finding_listing_and_the_inbox_of_40_gemini_projects(tmp_path: Path) -> None:
    user = tmp_path / "user"
    for index in range(PROJECTS):
        build_gemini_home(user, tmp_path / "src" / f"service-{index:02d}")
    # Every project of the registry: projects.json holds the last; the markers the rest.
    home = Home(user / ".mux")
    context = SourceContext.load(home, env={}, user_home=user)
    discovery, listings = scan(context)
    memories = [s for s in discovery.sources if s.id.startswith("gemini:memory-")]
    assert len(memories) == PROJECTS

    inbox = GeminiInbox(home, context)
    items = inbox.items(None)
    assert len(items) == 2 * PROJECTS
    timings = {
        "discover": _best(lambda: discover(context)),
        "scan (discover + list)": _best(lambda: scan(context)),
        "the Inbox's patches": _best(lambda: GeminiInbox(home, context).items(None)),
    }
    files = sum(listing.file_count for listing in listings)
    print(f"\n{len(discovery.sources)} sources, {files} files, {len(items)} patches:")
    for label, (wall, cpu) in timings.items():
        print(f"  {label:<24} wall {wall * 1000:7.1f} ms  CPU {cpu * 1000:7.1f} ms")


def test_planning_a_patch_of_200_hunks_on_a_5000_line_index(tmp_path: Path) -> None:
    memory = tmp_path / "memory"
    (memory / ".inbox" / "private").mkdir(parents=True)
    lines = [
        f"- fact {n}: the service on port {8000 + n} answers health checks" for n in range(5000)
    ]
    (memory / "MEMORY.md").write_text("\n".join(lines) + "\n")
    hunks = []
    for hunk in range(200):
        at = hunk * 25 + 10  # 1-based line of the changed fact; offset by the earlier hunks
        old = lines[at - 1]
        context_before, context_after = lines[at - 4 : at - 1], lines[at : at + 3]
        body = [f" {c}" for c in context_before] + [f"-{old}", f"+{old} (checked)"]
        body += [f" {c}" for c in context_after]
        hunks.append(f"@@ -{at - 3},7 +{at - 3},7 @@\n" + "\n".join(body) + "\n")
    target = memory / "MEMORY.md"
    patch = memory / ".inbox" / "private" / "extraction.patch"
    patch.write_text(f"--- {target}\n+++ {target}\n" + "".join(hunks))
    roots = MemoryRoots(memory, tmp_path / "GEMINI.md")
    read = read_patch(roots, "private", patch)
    assert read is not None and read.problem is None

    plan = plan_patch(roots, read)
    assert plan.files[0].after.count("(checked)") == 200
    wall, cpu = _best(lambda: plan_patch(roots, read))
    print(f"\nplan of 200 hunks on 5,000 lines: wall {wall * 1000:.1f} ms  CPU {cpu * 1000:.1f} ms")
