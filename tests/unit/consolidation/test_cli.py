"""`memtab consolidate` and `memtab sweep`: JSON records, human output, one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memtab.cli.main import main
from memtab.demo import DARK_MODE_ID, MAIN_ID, MULTI_ID
from memtab.store.home import Home
from memtab.store.sidecars.journal import Journal
from support.demo_homes import copied_demo_home
from support.fake_model_server import FakeModelServer

from .helpers import ANTHROPIC_KEY, snapshot


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    copied_demo_home(tmp_path / "demo")
    return tmp_path / "demo"


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(args)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_consolidate_json_is_the_journal_record(
    demo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run_cli(
        ["consolidate", "--home", str(demo), "--workspace", MAIN_ID, "--json"], capsys
    )
    assert status == 0, err
    record = json.loads(out)
    assert record["trigger"] == "manual"
    assert record["summary"].startswith("Combined project/test-tips.md into project/testing.md")
    assert all(op["applied"] for op in record["ops"])
    stored = Journal(Home(demo)).load().workspaces[MAIN_ID]
    assert stored.to_json() == record


def test_consolidate_prints_each_op_then_usage_and_summary(
    demo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run_cli(["consolidate", "--home", str(demo), "--workspace", MAIN_ID], capsys)
    assert status == 0
    lines = out.splitlines()
    assert (
        "[applied ] delete /memories/project/test-tips.md — Combined into project/testing.md "
        "(59% alike): everything else it said is already there."
    ) in lines
    assert lines[-2] == "usage: no model tokens (offline consolidator)"
    assert lines[-1].startswith("summary: Combined project/test-tips.md")
    assert "with offline" in err
    # The run's count, as `memtab runs` (and every view) says it (formats §9.6).
    status, runs, _ = run_cli(
        ["runs", "--home", str(demo), "--workspace", MAIN_ID, "--json"], capsys
    )
    files = json.loads(runs)["runs"][0]["filesChanged"]
    assert files >= 2 and lines[-3] == f"result: {files} files changed"


def test_dry_run_proposes_and_changes_nothing(
    demo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = snapshot(Home(demo))
    status, out, _ = run_cli(
        ["--home", str(demo), "consolidate", "--workspace", MAIN_ID, "--dry-run"], capsys
    )
    assert status == 0
    assert "[proposed] delete /memories/project/test-tips.md" in out.splitlines()
    assert "[applied ]" not in out
    assert snapshot(Home(demo)) == before


def test_errors_are_one_line_with_a_non_zero_exit(
    demo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal_before = Path(demo, "memory-consolidation.json").read_bytes()
    status, out, err = run_cli(["consolidate", "--home", str(demo), "--workspace", "nope"], capsys)
    assert status == 1 and out == ""
    assert err.strip() == "memtab: Unknown workspace 'nope' (see `memtab workspaces`)"

    status, _, err = run_cli(
        ["consolidate", "--home", str(demo), "--workspace", MAIN_ID, "--provider", "anthropic"],
        capsys,
    )
    assert status == 1
    [line] = err.strip().splitlines()[-1:]
    assert line.startswith("memtab: anthropic claude-sonnet-4-5: no API key")
    assert Path(demo, "memory-consolidation.json").read_bytes() == journal_before


@pytest.mark.parametrize("command", ["consolidate", "sweep"])
@pytest.mark.parametrize("steps", ["0", "33", "1000"])
def test_max_steps_stays_within_the_32_step_cap(
    demo: Path, capsys: pytest.CaptureFixture[str], command: str, steps: str
) -> None:
    workspace = ["--workspace", MAIN_ID] if command == "consolidate" else []
    status, out, err = run_cli(
        [command, "--home", str(demo), *workspace, "--max-steps", steps], capsys
    )
    assert (status, out) == (1, "")
    assert err == "memtab: --max-steps must be between 1 and 32\n"


def test_consolidate_with_a_model_from_flags_and_env(
    demo: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    fake_model_server: FakeModelServer,
) -> None:
    monkeypatch.setenv("MEMTAB_API_KEY", ANTHROPIC_KEY)  # the fake server is no official host
    fake_model_server.add_anthropic_reply("no changes needed", usage=(1200, 34))
    fake_model_server.add_anthropic_reply("no changes needed", usage=(1300, 4))  # reminded
    status, out, _ = run_cli(
        [
            "consolidate",
            "--home",
            str(demo),
            "--workspace",
            MAIN_ID,
            "--provider",
            "anthropic",
            "--model",
            "claude-test",
            "--base-url",
            fake_model_server.anthropic_base_url,
        ],
        capsys,
    )
    assert status == 0
    # The model read none of the demo's files: the summary says what its tools did.
    assert out.splitlines() == [
        "(no changes)",
        "usage: 2,500 input + 38 output tokens",
        "summary: no changes made (read none of the 16 files).",
    ]
    reminded = fake_model_server.requests[1].body["messages"][-1]
    assert "nothing was read or changed yet" in json.dumps(reminded)
    body = fake_model_server.requests[0].body
    assert body["model"] == "claude-test"
    assert ANTHROPIC_KEY not in Path(demo, "memory-consolidation.json").read_text()


def test_sweep_reports_runs_and_skips(demo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(["sweep", "--home", str(demo), "--json"], capsys)
    assert status == 0
    report = json.loads(out)
    assert report["runs"] == []
    assert {s["workspaceId"]: s["kind"] for s in report["skipped"]} == {
        MAIN_ID: "active",
        DARK_MODE_ID: "archived",
        MULTI_ID: "no-writes",
    }
    status, out, _ = run_cli(["sweep", "--home", str(demo)], capsys)
    assert status == 0
    assert out.splitlines()[0] == "Started 0 runs."
    assert f"  {DARK_MODE_ID}  archived" in out.splitlines()


@pytest.mark.expect_log(
    "memtab.fs.sidecar", "WARNING", r"^memory-consolidation.json could not be used \(not valid JSON"
)
def test_a_journal_kept_aside_is_said_once_on_stderr(
    demo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = demo / "memory-consolidation.json"
    journal.write_bytes(journal.read_bytes()[:300])  # cut short: not JSON any more
    status, _, err = run_cli(["consolidate", "--home", str(demo), "--workspace", MAIN_ID], capsys)
    assert status == 0, err
    (copy,) = demo.glob("memory-consolidation.json.corrupt-*")
    notices = [line for line in err.splitlines() if "could not be used" in line]
    assert len(notices) == 1
    assert notices[0].startswith("memtab: memory-consolidation.json could not be used (not valid")
    assert notices[0].endswith(
        f"its content was kept as {copy.name} and a fresh one was started (in {demo})"
    )


def test_sweep_help_says_the_window_never_sweeps_on_its_own_and_why(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["sweep", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert exit_.value.code == 0
    assert "The window never sweeps on its own (docs/formats.md §9.5)" in text
    assert "memory-consolidation experiment" in text and "nobody reviews" in text


def test_consolidate_one_scope_alone_from_the_command_line(
    demo: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """`--scope` (docs/formats.md §9.8): that scope's changes only, named so in the plan,
    the status and the runs; a plan keeps its own scope."""
    home = ["--home", str(demo), "--workspace", MAIN_ID]
    plan = tmp_path / "plan.json"
    status, out, err = run_cli(
        ["consolidate", *home, "--scope", "project", "--plan-out", str(plan)], capsys
    )
    assert status == 0, err
    assert "scope: project alone" in out.splitlines()
    written = json.loads(plan.read_text("utf-8"))
    assert written["scope"] == "project"
    assert {op["path"].split("/")[2] for op in written["ops"]} == {"project"}
    status, _out, err = run_cli(
        ["consolidate", *home, "--scope", "global", "--apply-plan", str(plan)], capsys
    )
    assert status != 0 and "a plan keeps its own scope" in err
    journal_before = Journal(Home(demo)).load().workspaces[MAIN_ID]
    status, out, err = run_cli(["consolidate", *home, "--scope", "global", "--json"], capsys)
    assert status == 0, err
    assert json.loads(out)["scope"] == "global"
    assert Journal(Home(demo)).load().workspaces[MAIN_ID] == journal_before  # mux's: as it was
    status, out, _err = run_cli(["status", *home], capsys)
    assert status == 0
    (global_line,) = [line for line in out.splitlines() if line.startswith("Global:")]
    assert "just now" in global_line
    (workspace_line,) = [line for line in out.splitlines() if line.startswith("Workspace:")]
    assert "3 h ago" in workspace_line
    status, out, _err = run_cli(["runs", *home], capsys)
    assert status == 0 and "Consolidation of Global · manual" in out
