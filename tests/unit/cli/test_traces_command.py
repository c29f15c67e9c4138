"""`memtab traces`: the JSON contract, the human table, the workspace filter and errors."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from memtab.cli.main import main
from memtab.demo import DARK_MODE_ID, MAIN_ID, create_demo_home
from memtab.store.home import Home
from support.demo_homes import copied_demo_home
from support.trace_dumps import DEMO_STARTED, OLD_FORMAT_STARTED, fixture_dump, install_dump

TRACE_FIELDS = {
    "path",
    "workspaceId",
    "workspaceName",
    "runStartedAt",
    "triggerMessageId",
    "modelString",
    "kind",
    "outcome",
    "failed",
    "error",
    "problem",
    "sizeBytes",
}


@pytest.fixture
def demo_home(tmp_path: Path) -> Path:
    # Built, not copied: the table's times are checked to the minute against now.
    home = create_demo_home(tmp_path / "home")
    install_dump(home, DARK_MODE_ID, fixture_dump("old-format"), f"{OLD_FORMAT_STARTED}_m.json")
    install_dump(home, MAIN_ID, fixture_dump("truncated"), f"{DEMO_STARTED}_assistant-0001.json")
    return home.root


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(args)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_json_lists_every_dump_newest_first(
    demo_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run_cli(["--home", str(demo_home), "traces", "--json"], capsys)
    assert status == 0 and err == ""
    rows = json.loads(out)["traces"]
    assert all(set(row) == TRACE_FIELDS for row in rows)
    assert [row["workspaceId"] for row in rows] == [MAIN_ID, MAIN_ID, MAIN_ID, DARK_MODE_ID]
    newest, wrote, truncated, old = rows
    assert wrote["outcome"] == "wrote memory" and wrote["failed"] is False
    assert newest["outcome"] == "timed out" and newest["failed"] is True
    assert newest["error"] == "Timed out after 10000 ms"
    assert newest["workspaceName"] == "Fix the token refresh race"
    assert {row["kind"] for row in rows} == {"writer"}
    assert newest["triggerMessageId"] == "assistant-0001"
    assert Path(newest["path"]).is_file()
    assert truncated["problem"].startswith("The file is truncated")
    assert old["outcome"] == "policy not satisfied"
    assert old["runStartedAt"] == OLD_FORMAT_STARTED
    assert old["modelString"] == "anthropic:claude-haiku-4-5"


def test_human_output_is_an_aligned_table_with_relative_times(
    demo_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run_cli(["--home", str(demo_home), "traces"], capsys)
    assert status == 0
    header, *lines = out.splitlines()
    assert header.split() == ["TIME", "RUN", "WORKSPACE", "TRIGGER", "OUTCOME", "ERROR", "PATH"]
    assert len(lines) == 4
    assert lines[0].startswith("54 min ago  writer  Fix the token refresh race")
    assert lines[1].startswith("1 h ago     writer  Fix the token refresh race")
    assert "timed out" in lines[0] and "Timed out after 10000 ms" in lines[0]
    assert re.match(r"\d{4}-\d{2}-\d{2}  writer  Dark mode ", lines[3])  # over a month old: a date
    outcome_column = header.index("OUTCOME")
    assert [line[outcome_column:].split("  ")[0] for line in lines] == [
        "timed out",
        "wrote memory",
        "timed out",
        "policy not satisfied",
    ]
    assert all(line.rstrip().endswith(".json") for line in lines)


def test_workspace_filter(demo_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--home", str(demo_home), "traces", "--workspace", DARK_MODE_ID, "--json"]
    status, out, _ = run_cli(args, capsys)
    assert status == 0
    assert [row["workspaceId"] for row in json.loads(out)["traces"]] == [DARK_MODE_ID]


def test_unknown_workspace_is_one_line_on_stderr(
    demo_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run_cli(["--home", str(demo_home), "traces", "--workspace", "nope"], capsys)
    assert status == 1 and out == ""
    assert err == "memtab: Unknown workspace 'nope' (see `memtab workspaces`)\n"


def test_a_deleted_workspace_with_dumps_is_not_unknown(
    demo_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    install_dump(Home(demo_home), "c0ffee1234", fixture_dump("demo"), "1_x.json")
    args = ["--home", str(demo_home), "traces", "--workspace", "c0ffee1234", "--json"]
    status, out, _ = run_cli(args, capsys)
    assert status == 0
    assert len(json.loads(out)["traces"]) == 1


def test_a_known_workspace_without_dumps_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home = copied_demo_home(tmp_path / "home")
    args = ["--home", str(home.root), "traces", "--workspace", DARK_MODE_ID]
    status, out, err = run_cli(args, capsys)
    assert status == 0 and err == ""
    assert out.startswith(f"No trace dumps for workspace {DARK_MODE_ID}")
    status, out, _ = run_cli([*args, "--json"], capsys)
    assert json.loads(out) == {"traces": []}


def test_a_deeply_nested_dump_is_listed_with_its_reason(
    demo_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = Home(demo_home).trace_dir(MAIN_ID)
    (folder / "1800000000000_deep.json").write_text("[" * 100_000, encoding="utf-8")
    status, out, err = run_cli(["--home", str(demo_home), "traces", "--json"], capsys)
    assert status == 0 and err == ""
    (deep,) = [row for row in json.loads(out)["traces"] if row["path"].endswith("_deep.json")]
    assert deep["outcome"] == "unreadable"
    assert deep["problem"].startswith("The file is nested too deeply to read")
    status, out, _ = run_cli(["--home", str(demo_home), "traces"], capsys)
    assert status == 0 and "nested too deeply" in out
