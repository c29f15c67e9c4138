"""Every consolidation run is on record, linked to its trace (issue 96 point 3): a plan that
fails — Consolidate now reviews first, and a local model server that is down fails it — is
logged as a failed run as `memtab consolidate` logs one, its dump named; the offline
consolidator's runs and plans leave a dump; the run applying a plan names the plan's dump."""

from __future__ import annotations

from pathlib import Path

import pytest

from memtab.cli.main import main
from memtab.components.jobs import JobContext
from memtab.consolidation.errors import RunFailedError
from memtab.consolidation.job import run_for_outcome
from memtab.consolidation.records import ConsolidationRequest
from memtab.consolidation.service import ConsolidationService
from memtab.consolidation.sweep import run_launch_sweep
from memtab.llm.http import HttpOptions
from memtab.llm.settings import ProviderSettings
from memtab.llm.types import ProviderError
from memtab.store.history.runs import RunsLog, trace_path
from memtab.store.home import Home
from memtab.store.scopes.memory import MemoryStore
from memtab.traces.catalog import list_traces
from memtab.traces.outcome import Outcome
from support.ports import refused_port
from support.scripted_provider import ScriptedProvider

from .helpers import NOW, WS, FakeClock, put
from .test_sweep import five_with_writes

OFFLINE = ProviderSettings("offline", "offline", "")
QUICK = HttpOptions(timeout_s=2.0, connect_timeout_s=1.0, max_retries=0)


@pytest.mark.expect_log("memtab.llm.loop", "WARNING", r"stopped at step 1: .*")
@pytest.mark.expect_log("memtab.consolidation.engine.runner", "WARNING", r"run failed: .*")
def test_a_plan_whose_local_server_is_down_is_a_failed_run_with_its_trace(home: Home) -> None:
    with refused_port() as port:
        local = ProviderSettings("openai", "qwen2.5-coder", f"http://127.0.0.1:{port}/v1")
        service = ConsolidationService(home, settings=local, http_options=QUICK)
        outcome = run_for_outcome(  # the window's job: Consolidate now reviews first
            ConsolidationRequest(WS, review=True), service, JobContext.standalone()
        )
    assert outcome.error is not None and outcome.plan is None
    (run,) = RunsLog(home).runs(failed_only=True)
    assert run.id == outcome.run_id and run.kind == "consolidation"
    assert run.workspace_id == WS and run.trigger == "manual" and run.plan_id
    assert run.provider == "openai" and run.model == "qwen2.5-coder"
    assert run.error and run.error in outcome.error
    (summary,) = list_traces(home, WS)
    assert trace_path(home, run) == summary.path
    assert summary.outcome is Outcome.PROVIDER_ERROR


@pytest.mark.expect_log("memtab.llm.loop", "WARNING", r"stopped at step 1: HTTP 500")
@pytest.mark.expect_log("memtab.consolidation.engine.runner", "WARNING", r"run failed: HTTP 500")
def test_the_cli_and_the_window_record_a_failed_plan_alike(
    home: Home, capsys: pytest.CaptureFixture[str]
) -> None:
    failing = ScriptedProvider(fail=ProviderError("server", "HTTP 500 from the model server"))
    service = ConsolidationService(home, provider_factory=lambda _: failing)
    with pytest.raises(RunFailedError):
        service.plan(WS)  # `memtab consolidate --plan-out`
    (run,) = RunsLog(home).runs()
    assert run.failed and run.error == "HTTP 500 from the model server"
    assert run.trace_dump is not None
    assert main(["--home", str(home.root), "runs", "--failed"]) == 0
    out = capsys.readouterr().out
    assert f"{run.id} " in out and "· failed: HTTP 500 from the model server" in out
    assert f"trace: {trace_path(home, run)}" in out


def test_an_offline_run_leaves_a_trace_its_run_names(home: Home, store: MemoryStore) -> None:
    put(store, "/memories/project/a.md", "- alpha\n")
    ConsolidationService(home, settings=OFFLINE).run(WS)
    (run,) = RunsLog(home).runs()
    (summary,) = list_traces(home, WS)
    assert summary.kind == "consolidation"
    assert trace_path(home, run) == summary.path


def test_an_offline_launch_sweep_is_in_runs_with_its_traces(tmp_path: Path) -> None:
    home = five_with_writes(tmp_path)
    service = ConsolidationService(home, settings=OFFLINE, clock=FakeClock(NOW))
    report = run_launch_sweep(service)
    assert [run.ok for run in report.runs] == [True, True, True]
    runs = RunsLog(home).runs(trigger="launch")
    assert sorted(run.workspace_id or "" for run in runs) == ["w1", "w2", "w3"]
    for run in runs:
        trace = trace_path(home, run)
        assert trace is not None and trace.is_file(), run


def test_the_run_applying_a_plan_names_the_plans_trace(home: Home, store: MemoryStore) -> None:
    put(store, "/memories/project/a.md", "- alpha\n- alpha\n")
    service = ConsolidationService(home, settings=OFFLINE)
    plan = service.plan(WS)
    (summary,) = list_traces(home, WS)
    assert plan.trace_dump == summary.path.name
    service.apply_plan(plan)
    (run,) = RunsLog(home).runs()
    assert run.plan_id == plan.id and trace_path(home, run) == summary.path


def test_a_run_log_naming_a_path_outside_its_folder_opens_no_trace(home: Home) -> None:
    from memtab.store.history.records import RunEntry

    for name, workspace in (("../../x.json", WS), ("..", WS), ("a.json", "../w"), ("a.json", "")):
        raw = {"id": "run-1", "at": 1, "kind": "consolidation", "traceDump": name}
        run = RunEntry.read_or_raise({**raw, "workspaceId": workspace})
        assert trace_path(home, run) is None, (name, workspace)
