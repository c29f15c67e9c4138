"""Consolidation jobs in a child process behave like in-process ones."""

from __future__ import annotations

from pathlib import Path

import pytest

from memtab.components.jobs import JobContext
from memtab.consolidation.job import run_for_outcome, run_isolated
from memtab.consolidation.records import ConsolidationRequest
from memtab.consolidation.service import ConsolidationService
from memtab.demo import MAIN_ID, acme_api
from memtab.fs.sidecar import KeptAside, on_kept_aside
from memtab.logs import setup_logging
from memtab.store.sidecars.journal import Journal
from support.demo_homes import copied_demo_home


@pytest.mark.slow
def test_an_isolated_run_consolidates_and_reports_progress(tmp_path: Path) -> None:
    home = copied_demo_home(tmp_path / "home")
    steps: list[tuple[int, str]] = []
    progress = JobContext.standalone(lambda _job, step, message: steps.append((step, message)))
    outcome = run_isolated(ConsolidationRequest(MAIN_ID), home.root, progress)
    assert outcome.error is None and outcome.record is not None
    assert outcome.record.applied_count > 0
    assert steps, "no progress crossed the process boundary"
    journaled = Journal(home).load().workspaces[MAIN_ID]
    assert journaled.last_run_at == outcome.record.last_run_at
    project = home.project_root(acme_api(home))
    assert project.is_dir() and not (project / "test-tips.md").exists()


def test_an_isolated_run_reports_refusals_as_text(tmp_path: Path) -> None:
    home = copied_demo_home(tmp_path / "home")
    outcome = run_isolated(ConsolidationRequest("no-such-ws"), home.root, JobContext.standalone())
    assert outcome.record is None
    assert outcome.error is not None and "no-such-ws" in outcome.error


# slow: starts other processes (an isolated run, cancelled; ~0.5 s of CPU or more)
@pytest.mark.slow
def test_a_cancelled_isolated_run_changes_nothing(tmp_path: Path) -> None:
    home = copied_demo_home(tmp_path / "home")
    before = Journal(home).load().workspaces[MAIN_ID]
    cancelled = JobContext.standalone()
    cancelled.cancel_event.set()
    outcome = run_isolated(ConsolidationRequest(MAIN_ID), home.root, cancelled)
    assert outcome.cancelled and outcome.record is None
    assert Journal(home).load().workspaces[MAIN_ID] == before


@pytest.mark.slow
def test_in_process_and_isolated_outcomes_match(tmp_path: Path) -> None:
    first = copied_demo_home(tmp_path / "a", now_ms=1_800_000_000_000)
    second = copied_demo_home(tmp_path / "b", now_ms=1_800_000_000_000)
    request = ConsolidationRequest(MAIN_ID)
    here = run_for_outcome(request, ConsolidationService(first), JobContext.standalone())
    there = run_isolated(request, second.root, JobContext.standalone())
    assert here.record is not None and there.record is not None
    assert [op.to_json() for op in here.record.ops] == [op.to_json() for op in there.record.ops]


@pytest.mark.slow
def test_a_sidecar_kept_aside_in_the_child_is_told_in_the_parent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMTAB_LOG_DIR", str(tmp_path / "log"))
    setup_logging()  # undone after the test by tests/support/logfail.py
    home = copied_demo_home(tmp_path / "home")
    home.journal_path.write_text("{cut short")
    told: list[KeptAside] = []
    stop = on_kept_aside(told.append)
    try:
        outcome = run_isolated(ConsolidationRequest(MAIN_ID), home.root, JobContext.standalone())
    finally:
        stop()
    assert outcome.error is None, outcome.error
    (copy,) = home.root.glob("memory-consolidation.json.corrupt-*")
    assert [(kept.original, kept.backup) for kept in told] == [(home.journal_path, copy)]
    logged = (tmp_path / "log" / "memtab.log").read_text()
    assert "consolidating workspace a1b2c3d4e5" in logged  # the child's lines reach the log
    assert f"its content was kept as {copy.name}" in logged
