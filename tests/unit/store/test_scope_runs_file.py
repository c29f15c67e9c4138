"""`memtab/scope-runs.json` (docs/formats.md §9.8): the latest run of the global scope alone
and of each workspace's scope alone, which mux's journal has no place for — kept private,
read leniently, with what another program (or a newer Memtab) wrote kept; and
`journal_run`, which puts each run where its scope's runs are."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

from memtab.store.home import MEMTAB_KINDS, Home, PathKind, PathPlace
from memtab.store.sidecars.journal import ConsolidationRecord, Journal, JournalOp
from memtab.store.sidecars.scope_runs import (
    journal_run,
    journaled_run,
    load_scope_runs,
    save_scope_run,
)

NOW = 1_800_000_000_000
PROJECT = "/home/dev/src/app"


def record(
    scope: str | None, at: int = NOW, summary: str = "removed 1 item"
) -> ConsolidationRecord:
    op = JournalOp(command="delete", path=f"/memories/{scope or 'global'}/x.md", applied=True)
    return ConsolidationRecord(
        last_run_at=at,
        trigger="manual",
        summary=summary,
        ops=(op,),
        scope=scope,  # type: ignore[arg-type]
    )


@pytest.fixture
def home(tmp_path: Path) -> Home:
    return Home(tmp_path / "home")


def test_the_runs_of_global_and_of_each_workspace_are_kept_private(home: Home) -> None:
    assert load_scope_runs(home).global_run is None  # no file: no runs
    save_scope_run(home, "a1", record("global"))
    save_scope_run(home, "a1", record("workspace"))
    save_scope_run(home, "b2", record("workspace", NOW + 1))
    runs = load_scope_runs(home)
    assert runs.global_run == record("global")
    assert runs.workspace_run("a1") == record("workspace")
    assert runs.workspace_run("b2") == record("workspace", NOW + 1)
    assert runs.workspace_run("c3") is None
    assert stat.S_IMODE(home.scope_runs_path.stat().st_mode) == 0o600  # it quotes memory
    assert stat.S_IMODE(home.memtab_dir.stat().st_mode) == 0o700
    written = json.loads(home.scope_runs_path.read_text("utf-8"))
    assert written["global"]["scope"] == "global" and set(written["workspaces"]) == {"a1", "b2"}


def test_a_record_that_does_not_read_is_none_and_the_rest_is_kept(home: Home) -> None:
    home.memtab_dir.mkdir(parents=True)
    good = record("workspace").to_json()
    home.scope_runs_path.write_text(
        json.dumps(
            {
                "global": {"trigger": "manual"},  # no lastRunAt: no record
                "workspaces": {"a1": good, "b2": "not a record"},
                "newerMemtab": {"kept": True},  # another program's, or a newer Memtab's
            }
        ),
        "utf-8",
    )
    runs = load_scope_runs(home)
    assert runs.global_run is None and runs.workspaces == {"a1": record("workspace")}
    save_scope_run(home, "a1", record("global"))
    written = json.loads(home.scope_runs_path.read_text("utf-8"))
    assert written["newerMemtab"] == {"kept": True}
    assert written["global"]["lastRunAt"] == NOW
    home.scope_runs_path.write_text("[1, 2]", "utf-8")  # not an object at all
    assert load_scope_runs(home).global_run is None


def test_each_run_is_journaled_where_its_scopes_runs_are(home: Home) -> None:
    journal_run(home, "a1", PROJECT, record(None))  # the whole workspace: mux's journal
    journal_run(home, "a1", PROJECT, record("project", NOW + 1))  # its project's bucket only
    journal_run(home, "a1", PROJECT, record("global", NOW + 2))  # Memtab's file
    data = Journal(home).load()
    assert data.workspaces == {"a1": record(None)}
    assert data.projects == {PROJECT: record("project", NOW + 1)}
    assert load_scope_runs(home).global_run == record("global", NOW + 2)
    assert journaled_run(home, "a1", PROJECT, None) == record(None)
    assert journaled_run(home, "a1", PROJECT, "project") == record("project", NOW + 1)
    assert journaled_run(home, "a1", PROJECT, "global") == record("global", NOW + 2)
    assert journaled_run(home, "a1", PROJECT, "workspace") is None
    with pytest.raises(ValueError, match="project scope is not kept here"):
        save_scope_run(home, "a1", record("project"))
    with pytest.raises(ValueError, match="global scope alone has no place in the journal"):
        Journal(home).save_run("a1", PROJECT, record("global"))


def test_a_scopes_own_run_is_its_line_when_newer_than_the_journals(home: Home) -> None:
    journal_run(home, "a1", PROJECT, record(None, NOW))
    journal_run(home, "a1", PROJECT, record("global", NOW - 1))  # older: the journal's stands
    status = Journal(home).status("a1", PROJECT, scope_runs=load_scope_runs(home))
    assert status.global_record == record(None, NOW)
    journal_run(home, "a1", PROJECT, record("global", NOW + 1))
    journal_run(home, "a1", PROJECT, record("workspace", NOW + 2))
    status = Journal(home).status("a1", PROJECT, scope_runs=load_scope_runs(home))
    assert status.global_record == record("global", NOW + 1)
    assert status.workspace_record == record("workspace", NOW + 2)
    assert status.project_record == record(None, NOW)
    other = Journal(home).status("b2", None, scope_runs=load_scope_runs(home))
    assert other.workspace_record is None  # another workspace's line: not this run


def test_the_file_is_memtabs_own_and_a_rescan_follows_it(home: Home) -> None:
    place = home.classify(home.scope_runs_path)
    assert place == PathPlace(PathKind.SCOPE_RUNS) and place.kind in MEMTAB_KINDS
