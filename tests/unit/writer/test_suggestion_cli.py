"""`memtab suggestions`: list, accept (edited or not) and dismiss, as text and JSON."""

from __future__ import annotations

import json

import pytest

from memtab.cli.main import main
from memtab.store.home import Home
from memtab.store.registry import Workspace, add_workspace, load_registry
from memtab.writer.config_values import DEFAULT_MEMORY_PATH
from memtab.writer.notes import COMMANDS, DIRECTIVES, Note
from memtab.writer.records import Suggestion
from memtab.writer.suggestions import SuggestionQueue


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(args)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.fixture
def suggested(home: Home, workspace: Workspace) -> list[Suggestion]:
    notes = [Note(DIRECTIVES, "항상 pnpm을 사용하세요."), Note(COMMANDS, "`pnpm test` (tests)")]
    return SuggestionQueue(home, workspace.id).propose(notes, memory_path=DEFAULT_MEMORY_PATH)


def test_list_as_a_table_and_as_json(
    home: Home,
    workspace: Workspace,
    suggested: list[Suggestion],
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run_cli(["suggestions", "--home", str(home.root)], capsys)
    assert status == 0
    assert out.splitlines()[0].split() == ["ID", "WORKSPACE", "SECTION", "TEXT"]
    assert f"{suggested[0].id}  {workspace.id}  Directives" in out
    status, out, _ = run_cli(
        ["suggestions", "--home", str(home.root), "--workspace", workspace.id, "--json"], capsys
    )
    assert status == 0
    assert json.loads(out) == {
        "suggestions": [{"workspaceId": workspace.id, **s.to_json()} for s in suggested]
    }


def test_accept_with_edited_text_then_dismiss(
    home: Home,
    workspace: Workspace,
    suggested: list[Suggestion],
    capsys: pytest.CaptureFixture[str],
) -> None:
    first, second = suggested
    status, out, err = run_cli(
        ["suggestions", "--home", str(home.root), "accept", first.id, "--text", "pnpm만 쓴다."],
        capsys,
    )
    assert status == 0, err
    assert out == f"accepted {first.id} ({workspace.id}) → {DEFAULT_MEMORY_PATH}: pnpm만 쓴다.\n"
    notes = (home.workspace_root(workspace.id) / "notes.md").read_text()
    assert notes.endswith("## Directives\n\n- pnpm만 쓴다.\n")
    status, out, _ = run_cli(
        ["suggestions", "--home", str(home.root), "dismiss", second.id, "--json"], capsys
    )
    assert status == 0
    [dismissed] = json.loads(out)["dismissed"]
    assert (dismissed["id"], dismissed["status"]) == (second.id, "dismissed")
    status, out, _ = run_cli(["suggestions", "--home", str(home.root)], capsys)
    assert out == "No suggested memories waiting for review.\n"


def test_an_id_pending_in_two_workspaces_needs_the_workspace(
    home: Home,
    workspace: Workspace,
    suggested: list[Suggestion],
    capsys: pytest.CaptureFixture[str],
) -> None:
    add_workspace(home, "/src/other", "other", workspace_id="b2b2b2b2b2")
    other = load_registry(home).require_workspace("b2b2b2b2b2")
    SuggestionQueue(home, other.id).propose([suggested[0].note], memory_path=DEFAULT_MEMORY_PATH)
    args = ["suggestions", "--home", str(home.root), "dismiss", suggested[0].id]
    status, _, err = run_cli(args, capsys)
    assert status == 1 and "give --workspace" in err and err.count("\n") == 1
    status, _, err = run_cli([*args, "--workspace", other.id], capsys)
    assert status == 0, err
    assert SuggestionQueue(home, workspace.id).pending() == suggested


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["accept", "nope"], "No pending suggestion with id nope"),
        (["dismiss", "nope", "--workspace", "zzz"], "Unknown workspace 'zzz'"),
        (["accept", "a", "b", "--text", "x"], "--text edits one suggestion"),
    ],
)
def test_mistakes_are_one_line_errors(
    home: Home,
    suggested: list[Suggestion],
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    message: str,
) -> None:
    status, out, err = run_cli(["suggestions", "--home", str(home.root), *args], capsys)
    assert status == 1 and out == ""
    assert err.startswith("memtab: ") and message in err and err.count("\n") == 1
