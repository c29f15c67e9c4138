"""The headless `memtab` commands: JSON contracts, human output and one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from memtab.cli.main import main
from memtab.demo import DARK_MODE_ID, MAIN_ID, MULTI_ID, acme_api
from memtab.store.home import Home
from support.demo_homes import copied_demo_home

FILE_FIELDS = {
    "path",
    "scope",
    "description",
    "pinned",
    "accessCount",
    "lastAccessedAt",
    "sizeBytes",
    "modifiedAt",
    "conflictOf",
    "notEditable",
    "adoptedFrom",
}


@pytest.fixture
def demo_home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    copied_demo_home(home)
    return home


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(args)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_list_json_has_the_contract_fields_in_scope_order(
    demo_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run_cli(
        ["--home", str(demo_home), "list", "--workspace", MAIN_ID, "--json"], capsys
    )
    assert status == 0
    files = json.loads(out)["files"]
    assert files and all(set(f) == FILE_FIELDS for f in files)
    scopes = [f["scope"] for f in files]
    assert scopes == sorted(scopes, key=["global", "project", "workspace"].index)
    preferences = next(f for f in files if f["path"] == "/memories/global/preferences.md")
    assert preferences["pinned"] is True
    assert preferences["accessCount"] == 42
    assert preferences["description"] == "How I like code written, reviewed and explained"


def test_list_accepts_home_after_the_command(
    demo_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run_cli(["list", "--home", str(demo_home), "--json"], capsys)
    assert status == 0
    assert {f["scope"] for f in json.loads(out)["files"]} == {"global"}


def test_list_human_output_is_aligned_with_relative_times(
    demo_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run_cli(["--home", str(demo_home), "list", "--workspace", MAIN_ID], capsys)
    assert status == 0
    lines = out.splitlines()
    assert "PATH" in lines[0] and "DESCRIPTION" in lines[0]
    description_column = lines[0].index("DESCRIPTION")
    rows = [line for line in lines[1:] if line.strip().startswith(("*", "/"))]
    assert all(len(row) > description_column for row in rows if "description" in row.lower())
    assert any("d ago" in line or "h ago" in line for line in rows)
    assert "* pinned" in out


def test_tool_success_and_error_exit_codes(
    demo_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    view = json.dumps({"command": "view", "path": "/memories/workspace/notes.md"})
    status, out, _ = run_cli(
        ["--home", str(demo_home), "tool", "--workspace", MAIN_ID, view], capsys
    )
    assert status == 0
    result = json.loads(out)
    assert result["success"] is True and result["output"].startswith("1\t---")

    missing = json.dumps({"command": "view", "path": "/memories/workspace/nope.md"})
    status, out, _ = run_cli(
        ["--home", str(demo_home), "tool", "--workspace", MAIN_ID, missing], capsys
    )
    assert status == 1
    assert json.loads(out) == {
        "success": False,
        "error": "No memory file or directory at /memories/workspace/nope.md",
    }


def test_tool_on_multi_project_workspace_reports_project_unavailable(
    demo_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    call = json.dumps({"command": "view", "path": "/memories"})
    status, out, _ = run_cli(
        ["--home", str(demo_home), "tool", "--workspace", MULTI_ID, call], capsys
    )
    assert status == 0
    assert (
        "(unavailable: multi-project workspaces have no single project identity)"
        in (json.loads(out)["output"])
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["tool", "--workspace", "nope", "{}"], "Unknown workspace 'nope'"),
        (["tool", "{not json"], "The tool call is not valid JSON"),
        (["tool", "[1, 2]"], "must be a JSON object"),
        (["status", "--workspace", "nope"], "Unknown workspace 'nope'"),
    ],
)
def test_user_mistakes_are_one_line_on_stderr(
    demo_home: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    status, out, err = run_cli(["--home", str(demo_home), *args], capsys)
    assert status == 1
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("memtab: ") and message in err


def test_unreadable_home_is_one_clear_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    not_a_dir = tmp_path / "file"
    not_a_dir.write_text("x")
    status, _, err = run_cli(["--home", str(not_a_dir), "workspaces"], capsys)
    assert status == 1
    assert err == f"memtab: The memory home {not_a_dir} is not a directory\n"


def test_corrupt_registry_is_one_clear_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "config.json").write_text("{broken")
    status, _, err = run_cli(["--home", str(tmp_path), "workspaces"], capsys)
    assert status == 1
    assert "config.json is not valid JSON" in err and err.count("\n") == 1


def test_status_json_for_a_single_project_workspace(
    demo_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run_cli(
        ["--home", str(demo_home), "status", "--workspace", MAIN_ID, "--json"], capsys
    )
    assert status == 0
    data = json.loads(out)
    assert set(data) == {
        "workspaceRecord",
        "projectRecord",
        "globalRecord",
        "projectAvailable",
        "latestHarvestRecord",
    }
    assert data["projectAvailable"] is True
    assert data["workspaceRecord"]["trigger"] == "manual"
    assert data["projectRecord"] == data["workspaceRecord"]
    assert data["latestHarvestRecord"]["status"] == "completed"


def test_status_human_shows_footer_lines(
    demo_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run_cli(["--home", str(demo_home), "status", "--workspace", MULTI_ID], capsys)
    assert status == 0
    assert "Project:    unavailable" in out
    assert "Workspace:  20 h ago · launch · no file changed" in out
    assert "Harvest:" not in out


def test_workspaces_json_marks_archived_and_multi_project(
    demo_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run_cli(["--home", str(demo_home), "workspaces", "--json"], capsys)
    assert status == 0
    data = json.loads(out)
    by_id = {ws["id"]: ws for ws in data["workspaces"]}
    assert by_id[DARK_MODE_ID]["archived"] is True
    assert by_id[MULTI_ID]["multiProject"] is True
    assert by_id[MULTI_ID]["projectAvailable"] is False
    assert by_id[MAIN_ID]["projectPath"] == acme_api(Home(demo_home))
    assert len(data["orphanProjectDirs"]) == 1


def test_project_and_workspace_add_for_homes_without_mux(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home = tmp_path / "home"
    project = tmp_path / "repo"
    status, out, _ = run_cli(["--home", str(home), "project", "add", str(project)], capsys)
    assert status == 0 and f"Registered project {project}" in out
    status, out, _ = run_cli(["--home", str(home), "project", "add", str(project)], capsys)
    assert "already registered" in out
    status, out, _ = run_cli(
        [
            "--home",
            str(home),
            "workspace",
            "add",
            "--project",
            str(project),
            "--name",
            "main",
            "--id",
            "0123456789",
        ],
        capsys,
    )
    assert status == 0 and out.strip() == "0123456789"
    status, out, _ = run_cli(["--home", str(home), "workspaces", "--json"], capsys)
    workspaces = json.loads(out)["workspaces"]
    assert [(w["id"], w["name"], w["projectPath"]) for w in workspaces] == [
        ("0123456789", "main", str(project))
    ]
    status, _, err = run_cli(
        [
            "--home",
            str(home),
            "workspace",
            "add",
            "--project",
            str(project),
            "--name",
            "again",
            "--id",
            "0123456789",
        ],
        capsys,
    )
    assert status == 1 and "already exists" in err


def test_demo_refuses_a_non_empty_directory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "keep.txt").write_text("precious")
    status, _, err = run_cli(["demo", str(tmp_path)], capsys)
    assert status == 1 and "is not empty" in err
    assert (tmp_path / "keep.txt").read_text() == "precious"


def test_headless_commands_never_import_qt(tmp_path: Path) -> None:
    code = (
        "import sys; from memtab.cli.main import main; "
        f"main(['--home', {str(tmp_path)!r}, 'workspaces', '--json']); "
        "assert not any(m.startswith('PySide6') for m in sys.modules), 'Qt was imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)


def test_python_dash_m_entry_point(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "memtab", "--home", str(tmp_path), "workspaces", "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(result.stdout)["workspaces"] == []


@pytest.mark.expect_log(
    "memtab.fs.sidecar", "WARNING", r"^config.json could not be used \(not valid JSON"
)
def test_registering_over_a_corrupt_registry_says_where_the_old_one_went(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "config.json").write_text('{"projects": [["/p", {"workspaces": [')
    status, out, err = run_cli(["--home", str(tmp_path), "project", "add", "/q"], capsys)
    assert status == 0
    (copy,) = tmp_path.glob("config.json.corrupt-*")
    assert copy.read_text() == '{"projects": [["/p", {"workspaces": ['
    assert err == (
        f"memtab: config.json could not be used (not valid JSON (Expecting value: line 1 "
        f"column 38 (char 37))); its content was kept as {copy.name} and a fresh one was "
        f"started (in {tmp_path})\n"
    )
    assert out == "Registered project /q\n"


def test_project_add_names_the_project_as_registered(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run_cli(["--home", str(tmp_path), "project", "add", "/src/app\\"], capsys)
    assert status == 0
    assert out == "Registered project /src/app\n"  # mux strips a trailing `\` too
    status, out, _ = run_cli(["--home", str(tmp_path), "project", "add", "/src/app"], capsys)
    assert out == "Project /src/app is already registered\n"
