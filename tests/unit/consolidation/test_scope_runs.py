"""A run of one scope alone ("Consolidate this scope", docs/formats.md §9.8): run, plan,
review and apply as a workspace run, with only that scope's files in play — the guard
refuses (and its tool does not even read) another scope's files — journaled where mux
reads that scope alone (a project's under its project only) or, global and workspace, in
Memtab's `scope-runs.json`, whose run is its scope's footer line; the runs log has the
run with its scope."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memtab.components.jobs import JobContext
from memtab.consolidation.engine import run_books
from memtab.consolidation.errors import ConsolidationError
from memtab.consolidation.job import run_for_outcome
from memtab.consolidation.records import ConsolidationPlan, ConsolidationRequest
from memtab.consolidation.review.plan import read_plan, write_plan
from memtab.consolidation.service import ConsolidationService
from memtab.humanize import coverage_text
from memtab.llm.settings import ProviderSettings
from memtab.llm.types import ModelReply, ToolCall
from memtab.store.catch_up.interrupted import log_interrupted_runs
from memtab.store.history.runs import RunsLog
from memtab.store.home import Home
from memtab.store.paths import Scope
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.journal import TRIGGERS, Journal, RunScope
from memtab.store.sidecars.scope_runs import load_scope_runs
from support.scripted_provider import ScriptedProvider

from .helpers import MULTI, NOW, PROJECT, WS, FakeClock, exists, put, read
from .test_service import Providers

OFFLINE = ProviderSettings("offline", "offline", "")
TEXT = "---\ndescription: {0}\n---\n# {0}\n\n- Rebase onto main before opening a pull request.\n"


def twins(store: MemoryStore) -> None:
    """The same note twice in each of the three scopes: each run of one scope removes its
    own copy and no other."""
    for scope in ("global", "project", "workspace"):
        put(store, f"/memories/{scope}/git-copy.md", TEXT.format("Git"))
        put(store, f"/memories/{scope}/git.md", TEXT.format("Git"))


def copies_left(store: MemoryStore) -> list[str]:
    return [
        scope
        for scope in ("global", "project", "workspace")
        if exists(store, f"/memories/{scope}/git-copy.md")
    ]


def offline(home: Home, clock: FakeClock) -> ConsolidationService:
    return ConsolidationService(home, settings=OFFLINE, clock=clock)


def test_a_global_run_changes_global_alone_and_is_kept_out_of_muxs_journal(
    home: Home, clock: FakeClock, store: MemoryStore
) -> None:
    twins(store)
    record = offline(home, clock).run(WS, scope="global")
    assert [(op.command, op.path, op.applied) for op in record.ops] == [
        ("delete", "/memories/global/git-copy.md", True)
    ]
    assert record.scope == "global" and copies_left(store) == ["project", "workspace"]
    assert not home.journal_path.exists()  # mux would take it for a run of the workspace
    runs = load_scope_runs(home)
    assert runs.global_run == record and runs.workspaces == {}
    (logged,) = RunsLog(home).runs(workspace_id=WS)
    assert (logged.scope, logged.status, logged.summary) == ("global", "ok", record.summary)
    status = Journal(home).status(WS, PROJECT, scope_runs=runs)
    assert status.global_record == record  # the footer's Global line: this run
    assert status.workspace_record is None and status.project_record is None

    clock.now = NOW + 60_000  # then the whole workspace: the journal as ever
    whole = offline(home, clock).run(WS)
    assert whole.scope is None and copies_left(store) == []
    journal = Journal(home).load()
    assert journal.workspaces[WS] == whole and journal.projects[PROJECT] == whole
    status = Journal(home).status(WS, PROJECT, scope_runs=load_scope_runs(home))
    assert status.global_record == whole  # newer than the global run


def test_a_project_run_is_journaled_under_its_project_alone(
    home: Home, clock: FakeClock, store: MemoryStore
) -> None:
    twins(store)
    record = offline(home, clock).run(WS, scope="project")
    assert copies_left(store) == ["global", "workspace"]
    journal = Journal(home).load()
    assert journal.workspaces == {} and journal.projects[PROJECT] == record
    raw = json.loads(home.journal_path.read_text("utf-8"))["projects"][PROJECT]
    # mux reads the record (its schema strips what it does not know; the trigger is one
    # of its four) as the project's latest run, which it is.
    assert raw["trigger"] in TRIGGERS and raw["scope"] == "project"
    assert set(raw) <= {"lastRunAt", "trigger", "summary", "ops", "usage", "scope"}
    assert load_scope_runs(home).global_run is None
    assert RunsLog(home).runs()[0].scope == "project"


def test_a_workspace_plan_is_reviewed_and_applied_as_a_workspace_run(
    home: Home, clock: FakeClock, store: MemoryStore, tmp_path: Path
) -> None:
    twins(store)
    service = offline(home, clock)
    plan = service.plan(WS, scope="workspace")
    assert plan.scope == "workspace"
    assert [op.path for op in plan.proposed] == ["/memories/workspace/git-copy.md"]
    assert copies_left(store) == ["global", "project", "workspace"]  # a plan changes nothing
    write_plan(tmp_path / "plan.json", plan)  # as `--plan-out` writes it, read back
    record = service.apply_plan(read_plan(tmp_path / "plan.json"))
    assert record.scope == "workspace" and copies_left(store) == ["global", "project"]
    assert load_scope_runs(home).workspace_run(WS) == record
    assert not home.journal_path.exists()
    (logged,) = RunsLog(home).runs()
    assert (logged.scope, logged.plan_id) == ("workspace", plan.id)


def test_a_plan_proposing_nothing_is_the_run_that_changed_nothing(
    home: Home, clock: FakeClock, store: MemoryStore
) -> None:
    # The window's "Consolidate Global only" reviews first: a plan proposing nothing is
    # never reviewed nor applied, so it is the whole run — journaled where its scope's runs
    # are, as `run` journals a run that changed nothing (mux journals one: "no changes
    # needed"), and the footer's Global line is this run, not the one of 3 h before.
    put(store, "/memories/global/git.md", TEXT.format("Git"))
    service = offline(home, clock)

    def review_first(scope: RunScope | None) -> ConsolidationPlan:
        request = ConsolidationRequest(WS, review=True, scope=scope)
        outcome = run_for_outcome(request, service, JobContext.standalone())
        assert outcome.plan is not None and not outcome.plan.proposed, outcome.error
        return outcome.plan

    plan = review_first("global")
    run = load_scope_runs(home).global_run
    assert run is not None and (run.last_run_at, run.ops, run.scope) == (NOW, (), "global")
    assert run.summary == "no changes needed"
    assert not home.journal_path.exists()  # mux would take it for a run of the workspace
    status = Journal(home).status(WS, PROJECT, scope_runs=load_scope_runs(home))
    line = coverage_text(status.global_record, Scope.GLOBAL, NOW)
    assert line == "just now · manual · no file changed"
    (logged,) = RunsLog(home).runs(workspace_id=WS)
    assert (logged.scope, logged.status, logged.plan_id) == ("global", "ok", plan.id)

    clock.now = NOW + 60_000  # the whole workspace's, the same: in mux's journal
    review_first(None)
    whole = Journal(home).load().workspaces[WS]
    assert (whole.last_run_at, whole.ops, whole.scope) == (NOW + 60_000, (), None)
    # A plan asked for itself (`memtab consolidate --plan-out`) is no run: nothing is
    # journaled until it is applied.
    clock.now = NOW + 120_000
    service.plan(WS, scope="global")
    assert len(RunsLog(home).runs(workspace_id=WS)) == 2


def test_a_plan_made_for_one_scope_applies_to_that_scope_alone(
    home: Home, clock: FakeClock, store: MemoryStore
) -> None:
    """A plan file edited to claim another scope: the guard of the apply (and of its
    check's replay) refuses every op outside the scope it names — nothing is changed."""
    twins(store)
    service = offline(home, clock)
    plan = service.plan(WS, scope="workspace").replaced(scope="global")
    record = service.apply_plan(plan)
    (op,) = record.ops
    assert not op.applied and op.note is not None
    assert "outside this run: it consolidates /memories/global/ only" in op.note
    assert copies_left(store) == ["global", "project", "workspace"]


def test_a_model_of_one_scope_sees_and_changes_that_scope_alone(
    home: Home, clock: FakeClock, store: MemoryStore
) -> None:
    twins(store)
    calls = (
        ToolCall("0", "memory", {"command": "view", "path": "/memories/global/git-copy.md"}),
        ToolCall("1", "memory", {"command": "view", "path": "/memories/workspace/git.md"}),
        ToolCall("2", "memory", {"command": "delete", "path": "/memories/workspace/git.md"}),
        ToolCall("3", "memory", {"command": "delete", "path": "/memories/global/git-copy.md"}),
    )
    model = ScriptedProvider([ModelReply("", calls), ModelReply("Removed the global copy.")])
    service = ConsolidationService(home, provider_factory=Providers(model), clock=clock)
    record = service.run(WS, scope="global")
    message = model.messages[0][0].text  # type: ignore[union-attr]
    assert "/memories/global/git-copy.md" in message
    assert "/memories/workspace/" not in message and "/memories/project/" not in message
    assert "This run consolidates the scope above alone" in message
    outcomes = [block.content for block in model.messages[1][-1].results]  # type: ignore[union-attr]
    assert "the workspace scope is not offered here" in outcomes[1]  # not even read
    assert outcomes[2].endswith("outside this run: it consolidates /memories/global/ only")
    assert [(op.path, op.applied) for op in record.ops] == [
        ("/memories/workspace/git.md", False),
        ("/memories/global/git-copy.md", True),
    ]
    assert copies_left(store) == ["project", "workspace"]
    assert read(store, "/memories/workspace/git.md") == TEXT.format("Git")


def test_a_scope_the_workspace_cannot_consolidate_is_refused_before_anything(
    home: Home, clock: FakeClock
) -> None:
    service = offline(home, clock)
    with pytest.raises(ConsolidationError, match="this workspace has no project memory"):
        service.run(MULTI, scope="project")  # a multi-project workspace: no project identity
    with pytest.raises(ConsolidationError, match="unknown scope 'session'"):
        service.plan(WS, scope="session")
    assert not home.journal_path.exists() and RunsLog(home).runs() == []


class Killed(BaseException):
    """The process dies (as `os._exit` would) before the run is written down."""


def test_a_scope_run_killed_midway_is_logged_and_journaled_as_such_later(
    home: Home, clock: FakeClock, store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    twins(store)

    def killed(*_args: object, **_kwargs: object) -> None:
        raise Killed

    monkeypatch.setattr(run_books.RunBooks, "finish", killed)
    with pytest.raises(Killed):
        offline(home, clock).run(WS, scope="global")
    assert copies_left(store) == ["project", "workspace"] and RunsLog(home).runs() == []
    monkeypatch.undo()
    (entry,) = log_interrupted_runs(home)  # the next start
    assert entry.scope == "global" and entry.status == "failed"
    saved = load_scope_runs(home).global_run
    assert saved is not None and saved.scope == "global" and saved.summary == entry.summary
    assert not home.journal_path.exists()
