"""`memtab check`: the JSON contract, the exit status, and fixes as a plan to apply."""

from __future__ import annotations

import json
import os
import stat
import threading
from pathlib import Path

import pytest
from tests.unit.check.helpers import home_with_project, make_checkout

from memtab.check import engine as check_engine
from memtab.check.engine import CheckEngine
from memtab.check.records import CheckReport
from memtab.cli.main import main
from memtab.components.history.runs import run_title
from memtab.demo import MAIN_ID, acme_api, webapp
from memtab.store.history.runs import RunsLog
from support.demo_homes import copied_demo_home, demo_home_moved_away

FINDING_FIELDS = {
    "path", "line", "kind", "message", "why", "scope", "agent", "subject", "text",
    "workspace", "project", "checkout", "fix", "related",
}  # fmt: skip


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(args)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_the_demo_moved_away_shows_each_project_not_on_this_disk_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home = demo_home_moved_away(tmp_path / "demo")
    status, out, _ = run_cli(["--home", str(home.root), "check", "--json"], capsys)
    assert status == 1
    document = json.loads(out)
    assert all(set(f) == FINDING_FIELDS for f in document["findings"])
    missing = [f for f in document["findings"] if f["kind"] == "project-missing"]
    assert [(f["subject"], f["path"], f["line"]) for f in missing] == [
        (acme_api(home), "/memories/project", None),
        (webapp(home), "/memories/project", None),
    ]


def test_no_findings_exit_0_and_say_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo = make_checkout(tmp_path / "acme", {"src/app.py": ""})
    home, _ = home_with_project(tmp_path, repo, {"notes.md": "- App in `src/app.py`\n"})
    status, out, _ = run_cli(["--home", str(home.root), "check"], capsys)
    assert (status, out) == (0, "No findings in 1 memory file.\n")


def test_a_check_that_cannot_be_made_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home = copied_demo_home(tmp_path / "demo")
    status, _, err = run_cli(["--home", str(home.root), "check", "--workspace", "nope"], capsys)
    assert status == 2 and "Unknown workspace 'nope'" in err


def test_plan_out_needs_a_workspace(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run_cli(
        ["--home", str(tmp_path), "check", "--plan-out", str(tmp_path / "p.json")], capsys
    )
    assert status == 1 and "--plan-out needs --workspace" in err


def test_the_fixes_are_a_plan_that_consolidate_applies(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = make_checkout(tmp_path / "acme", {"src/acme/config/settings_local.py": ""})
    home, workspace = home_with_project(
        tmp_path,
        repo,
        {
            "notes.md": "# Notes\n\n- Local settings: `src/acme/settings_local.py`.\n",
            "MEMORY.md": "- [Testing](testing.md)\n",
            "guides/testing.md": "x\n",
        },
    )
    plan = tmp_path / "fixes.json"
    root = ["--home", str(home.root)]
    status, out, _ = run_cli(
        [*root, "check", "--workspace", workspace, "--plan-out", str(plan)], capsys
    )
    assert status == 1
    assert "plan of 2 fixes written to" in out
    assert (
        "fix: Name src/acme/config/settings_local.py instead of src/acme/settings_local.py" in out
    )
    written = json.loads(plan.read_text())
    assert [op["proposed"] for op in written["ops"]] == [True, True]
    status, out, _ = run_cli(
        [*root, "consolidate", "--workspace", workspace, "--apply-plan", str(plan)], capsys
    )
    assert status == 0, out
    notes = (home.project_root(str(repo)) / "notes.md").read_text()
    assert "`src/acme/config/settings_local.py`" in notes
    assert (home.project_root(str(repo)) / "MEMORY.md").read_text() == (
        "- [Testing](guides/testing.md)\n"
    )
    status, out, _ = run_cli([*root, "check", "--workspace", workspace], capsys)
    assert status == 0, out
    # Fixes are not a consolidation: mux's journal (the footer's three scopes, the
    # debounce) does not record them, and the runs log names them as the check's.
    assert not home.journal_path.exists() or workspace not in home.journal_path.read_text()
    [run] = RunsLog(home).runs()
    assert run_title(run) == "Fixes from the check"


def test_a_workspace_check_reads_what_it_sees(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home = demo_home_moved_away(tmp_path / "demo")
    status, out, _ = run_cli(
        ["--home", str(home.root), "check", "--workspace", MAIN_ID, "--no-sources"], capsys
    )
    assert status == 1
    missing = f"[project-missing] The project {acme_api(home)} is not on this disk"
    assert f"/memories/project: {missing}" in out
    assert webapp(home) not in out


@pytest.mark.timeout(60)
def test_plan_out_writes_into_a_fifo_and_never_replaces_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # As `--plan-out /dev/null`: an atomic rename over it put a regular file in its place.
    repo = make_checkout(tmp_path / "acme", {"src/acme/config/settings_local.py": ""})
    home, workspace = home_with_project(
        tmp_path, repo, {"notes.md": "- Local settings: `src/acme/settings_local.py`.\n"}
    )
    fifo = tmp_path / "plan.fifo"
    os.mkfifo(fifo)
    got: list[bytes] = []

    def read() -> None:
        with open(fifo, "rb") as handle:
            got.append(handle.read())

    reader = threading.Thread(target=read)
    reader.start()
    opened = False
    try:
        for _ in range(500):  # until the reader has the FIFO open (else: refused, at once)
            status, out, err = run_cli(
                ["--home", str(home.root), "check", "--workspace", workspace, "--plan-out",
                 str(fifo)],
                capsys,
            )  # fmt: skip
            if "nothing reads from" not in err:
                opened = True
                break
            threading.Event().wait(0.01)
    finally:
        if not opened:
            with open(fifo, "wb"):
                pass  # let the reader go
        reader.join()
    assert status == 1 and "plan of 1 fix written to" in out, err
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert json.loads(got[0])["ops"][0]["proposed"] is True


def test_a_warm_json_check_prints_what_the_last_one_printed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nothing changed (`check.kept`): the same JSON and exit, no file checked again."""
    monkeypatch.setattr(check_engine, "RACY_MARGIN_NS", -60 * 10**9)  # settled a minute ago
    home = demo_home_moved_away(tmp_path / "demo")
    args = ["--home", str(home.root), "check", "--json"]
    first = run_cli(args, capsys)
    monkeypatch.setattr(CheckEngine, "_report", lambda *a: pytest.fail("checked again"))
    assert run_cli(args, capsys) == first
    assert first[0] == 1


def test_a_cold_json_check_makes_its_json_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The report kept for the next run and what this one prints are one JSON, made once: the
    very bytes printed are what a warm run prints again."""
    monkeypatch.setattr(check_engine, "RACY_MARGIN_NS", -60 * 10**9)  # settled a minute ago
    home = demo_home_moved_away(tmp_path / "demo")
    made: list[int] = []
    to_json = CheckReport.to_json
    monkeypatch.setattr(CheckReport, "to_json", lambda self: made.append(1) or to_json(self))
    args = ["--home", str(home.root), "check", "--json"]
    first = run_cli(args, capsys)
    assert made == [1] and first[0] == 1 and json.loads(first[1])["findings"]
    assert run_cli(args, capsys) == first and made == [1]
