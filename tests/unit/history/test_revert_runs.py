"""A revert is a run of its own (docs/formats.md §14.3): logged with the files it
restored, naming the run it reverted and who did it; listed by `memtab runs` (text and
`--json`) and by Runs…, which mark the reverted run; a revert run is not reverted."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memtab.cli.main import main
from memtab.components.history.runs import (
    RunFilter,
    load_run_detail,
    load_run_list,
    run_outcome,
    run_title,
)
from memtab.consolidation.service import ConsolidationService
from memtab.store.history.runs import RunsLog
from memtab.store.home import Home
from memtab.store.paths import parse_file_path
from memtab.store.restore.from_history import file_history
from support.memory_paths import vpath
from support.scripted_provider import ScriptedProvider

from .helpers import WS, new_home, store_for
from .test_plan_and_cli import merge_replies

TESTING = "/memories/global/testing.md"
TIPS = "/memories/global/test-tips.md"
GOTCHAS = "/memories/global/gotchas.md"


@pytest.fixture
def home(tmp_path: Path) -> Home:
    home = new_home(tmp_path / "home")
    store = store_for(home)
    store.create_file(vpath(TESTING), "# Testing\n- run make test\n")
    store.create_file(vpath(TIPS), "- run make test\n- use pytest --lf\n")
    store.create_file(vpath(GOTCHAS), "- one\n- stale line\n")
    ConsolidationService(home, provider_factory=lambda _: ScriptedProvider(merge_replies())).run(WS)
    return home


def cli(capsys: pytest.CaptureFixture[str], home: Home, *args: str) -> tuple[int, str, str]:
    status = main(["--home", str(home.root), *args])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_a_revert_is_logged_as_a_run_and_marks_the_run_it_reverted(
    home: Home, capsys: pytest.CaptureFixture[str]
) -> None:
    (run,) = RunsLog(home).runs()
    store = store_for(home)
    store.physical(parse_file_path(GOTCHAS)).write_text("hand edit\n")  # left alone
    status, out, _ = cli(capsys, home, "revert-run", run.id, "--json")
    result = json.loads(out)
    assert status == 1 and result["revertRunId"]

    status, out, _ = cli(capsys, home, "runs", "--json")
    revert, reverted = json.loads(out)["runs"]
    assert status == 0 and revert["id"] == result["revertRunId"]
    assert (revert["kind"], revert["reverts"], revert["actor"]) == ("revert", run.id, "user")
    assert sorted(op["path"] for op in revert["ops"]) == [TIPS, TESTING]
    assert all(op["applied"] and op["command"] == "revert" for op in revert["ops"])
    assert revert["summary"] == f"Reverted run {run.id}: restored 2 files; left 1 file alone"
    assert revert["revertedBy"] is None
    assert reverted["id"] == run.id and reverted["revertedBy"] == revert["id"]
    # The files it restored carry its run id in their history.
    assert file_history(store, vpath(TESTING))[0].run_id == revert["id"]

    status, out, _ = cli(capsys, home, "runs")
    assert status == 0
    assert f"{revert['id']}  " in out and "Revert · You" in out
    assert f"reverted by {revert['id']} (You, " in out
    status, out, _ = cli(capsys, home, "runs", "--kind", "revert", "--json")
    assert [r["id"] for r in json.loads(out)["runs"]] == [revert["id"]]

    # A revert is not reverted: its files are restored from their history instead.
    status, _, err = cli(capsys, home, "revert-run", revert["id"])
    assert status == 1 and "is a revert (of " in err


def test_runs_lists_the_revert_and_says_the_run_was_reverted(home: Home) -> None:
    (run,) = RunsLog(home).runs()
    status = main(["--home", str(home.root), "revert-run", run.id])
    assert status == 0
    listing = load_run_list(home, RunFilter())
    revert, reverted = listing.runs
    assert run_title(revert) == "Revert · You"
    assert run_outcome(reverted, listing.reverted.get(reverted.id)).startswith("Reverted · ")
    assert listing.reverted.get(revert.id) is None

    detail = load_run_detail(home, reverted)
    assert not detail.revertible and detail.reverted_by is not None
    assert detail.reverted_by.id == revert.id
    assert detail.reverted_words.startswith("Reverted by You ")
    assert detail.reverted_words.endswith(f"({revert.id})")

    revert_detail = load_run_detail(home, revert)
    assert not revert_detail.revertible
    assert "a revert is not reverted" in (revert_detail.revert_refusal or "")
    assert sorted(op.words for op in revert_detail.ops) == [
        "Restored gotchas.md to what it held before the run",
        "Restored test-tips.md to what it held before the run",
        "Restored testing.md to what it held before the run",
    ]


def test_a_revert_that_restores_nothing_logs_no_run(home: Home) -> None:
    (run,) = RunsLog(home).runs()
    assert main(["--home", str(home.root), "revert-run", run.id]) == 0
    assert main(["--home", str(home.root), "revert-run", run.id]) == 0  # all done already
    assert [r.kind for r in RunsLog(home).runs()] == ["revert", "consolidation"]


def test_a_partial_revert_offers_the_revert_again_until_every_file_is_restored(
    home: Home,
) -> None:
    (run,) = RunsLog(home).runs()
    gotchas = store_for(home).physical(parse_file_path(GOTCHAS))
    after_run = gotchas.read_text()
    gotchas.write_text("hand edit\n")  # changed since: the revert leaves it alone
    assert main(["--home", str(home.root), "revert-run", run.id]) == 1
    detail = load_run_detail(home, run)
    assert detail.revertible and detail.left_alone == (GOTCHAS,)
    assert detail.reverted_words.startswith("Partly reverted by You ")
    assert detail.reverted_words.endswith(": 1 file left as changed since")
    listing = load_run_list(home, RunFilter())
    assert listing.partly_reverted == {run.id}
    outcome = run_outcome(run, listing.reverted[run.id], partly=True)
    assert outcome.startswith("Partly reverted · ")

    gotchas.write_text(after_run)  # the hand edit undone: the revert can finish
    assert main(["--home", str(home.root), "revert-run", run.id]) == 0
    detail = load_run_detail(home, run)
    assert not detail.revertible and detail.left_alone == ()
    assert detail.reverted_words.startswith("Reverted by You ")
    assert load_run_list(home, RunFilter()).partly_reverted == set()
