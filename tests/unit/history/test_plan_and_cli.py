"""Review before apply, the runs log (with mux's runs), ops in words, and the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memtab.cli.main import main
from memtab.consolidation.errors import PlanError
from memtab.consolidation.review.plan import read_plan, write_plan
from memtab.consolidation.review.review_setting import load_review_mode, save_review_mode
from memtab.consolidation.running import ServiceRuns
from memtab.consolidation.service import ConsolidationService
from memtab.fs.atomic import atomic_write_json
from memtab.fs.clock import now_ms
from memtab.llm.types import ModelReply
from memtab.store.catch_up.runs_log import catch_up_runs
from memtab.store.history.describe import describe_run
from memtab.store.history.runs import RunsLog
from memtab.store.home import Home
from memtab.store.paths import parse_file_path
from support.memory_paths import vpath
from support.scripted_provider import ScriptedProvider, reading_first

from .helpers import WS, disk, memory_call, new_home, store_for


@pytest.fixture
def home(tmp_path: Path) -> Home:
    home = new_home(tmp_path / "home")
    store = store_for(home)
    store.create_file(vpath("/memories/global/testing.md"), "# Testing\n- run make test\n")
    store.create_file(
        vpath("/memories/global/test-tips.md"), "- run make test\n- use pytest --lf\n"
    )
    store.create_file(vpath("/memories/global/gotchas.md"), "- one\n- stale line\n")
    return home


def merge_replies() -> list[ModelReply]:
    return reading_first([
        ModelReply(
            "",
            (
                memory_call("1", command="insert", path="/memories/global/testing.md",
                            insert_line=2, insert_text="- use pytest --lf"),
                memory_call("2", command="str_replace", path="/memories/global/gotchas.md",
                            old_str="- stale line\n", new_str=""),
                memory_call("3", command="delete", path="/memories/global/test-tips.md"),
            ),
        ),
        ModelReply("merged test tips; pruned gotchas"),
    ])  # fmt: skip


def service(home: Home) -> ConsolidationService:
    return ConsolidationService(home, provider_factory=lambda _: ScriptedProvider(merge_replies()))


def memory_snapshot(home: Home) -> dict[str, bytes]:
    root = home.root / "memory"
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def test_ops_read_as_words(home: Home) -> None:
    service(home).run(WS)
    (run,) = RunsLog(home).runs()
    assert describe_run(home, run) == [
        "Added 1 line to testing.md",
        "Removed 1 line from gotchas.md",
        "Combined test-tips.md into testing.md",
    ]


def test_a_plan_changes_nothing_and_shows_exact_diffs(home: Home) -> None:
    before = memory_snapshot(home)
    journal_before = home.journal_path.exists()
    plan = service(home).plan(WS)
    assert memory_snapshot(home) == before
    assert home.journal_path.exists() == journal_before and RunsLog(home).runs() == []
    assert [op.description for op in plan.ops] == [
        "Added 1 line to testing.md",
        "Removed 1 line from gotchas.md",
        "Combined test-tips.md into testing.md",
    ]
    assert "+- use pytest --lf" in plan.ops[0].files[0].diff
    assert "-- stale line" in plan.ops[1].files[0].diff


def test_applying_a_plan_applies_exactly_the_accepted_ops(home: Home) -> None:
    plan = service(home).plan(WS)
    record = service(home).apply_plan(plan, [1, 3])
    store = store_for(home)
    assert [(op.command, op.applied) for op in record.ops] == [
        ("insert", True),
        ("str_replace", False),
        ("delete", True),
    ]
    assert record.ops[1].note == "not accepted in review"
    assert disk(store, "/memories/global/testing.md") == (
        b"# Testing\n- run make test\n- use pytest --lf\n"
    )
    assert disk(store, "/memories/global/gotchas.md") == b"- one\n- stale line\n"
    assert disk(store, "/memories/global/test-tips.md") is None
    (run,) = RunsLog(home).runs()
    assert run.plan_id == plan.id and run.applied_count == 2


def test_an_op_whose_file_changed_since_the_plan_is_refused(home: Home) -> None:
    plan = service(home).plan(WS)
    store = store_for(home)
    store.physical(parse_file_path("/memories/global/gotchas.md")).write_text("- rewritten\n")
    record = service(home).apply_plan(plan)
    assert [op.applied for op in record.ops] == [True, False, True]
    assert record.ops[1].note == "/memories/global/gotchas.md changed since the plan was made"
    assert disk(store, "/memories/global/gotchas.md") == b"- rewritten\n"


def test_a_plan_file_naming_an_unknown_trigger_is_refused(home: Home, tmp_path: Path) -> None:
    path = tmp_path / "plan.json"
    write_plan(path, service(home).plan(WS))
    assert read_plan(path).trigger == "manual"
    document = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps({**document, "trigger": "whenever"}), encoding="utf-8")
    with pytest.raises(PlanError, match="trigger 'whenever' is not one of compaction, launch"):
        read_plan(path)


def test_the_review_setting_defaults_to_review_first() -> None:
    assert load_review_mode() == "review-first"
    save_review_mode("apply-directly")
    assert load_review_mode() == "apply-directly"


def test_mux_runs_are_added_once_and_memtabs_own_are_not_duplicated(home: Home) -> None:
    mux_record = {
        "lastRunAt": now_ms() - 60_000,  # a minute ago: within what history keeps
        "trigger": "compaction",
        "summary": "mux merged things",
        "ops": [{"command": "delete", "path": "/memories/global/x.md", "applied": True}],
    }
    atomic_write_json(
        home.journal_path,
        {"workspaces": {WS: mux_record}, "projects": {"/home/dev/src/app": mux_record}},
    )
    service(home).run(WS)  # logs mux's record before replacing it, then its own
    assert catch_up_runs(home) == []
    runs = RunsLog(home).runs()
    assert [(run.source, run.summary) for run in runs] == [
        ("memtab", "Combined test-tips.md into testing.md; removed 1 line from gotchas.md."),
        ("mux", "mux merged things"),
    ]
    assert runs[1].project_path == "/home/dev/src/app"


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    status = main(list(args))
    return status, capsys.readouterr().out


def test_cli_history_restore_trash_runs_and_revert(
    home: Home, capsys: pytest.CaptureFixture[str]
) -> None:
    h = ["--home", str(home.root)]
    service(home).run(WS)
    status, out = run_cli(capsys, *h, "trash", "--workspace", WS, "--json")
    (item,) = json.loads(out)["files"]
    assert status == 0 and item["path"] == "/memories/global/test-tips.md"
    assert set(item) >= {"path", "deletedAt", "version"}

    status, out = run_cli(capsys, *h, "history", "/memories/global/testing.md", "--json")
    versions = json.loads(out)["versions"]
    assert status == 0 and [v["actor"] for v in versions] == ["consolidator", "user"]
    assert set(versions[0]) >= {"id", "at", "actor", "runId", "sizeBytes", "sha256", "deleted"}

    status, out = run_cli(capsys, *h, "runs", "--workspace", WS, "--json")
    (run,) = json.loads(out)["runs"]
    assert status == 0 and run["kind"] == "consolidation" and run["workspaceId"] == WS
    assert set(run) >= {"id", "at", "kind", "trigger", "workspaceId", "summary", "ops"}
    assert [op["applied"] for op in run["ops"]] == [True, True, True]

    store = store_for(home)
    store.physical(parse_file_path("/memories/global/gotchas.md")).write_text("hand edit\n")
    status, out = run_cli(capsys, *h, "revert-run", run["id"], "--json")
    reverted = json.loads(out)
    assert status == 1
    assert [r["path"] for r in reverted["refused"]] == ["/memories/global/gotchas.md"]
    assert sorted(reverted["restored"]) == [
        "/memories/global/test-tips.md",
        "/memories/global/testing.md",
    ]

    status, _ = run_cli(capsys, *h, "restore", "/memories/global/gotchas.md", "--version", "zz")
    assert status == 1
    merged = versions[0]["id"]  # the consolidator's version, undone by the revert
    status, out = run_cli(capsys, *h, "restore", "/memories/global/testing.md", "--version", merged)
    assert status == 0 and "Restored /memories/global/testing.md" in out
    assert disk(store, "/memories/global/testing.md") == (
        b"# Testing\n- run make test\n- use pytest --lf\n"
    )


def test_cli_plan_out_and_apply_plan_with_accept(
    home: Home, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    replies = merge_replies()
    monkeypatch.setattr(
        ServiceRuns,
        "_make_provider",
        lambda self, store, *_scopes: ScriptedProvider(list(replies)),
    )
    plan_file = tmp_path / "plan.json"
    h = ["--home", str(home.root)]
    before = memory_snapshot(home)
    status, out = run_cli(capsys, *h, "consolidate", "--workspace", WS, "--plan-out",
                          str(plan_file))  # fmt: skip
    assert status == 0 and " 3. [proposed] Combined test-tips.md into testing.md" in out
    assert memory_snapshot(home) == before
    status, out = run_cli(capsys, *h, "consolidate", "--workspace", WS, "--apply-plan",
                          str(plan_file), "--accept", "2", "--json")  # fmt: skip
    record = json.loads(out)
    assert status == 0 and [op["applied"] for op in record["ops"]] == [False, True, False]
    status, _ = run_cli(capsys, *h, "consolidate", "--workspace", WS, "--apply-plan",
                        str(plan_file), "--accept", "7")  # fmt: skip
    assert status == 1
