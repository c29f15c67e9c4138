"""The consolidation journal (docs/formats.md §8): lenient reads, preserving saves, and status."""

from __future__ import annotations

import json
from typing import Any

import pytest

from memtab.store.home import Home
from memtab.store.sidecars.journal import (
    ConsolidationRecord,
    Journal,
    JournalOp,
    RunUsage,
    parse_record,
)

from .helpers import PROJECT, SIBLING_ID, WORKSPACE_ID, write


def _record(last_run_at: int, summary: str = "merged notes", **extra: Any) -> ConsolidationRecord:
    return ConsolidationRecord(
        last_run_at=last_run_at,
        trigger=extra.pop("trigger", "manual"),
        summary=summary,
        ops=extra.pop(
            "ops",
            (
                JournalOp(command="str_replace", path="/memories/global/a.md", applied=True),
                JournalOp(
                    command="rename",
                    path="/memories/workspace/x.md",
                    applied=False,
                    new_path="/memories/workspace/y.md",
                    note="dry-run",
                ),
            ),
        ),
        **extra,
    )


def _raw_record(last_run_at: int, **fields: Any) -> dict[str, Any]:
    return {"lastRunAt": last_run_at, "trigger": "launch", "summary": "s", "ops": [], **fields}


def _document(home: Home) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(home.journal_path.read_text(encoding="utf-8"))
    return document


def _write_document(home: Home, document: Any) -> None:
    write(home.journal_path, json.dumps(document))


# --- saving ----------------------------------------------------------------------------


def test_save_run_writes_the_workspace_and_project_buckets(home: Home) -> None:
    Journal(home).save_run(
        WORKSPACE_ID, PROJECT, _record(1000, usage=RunUsage(input_tokens=10, output_tokens=2))
    )
    expected = {
        "lastRunAt": 1000,
        "trigger": "manual",
        "summary": "merged notes",
        "ops": [
            {"command": "str_replace", "path": "/memories/global/a.md", "applied": True},
            {
                "command": "rename",
                "path": "/memories/workspace/x.md",
                "newPath": "/memories/workspace/y.md",
                "applied": False,
                "note": "dry-run",
            },
        ],
        "usage": {"inputTokens": 10, "outputTokens": 2},
    }
    assert _document(home) == {
        "workspaces": {WORKSPACE_ID: expected},
        "projects": {PROJECT: expected},
    }
    assert home.journal_path.read_text(encoding="utf-8").startswith('{\n  "workspaces": {')


def test_save_run_without_identity_writes_only_the_workspace(home: Home) -> None:
    Journal(home).save_run(WORKSPACE_ID, None, _record(1000))
    assert list(_document(home)) == ["workspaces"]


def test_a_later_run_replaces_the_workspace_record(home: Home) -> None:
    journal = Journal(home)
    journal.save_run(WORKSPACE_ID, PROJECT, _record(1000))
    journal.save_run(WORKSPACE_ID, PROJECT, _record(2000, summary="later"))
    data = journal.load()
    assert data.workspaces[WORKSPACE_ID].summary == "later"
    assert data.projects[PROJECT].last_run_at == 2000


def test_unknown_buckets_and_fields_survive_a_save(home: Home) -> None:
    original = {
        "version": 3,
        "futureBucket": {"anything": [1, {"deep": None}]},
        "workspaces": {
            "other": _raw_record(
                500,
                extraField={"kept": True},
                ops=[{"command": "delete", "path": "/memories/global/x", "applied": True, "by": 1}],
            )
        },
        "projects": {"/other/project": _raw_record(600, reviewer="mux-9")},
        "harvestsByWorkspace": {
            WORKSPACE_ID: {
                "msg-1": {
                    "status": "completed",
                    "startedAt": 10,
                    "completedAt": 20,
                    "attemptCount": 1,
                    "boundaryKey": "b",
                    "compactionEpoch": 2,
                    "acceptedCandidates": ["c1"],
                    "skippedCandidates": [],
                    "newMuxField": {"x": 1},
                }
            }
        },
    }
    _write_document(home, original)
    Journal(home).save_run(WORKSPACE_ID, PROJECT, _record(1000))
    after = _document(home)
    del after["workspaces"][WORKSPACE_ID]
    del after["projects"][PROJECT]
    assert after == original


def test_unknown_fields_of_a_loaded_record_survive_re_serialization(home: Home) -> None:
    raw = _raw_record(500, extraField={"kept": True}, usage={"inputTokens": 1, "outputTokens": 2})
    record = parse_record(raw)
    assert record is not None
    assert record.to_json() == raw
    Journal(home).save_run(SIBLING_ID, None, record)
    assert _document(home)["workspaces"][SIBLING_ID] == raw


