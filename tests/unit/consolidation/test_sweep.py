"""The launch sweep: every rule of docs/formats.md §9.5 steps 1–5, one case each."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from memtab.consolidation.service import ConsolidationService
from memtab.consolidation.sweep import SweepReport, run_launch_sweep
from memtab.fs.atomic import atomic_write_json
from memtab.llm.types import ModelReply, ProviderError
from memtab.store.home import Home
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.journal import ConsolidationRecord, Journal
from memtab.store.sidecars.meta import global_key, project_key, workspace_key
from support.scripted_provider import ScriptedProvider

from .helpers import (
    DAY,
    HOUR,
    MINUTE,
    NOW,
    OTHER_PROJECT,
    PROJECT,
    FakeClock,
    set_recency,
    set_writes,
)


def ws(workspace_id: str, **extra: Any) -> dict[str, Any]:
    return {"path": f"/work/{workspace_id}", "id": workspace_id, "name": workspace_id, **extra}


def make_home(root: Path, projects: dict[str, list[dict[str, Any]]]) -> Home:
    """A home with these workspaces, each idle for two days in extensionMetadata.json
    (the sweep, like mux's, considers only the workspaces listed there)."""
    home = Home(root)
    config = {"projects": [[path, {"workspaces": items}] for path, items in projects.items()]}
    atomic_write_json(home.config_path, config)
    set_recency(home, {item["id"]: NOW - 2 * DAY for items in projects.values() for item in items})
    return home


def covered(home: Home, workspace_id: str, project: str | None, at: int) -> None:
    """Journal a run of `workspace_id` at `at` (also under `project` unless None)."""
    Journal(home).save_run(
        workspace_id,
        project,
        ConsolidationRecord(last_run_at=at, trigger="manual", summary="earlier"),
    )


def sweep(home: Home, failing: tuple[str, ...] = ()) -> SweepReport:
    def provider(store: MemoryStore) -> ScriptedProvider:
        assert store.workspace is not None
        if store.workspace.id in failing:
            return ScriptedProvider(fail=ProviderError("server", "server error (HTTP 500)"))
        return ScriptedProvider([ModelReply("done")])

    service = ConsolidationService(home, provider_factory=provider, clock=FakeClock(NOW))
    return run_launch_sweep(service)


def ran(report: SweepReport) -> list[str]:
    return [run.workspace_id for run in report.runs]


def skips(report: SweepReport) -> dict[str, str]:
    return {skip.workspace_id: skip.kind for skip in report.skipped}


def five_with_writes(root: Path) -> Home:
    ids = [f"w{i}" for i in range(1, 7)]
    home = make_home(root, {PROJECT: [ws(i) for i in ids]})
    set_writes(home, {workspace_key(i, "notes.md"): NOW - DAY for i in ids})
    return home


@pytest.mark.expect_log(
    "memtab.consolidation.sweep",
    "WARNING",
    r"^launch sweep: w[12] failed: server error \(HTTP 500\)",
)
@pytest.mark.expect_log(
    "memtab.consolidation.engine.runner", "WARNING", r"run failed: server error \(HTTP 500\)"
)
@pytest.mark.expect_log(
    "memtab.llm.loop", "WARNING", r"stopped at step 1: server error \(HTTP 500\)"
)
def test_the_cap_stops_after_three_started_runs_failed_ones_included(tmp_path: Path) -> None:
    home = five_with_writes(tmp_path)
    report = sweep(home, failing=("w1", "w2"))
    assert ran(report) == ["w1", "w2", "w3"]
    assert [run.ok for run in report.runs] == [False, False, True]
    assert "HTTP 500" in (report.runs[0].error or "")
    assert skips(report) == {"w4": "cap", "w5": "cap", "w6": "cap"}
    journal = Journal(home).load()
    assert set(journal.workspaces) == {"w3"} and journal.workspaces["w3"].trigger == "launch"


def test_debounced_candidates_do_not_spend_the_cap(tmp_path: Path) -> None:
    home = five_with_writes(tmp_path)
    for workspace_id in ("w1", "w2"):
        covered(home, workspace_id, None, NOW - HOUR)
    set_writes(home, {workspace_key(f"w{i}", "notes.md"): NOW - 30 * MINUTE for i in range(1, 7)})
    report = sweep(home)
    assert ran(report) == ["w3", "w4", "w5"]
    assert skips(report) == {"w1": "debounced", "w2": "debounced", "w6": "cap"}


def test_active_archived_and_agent_task_workspaces_are_skipped(tmp_path: Path) -> None:
    home = make_home(
        tmp_path,
        {
            PROJECT: [
                ws("active"),
                ws("archived", archivedAt="2026-01-01T00:00:00.000Z"),
                ws("task", parentWorkspaceId="idle"),
                ws(
                    "unarchived",
                    archivedAt="2026-01-01T00:00:00Z",
                    unarchivedAt="2026-02-01T00:00:00Z",
                ),
                ws("idle"),
            ]
        },
    )
    ids = ["active", "archived", "task", "unarchived", "idle"]
    set_writes(home, {workspace_key(i, "notes.md"): NOW - 2 * DAY for i in ids})
    set_recency(
        home, {i: NOW - 2 * DAY for i in ids} | {"active": NOW - 23 * HOUR, "idle": NOW - 25 * HOUR}
    )
    report = sweep(home)
    assert ran(report) == ["unarchived", "idle"]
    assert skips(report) == {"active": "active", "archived": "archived", "task": "agent-task"}


def test_a_side_chat_is_swept_with_the_notebook_it_reads(tmp_path: Path) -> None:
    """A side chat writes its main chat's notebook (xum's memoryWorkspaceOwner.ts,
    formats §2.5): the sweep consolidates that notebook through its owner, not twice."""
    home = make_home(
        tmp_path, {PROJECT: [ws("main"), ws("side", sideChatParentWorkspaceId="main")]}
    )
    set_writes(home, {workspace_key("main", "notes.md"): NOW - 2 * DAY})
    set_recency(home, {"main": NOW - 2 * DAY, "side": NOW - 2 * DAY})
    report = sweep(home)
    assert ran(report) == ["main"]
    assert skips(report) == {"side": "agent-task"}


def test_writes_older_than_coverage_do_not_qualify(tmp_path: Path) -> None:
    home = make_home(tmp_path, {PROJECT: [ws("w1")]})
    covered(home, "w1", PROJECT, NOW - DAY)
    set_writes(
        home,
        {
            workspace_key("w1", "a.md"): NOW - 2 * DAY,
            project_key(PROJECT, "b.md"): NOW - 2 * DAY,
            global_key("c.md"): NOW - 2 * DAY,
        },
    )
    report = sweep(home)
    assert ran(report) == [] and skips(report) == {"w1": "no-writes"}


def test_a_global_only_write_causes_exactly_one_run(tmp_path: Path) -> None:
    home = make_home(tmp_path, {PROJECT: [ws("w1"), ws("w2")], OTHER_PROJECT: [ws("w3")]})
    for workspace_id, project in (("w1", PROJECT), ("w2", PROJECT), ("w3", OTHER_PROJECT)):
        covered(home, workspace_id, project, NOW - 3 * DAY)
    set_writes(home, {global_key("tools/git.md"): NOW - DAY})
    report = sweep(home)
    assert ran(report) == ["w1"]
    assert report.runs[0].reason == "1 global write since coverage"
    assert skips(report) == {"w2": "no-writes", "w3": "no-writes"}


def test_a_project_only_write_qualifies_one_sibling_per_sweep(tmp_path: Path) -> None:
    home = make_home(tmp_path, {PROJECT: [ws("w1"), ws("w2")], OTHER_PROJECT: [ws("w3")]})
    for workspace_id, project in (("w1", PROJECT), ("w2", PROJECT), ("w3", OTHER_PROJECT)):
        covered(home, workspace_id, project, NOW - 3 * DAY)
    set_writes(
        home,
        {project_key(PROJECT, "a.md"): NOW - DAY, project_key(OTHER_PROJECT, "b.md"): NOW - DAY},
    )
    report = sweep(home)
    assert ran(report) == ["w1", "w3"]
    assert skips(report) == {"w2": "no-writes"}
    assert Journal(home).load().projects[PROJECT].trigger == "launch"


def test_legacy_workspace_records_never_count_as_project_coverage(tmp_path: Path) -> None:
    home = make_home(tmp_path, {PROJECT: [ws("w1")]})
    covered(home, "w1", None, NOW - HOUR)  # an old mux's record: workspace bucket only
    set_writes(home, {project_key(PROJECT, "a.md"): NOW - 2 * DAY})
    report = sweep(home)
    # The project write is uncovered; the workspace debounce is bypassed for it.
    assert ran(report) == ["w1"]
    assert report.runs[0].reason == "1 project write since coverage"

    fresh = make_home(tmp_path / "fresh", {PROJECT: [ws("w1")]})
    covered(fresh, "w1", PROJECT, NOW - HOUR)  # a real record covers the project
    set_writes(fresh, {project_key(PROJECT, "a.md"): NOW - 2 * DAY})
    assert skips(sweep(fresh)) == {"w1": "no-writes"}


def test_only_project_writes_covered_less_than_six_hours_ago_are_debounced(
    tmp_path: Path,
) -> None:
    home = make_home(tmp_path, {PROJECT: [ws("w1"), ws("w2")]})
    covered(home, "w1", None, NOW - 3 * DAY)
    covered(home, "w2", PROJECT, NOW - HOUR)  # the project was covered 1 h ago
    set_writes(home, {project_key(PROJECT, "a.md"): NOW - 30 * MINUTE})
    report = sweep(home)
    assert ran(report) == []
    assert skips(report) == {"w1": "debounced", "w2": "debounced"}
    assert "project was consolidated 1 h ago" in report.skipped[0].reason


def test_project_writes_with_old_project_coverage_bypass_the_workspace_debounce(
    tmp_path: Path,
) -> None:
    home = make_home(tmp_path, {PROJECT: [ws("w1")]})
    covered(home, "w1", PROJECT, NOW - 10 * HOUR)
    covered(home, "w1", None, NOW - HOUR)  # workspace covered 1 h ago, project 10 h ago
    set_writes(home, {project_key(PROJECT, "a.md"): NOW - 5 * HOUR})
    assert ran(sweep(home)) == ["w1"]


def test_a_workspace_covered_less_than_six_hours_ago_is_debounced(tmp_path: Path) -> None:
    home = make_home(tmp_path, {PROJECT: [ws("w1")]})
    covered(home, "w1", PROJECT, NOW - HOUR)
    set_writes(
        home,
        {workspace_key("w1", "a.md"): NOW - 30 * MINUTE, global_key("g.md"): NOW - 10 * MINUTE},
    )
    report = sweep(home)
    assert skips(report) == {"w1": "debounced"}
    assert "consolidated 1 h ago" in report.skipped[0].reason


def test_the_report_as_json(tmp_path: Path) -> None:
    home = make_home(tmp_path, {PROJECT: [ws("w1"), ws("w2", archivedAt="2026-01-01T00:00:00Z")]})
    set_writes(home, {workspace_key("w1", "a.md"): NOW - DAY})
    data = sweep(home).to_json()
    assert data["runs"][0]["workspaceId"] == "w1" and data["runs"][0]["ok"] is True
    assert data["runs"][0]["record"]["trigger"] == "launch"
    assert data["skipped"] == [{"workspaceId": "w2", "kind": "archived", "reason": "archived"}]


def test_only_workspaces_in_extension_metadata_are_considered_in_its_order(
    tmp_path: Path,
) -> None:
    home = make_home(tmp_path, {PROJECT: [ws("w1"), ws("w2"), ws("w3"), ws("w4")]})
    set_writes(home, {workspace_key(f"w{i}", "a.md"): NOW - DAY for i in range(1, 5)})
    # mux's order is the file's, not the registry's; "gone" is in no registry.
    set_recency(home, {"w3": NOW - 2 * DAY, "gone": NOW - 2 * DAY, "w1": NOW - 3 * DAY})
    report = sweep(home)
    assert ran(report) == ["w3", "w1"]
    assert skips(report) == {"w2": "untracked", "w4": "untracked"}
    assert "extensionMetadata.json" in report.skipped[0].reason


@pytest.mark.parametrize(
    "document",
    [
        {"workspaces": {"w1": {"recency": NOW - 2 * DAY, "streaming": False}}},  # no version
        {"version": 2, "workspaces": {"w1": {"recency": NOW - 2 * DAY, "streaming": False}}},
        {"version": 1, "workspaces": {"w1": {"recency": NOW - 2 * DAY}}},  # no streaming
        {"version": 1, "workspaces": {"w1": {"recency": "yesterday", "streaming": False}}},
    ],
)
def test_entries_mux_would_not_read_leave_the_workspace_untracked(
    tmp_path: Path, document: dict[str, Any]
) -> None:
    home = make_home(tmp_path, {PROJECT: [ws("w1")]})
    set_writes(home, {workspace_key("w1", "a.md"): NOW - DAY})
    atomic_write_json(home.extension_metadata_path, document)
    assert skips(sweep(home)) == {"w1": "untracked"}
