"""Checked where it is recalled (issue 72 point 1): what the marks cost an MCP answer, and
what the checks that fill their cache cost in the background.

Run: .venv/bin/python -m pytest -q -p no:xdist --bench tests/bench/test_recall_marks_bench.py -s

A home of 20,000 memory files: the seeded corpus's 200 project memories about a git
checkout (tests/support/seeded_claims.py) and 19,800 notes in the global and workspace
scopes. Measured, in `MemoryService.call` (JSON included), p50 and p95 over `CALLS`
calls each: `view` of a memory with a marked line, `search` of a common word (10
results), `list`'s first page — without the check (no marks: the floor), with the cache
warm (marks), and right after a commit changed the checkout (every entry of the project
outdated: answered unmarked, a check asked for, never waited for). Then the background
check itself: the first (an engine that knows nothing: every file read and checked) and
the one after the commit (the engine's checkout index and findings kept: only what
changed is checked again). Reported, never asserted; the targets are the search's
("Search on a real engine": warm p95 ≤ 20 ms) — the marks must not move an answer past it.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from bench.table import Row, p95, record
from memtab.agent_server.service import MemoryService
from memtab.check.engine import CheckEngine
from memtab.check.recalled import RecallChecks
from memtab.checked.cache import CheckCache
from memtab.store.home import Home
from memtab.store.paths import Scope
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.registry import add_workspace, load_registry
from support.checkouts import add_to_git
from support.seeded_claims import build, change_the_code

pytestmark = pytest.mark.bench

FILLER = 19_800
CALLS = 60
WORKSPACE = "b1b2b3b4b5"


def _installed(name: str) -> str | None:
    return f"/usr/bin/{name}" if name in ("make", "npm", "pnpm") else None


def _timed(call: Callable[[], object]) -> tuple[float, float]:
    times = []
    for _ in range(CALLS):
        started = time.perf_counter()
        call()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times), p95(times)


def test_what_the_marks_cost_an_answer(tmp_path: Path) -> None:
    checkout = tmp_path / "acme"
    corpus = build(checkout)
    home = Home(tmp_path / "home")
    add_workspace(home, str(checkout), "bench", workspace_id=WORKSPACE)
    workspace = load_registry(home).require_workspace(WORKSPACE)
    store = MemoryStore(home, workspace)
    project = store.root(Scope.PROJECT)
    project.mkdir(parents=True)
    for memory in corpus.memories:
        (project / memory.name).write_text(memory.text, "utf-8")
    for scope in (Scope.GLOBAL, Scope.WORKSPACE):
        store.root(scope).mkdir(parents=True, exist_ok=True)
    for index in range(FILLER):
        scope = Scope.GLOBAL if index % 2 else Scope.WORKSPACE
        folder = store.root(scope) / f"topic{index % 100:02d}"
        folder.mkdir(exist_ok=True)
        text = f"# Note {index}\n\n- the service keeps its ledger for {index} days\n- fine\n"
        (folder / f"note{index:05d}.md").write_text(text, "utf-8")

    engine = CheckEngine(home, find_program=_installed)
    checks = RecallChecks(home, engine=engine, cache=CheckCache(home, path=tmp_path / "c.json"))
    started = time.perf_counter()
    checks.check_now(WORKSPACE)
    first_check = time.perf_counter() - started

    bare = MemoryService(home, workspace, writes="off", other_agents=False)
    marked = MemoryService(home, workspace, writes="off", other_agents=False, checks=checks)
    name, _line = min(corpus.broken)
    change_the_code(checkout, corpus)
    checks.check_now(WORKSPACE)  # the cache as a session finds it: warm
    view = {"path": f"/memories/project/{name}"}
    search = {"query": "ledger", "limit": 10}
    rows: dict[str, tuple[float, float]] = {}
    for label, service in (("no marks", bare), ("marks, cache warm", marked)):
        assert service.call("search", search, "bench").error is None  # indexed first
        for tool, arguments in (("view", view), ("search", search), ("list", {})):
            rows[f"{tool}, {label}"] = _timed(
                lambda t=tool, a=arguments, s=service: s.call(t, a, "b")
            )

    checks.stop()  # the commit's check is asked for, never run: what the answers cost alone
    (checkout / "README.md").write_text("# acme\n\nChanged.\n", "utf-8")
    add_to_git(checkout)  # git add: the checkout's stamp moves
    for tool, arguments in (("view", view), ("search", search), ("list", {})):
        rows[f"{tool}, cache outdated"] = _timed(lambda t=tool, a=arguments: marked.call(t, a, "b"))
    again = RecallChecks(home, engine=engine, cache=checks.cache)
    started = time.perf_counter()
    again.check_now(WORKSPACE)
    after_commit = time.perf_counter() - started

    for label, (middle, high) in rows.items():
        record(
            f"recall-marks {label}",
            Row(
                f"MCP {label} (20,000 files)",
                f"p50 {middle:.1f} ms, p95 {high:.1f} ms",
                "p95 ≤ 20 ms",
            ),
        )
    record(
        "recall-marks first check",
        Row("the background check, engine cold (20,000 files)", f"{first_check:.1f} s", "—"),
    )
    record(
        "recall-marks check after a commit",
        Row("the background check after a commit (engine warm)", f"{after_commit:.1f} s", "—"),
    )