def test_records_memtab_cannot_parse_are_kept_on_save(home: Home) -> None:
    original = {"workspaces": {"odd": {"lastRunAt": "yesterday", "futureShape": True}}}
    _write_document(home, original)
    Journal(home).save_run(WORKSPACE_ID, None, _record(1000))
    assert _document(home)["workspaces"]["odd"] == original["workspaces"]["odd"]


@pytest.mark.expect_log(
    "memtab.fs.sidecar",
    "WARNING",
    r"^memory-consolidation.json could not be used \(.*\); its content was kept as ",
)
@pytest.mark.parametrize("text", ["{corrupt", "", "[1, 2]", '"text"', "null", "\udcff"])
def test_corrupt_file_reads_empty_and_is_repaired_by_the_next_save(home: Home, text: str) -> None:
    write(home.journal_path, text.encode("utf-8", "surrogateescape"))
    journal = Journal(home)
    data = journal.load()
    assert (data.workspaces, data.projects, data.harvests) == ({}, {}, {})
    assert data.problems
    journal.save_run(WORKSPACE_ID, PROJECT, _record(1000))
    repaired = _document(home)
    assert set(repaired) == {"workspaces", "projects"}
    assert journal.load().problems == ()


@pytest.mark.expect_log(
    "memtab.fs.sidecar",
    "WARNING",
    r"^memory-consolidation.json could not be used \(its .projects. is not an object\)",
)
def test_a_malformed_bucket_is_replaced_only_when_saving_into_it(home: Home) -> None:
    _write_document(home, {"projects": [1, 2], "workspaces": {"w": _raw_record(5)}})
    Journal(home).save_run(WORKSPACE_ID, PROJECT, _record(1000))
    document = _document(home)
    assert set(document["projects"]) == {PROJECT}
    assert set(document["workspaces"]) == {"w", WORKSPACE_ID}


def test_missing_file_is_empty_without_problems(home: Home) -> None:
    data = Journal(home).load()
    assert (data.workspaces, data.problems) == ({}, ())
    assert not home.journal_path.exists()


# --- lenient reading -------------------------------------------------------------------


def test_a_malformed_bucket_does_not_hide_the_others(home: Home) -> None:
    _write_document(
        home,
        {
            "projects": ["not", "an", "object"],
            "workspaces": {WORKSPACE_ID: _raw_record(100)},
            "harvestsByWorkspace": "nope",
        },
    )
    data = Journal(home).load()
    assert list(data.workspaces) == [WORKSPACE_ID]
    assert data.projects == {}
    assert data.harvests == {}
    assert any("projects" in problem for problem in data.problems)
    assert any("harvestsByWorkspace" in problem for problem in data.problems)


@pytest.mark.parametrize(
    "bad",
    [
        "not an object",
        {"trigger": "manual", "summary": "no lastRunAt", "ops": []},
        _raw_record(0),
        _raw_record(-5),
        {**_raw_record(100), "lastRunAt": "100"},
        {**_raw_record(100), "lastRunAt": True},
        {**_raw_record(100), "lastRunAt": 10**400},  # Infinity to mux's JavaScript
        {**_raw_record(100), "trigger": 3},
        {**_raw_record(100), "ops": "none"},
        {**_raw_record(100), "ops": [{"command": "create", "path": "/p"}]},  # no `applied`
        {**_raw_record(100), "ops": [{"command": "create", "path": 3, "applied": True}]},
        {**_raw_record(100), "ops": ["text"]},
    ],
)
def test_a_malformed_record_is_dropped_and_the_others_kept(home: Home, bad: Any) -> None:
    _write_document(
        home,
        {"workspaces": {"bad": bad, "good": _raw_record(100)}, "projects": {PROJECT: bad}},
    )
    data = Journal(home).load()
    assert list(data.workspaces) == ["good"]
    assert data.projects == {}
    assert "`workspaces.bad` is malformed" in data.problems


def test_lenient_record_fields(home: Home) -> None:
    _write_document(
        home,
        {
            "workspaces": {
                "w": {
                    "lastRunAt": 1.5e12,
                    "trigger": "future-trigger",
                    "summary": None,
                    "usage": {"inputTokens": -3, "outputTokens": "many"},
                }
            }
        },
    )
    record = Journal(home).load().workspaces["w"]
    assert (record.last_run_at, record.trigger, record.summary, record.ops) == (
        1_500_000_000_000,
        "future-trigger",
        "",
        (),
    )
    assert (record.input_tokens, record.output_tokens) == (0, None)


