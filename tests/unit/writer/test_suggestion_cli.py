"""`memtab suggestions`, the Inbox's old name, kept for one release: the same command as
`memtab inbox` (`dismiss` for `reject`), saying on stderr that it was renamed."""

from __future__ import annotations

import json

import pytest

from memtab.cli.main import main
from memtab.store.home import Home
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.registry import Workspace
from memtab.writer.config import DEFAULT_MEMORY_PATH
from memtab.writer.inbox.suggestions import SuggestionQueue
from memtab.writer.inbox.targets import PROJECT_NOTES
from memtab.writer.offline.notes import COMMANDS, DIRECTIVES, Note
from memtab.writer.records import Suggestion
from support.memory_paths import vpath

RENAMED = "memtab suggestions is now memtab inbox (the old name goes in the next release)"


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(args)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.fixture
def suggested(home: Home, workspace: Workspace) -> list[Suggestion]:
    notes = [Note(DIRECTIVES, "항상 pnpm을 사용하세요."), Note(COMMANDS, "`pnpm test` (tests)")]
    return SuggestionQueue(home, workspace.id).propose(notes, memory_path=DEFAULT_MEMORY_PATH)


@pytest.mark.parametrize("json_flag", [[], ["--json"]], ids=["table", "json"])
def test_the_old_name_lists_what_the_inbox_lists_and_says_it_was_renamed(
    home: Home,
    workspace: Workspace,
    suggested: list[Suggestion],
    capsys: pytest.CaptureFixture[str],
    json_flag: list[str],
) -> None:
    args = ["--home", str(home.root), "--workspace", workspace.id, *json_flag]
    status, old_out, old_err = run_cli(["suggestions", *args], capsys)
    assert status == 0
    assert old_err == RENAMED + "\n"
    status, new_out, new_err = run_cli(["inbox", *args], capsys)
    assert (status, new_err) == (0, "")
    assert old_out == new_out
    if json_flag:
        listed = json.loads(old_out)["items"]
        assert [(i["id"], i["kind"]) for i in listed] == [(s.id, "suggestion") for s in suggested]


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
    assert out == f"accepted {first.id} ({workspace.id}) → {PROJECT_NOTES}: pnpm만 쓴다.\n"
    notes = MemoryStore(home, workspace).read_text(vpath(PROJECT_NOTES))  # a rule of the project's
    assert notes.endswith("## Directives\n\n- pnpm만 쓴다.\n")
    status, out, err = run_cli(
        ["suggestions", "--home", str(home.root), "dismiss", second.id, "--json"], capsys
    )
    assert status == 0, err
    assert [item["id"] for item in json.loads(out)["rejected"]] == [second.id]
    assert SuggestionQueue(home, workspace.id).pending() == []


def test_mistakes_are_one_line_errors_after_the_note(
    home: Home, suggested: list[Suggestion], capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run_cli(["suggestions", "--home", str(home.root), "accept", "nope"], capsys)
    assert status == 1 and out == ""
    note, error = err.splitlines()
    assert note == RENAMED and error == "memtab: Nothing in the inbox with id nope"