def test_malformed_harvests_are_dropped_individually(home: Home) -> None:
    _write_document(
        home,
        {
            "harvestsByWorkspace": {
                WORKSPACE_ID: {
                    "ok": {"status": "failed", "startedAt": 5, "error": "boom", "attemptCount": 2},
                    "no-status": {"startedAt": 6},
                    "junk": [1],
                },
                "other": "not an object",
            }
        },
    )
    harvests = Journal(home).load().harvests
    assert list(harvests) == [WORKSPACE_ID]
    (harvest,) = harvests[WORKSPACE_ID].values()
    assert (harvest.summary_message_id, harvest.status, harvest.error) == ("ok", "failed", "boom")
    assert harvest.attempt_count == 2


# --- status ----------------------------------------------------------------------------


def test_status_has_workspace_project_and_global_records(home: Home) -> None:
    journal = Journal(home)
    journal.save_run("ws-early", None, _record(100))
    journal.save_run("ws-latest", None, _record(300, summary="latest anywhere"))
    journal.save_run(WORKSPACE_ID, PROJECT, _record(200, summary="mine"))
    _document_with_newer_project = _document(home)
    _document_with_newer_project["projects"]["/elsewhere"] = _raw_record(999)
    _write_document(home, _document_with_newer_project)

    status = journal.status(WORKSPACE_ID, PROJECT)
    assert status.workspace_record is not None and status.workspace_record.summary == "mine"
    assert status.project_record is not None and status.project_record.last_run_at == 200
    # Global coverage = the newest run of ANY workspace (project-only records do not count).
    assert status.global_record is not None and status.global_record.summary == "latest anywhere"
    assert status.project_available is True


def test_status_without_identity(home: Home) -> None:
    journal = Journal(home)
    journal.save_run(WORKSPACE_ID, PROJECT, _record(200))
    status = journal.status(WORKSPACE_ID, None)
    assert status.project_available is False
    assert status.project_record is None
    assert status.workspace_record is not None


def test_empty_status(home: Home) -> None:
    status = Journal(home).status(WORKSPACE_ID, PROJECT)
    assert status.to_json() == {
        "workspaceRecord": None,
        "projectRecord": None,
        "globalRecord": None,
        "projectAvailable": True,
        "latestHarvestRecord": None,
    }


def test_legacy_workspace_only_records_never_count_as_project_coverage(home: Home) -> None:
    _write_document(home, {"workspaces": {WORKSPACE_ID: _raw_record(500)}})
    status = Journal(home).status(WORKSPACE_ID, PROJECT)
    assert status.workspace_record is not None
    assert status.project_record is None


def test_a_sibling_workspace_sees_the_project_record(home: Home) -> None:
    journal = Journal(home)
    journal.save_run(WORKSPACE_ID, PROJECT, _record(700, summary="from the first workspace"))
    status = journal.status(SIBLING_ID, PROJECT)
    assert status.workspace_record is None
    assert status.project_record is not None
    assert status.project_record.summary == "from the first workspace"
    assert status.global_record is not None and status.global_record.last_run_at == 700


@pytest.mark.parametrize(
    ("harvests", "latest"),
    [
        (
            {
                "old-but-completed-late": {
                    "status": "completed",
                    "startedAt": 100,
                    "completedAt": 500,
                },
                "started-later-pending": {"status": "pending", "startedAt": 450},
            },
            "old-but-completed-late",
        ),
        (
            {
                "completed": {"status": "completed", "startedAt": 100, "completedAt": 500},
                "newest-start": {"status": "pending", "startedAt": 520},
            },
            "newest-start",
        ),
        ({"only": {"status": "failed"}}, "only"),
    ],
)
def test_latest_harvest_is_newest_by_completed_at_else_started_at(
    home: Home, harvests: dict[str, Any], latest: str
) -> None:
    _write_document(
        home,
        {
            "harvestsByWorkspace": {
                WORKSPACE_ID: harvests,
                SIBLING_ID: {"x": {"status": "pending", "startedAt": 10**13}},
            }
        },
    )
    status = Journal(home).status(WORKSPACE_ID, PROJECT)
    assert status.latest_harvest is not None
    assert status.latest_harvest.summary_message_id == latest
    assert status.to_json()["latestHarvestRecord"] == harvests[latest]
