"""An Inbox decision taken back (Edit → Undo) and made again (Redo): the files it changed
are as they were, its items wait in the Inbox again with their ids, and a notes file edited
since loses only the accepted bullet (docs/formats.md §10.5)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from memtab.store.home import Home
from memtab.store.proposals.queue import ProposalQueue, ToolCall
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.registry import Workspace
from memtab.writer.config import DEFAULT_MEMORY_PATH
from memtab.writer.inbox.inbox import Inbox
from memtab.writer.inbox.suggestions import SuggestionQueue
from memtab.writer.inbox.targets import PROJECT_NOTES
from memtab.writer.inbox.undo import UndoRefusedError, take_back
from memtab.writer.offline.notes import DIRECTIVES, Note
from support.memory_paths import vpath

FIXTURES = Path(__file__).parents[2] / "fixtures" / "harvest"
HARVEST_NAME = "summary-9f2c1e.md"


@pytest.fixture
def harvested(home: Home, workspace: Workspace) -> Path:
    folder = home.workspace_root(workspace.id) / "harvest"
    folder.mkdir(parents=True)
    shutil.copyfile(FIXTURES / HARVEST_NAME, folder / HARVEST_NAME)
    return folder / HARVEST_NAME


def test_an_accept_taken_back_leaves_the_files_as_they_were_and_redo_makes_it_again(
    home: Home, workspace: Workspace, harvested: Path
) -> None:
    store = MemoryStore(home, workspace)
    store.save(vpath(PROJECT_NOTES), "# Ours\n", None)
    inbox = Inbox(home, workspace)
    ids = [item.id for item in inbox.items()]
    last = inbox.accept([ids[0]], to=DEFAULT_MEMORY_PATH)  # creates the workspace's notes
    decision = inbox.accept(ids[1:])  # the project's notes; the harvest file goes
    assert not harvested.exists()
    assert decision.undo is not None and last.undo is not None
    assert decision.undo.label == "accept of 2 memories"
    assert last.undo.label == "accept 'The user prefers pytest…'"
    assert take_back(store, decision.undo) == "2 proposed memories back in the Inbox"
    assert store.read_text(vpath(PROJECT_NOTES)) == "# Ours\n"
    assert [item.id for item in inbox.items()] == ids[1:]  # with the ids they had
    take_back(store, last.undo)
    assert [item.id for item in inbox.items()] == ids
    assert harvested.read_text(encoding="utf-8") == (FIXTURES / HARVEST_NAME).read_text()
    assert not (home.workspace_root(workspace.id) / "notes.md").exists()  # it made it
    again = inbox.redo(last.undo)
    assert "plain asserts" in store.read_text(vpath(DEFAULT_MEMORY_PATH))
    assert again.undo is not None and [item.id for item in inbox.items()] == ids[1:]


def test_a_notes_file_edited_since_loses_only_the_accepted_line(
    home: Home, workspace: Workspace
) -> None:
    store = MemoryStore(home, workspace)
    store.save(vpath(PROJECT_NOTES), "# Ours\n\n## Directives\n\n- Never push to main.\n", None)
    SuggestionQueue(home, workspace.id).propose(
        [Note(DIRECTIVES, "Run ruff before committing.")], memory_path=DEFAULT_MEMORY_PATH
    )
    inbox = Inbox(home, workspace)
    (item,) = inbox.items()
    decision = inbox.accept([item.id], text="Run ruff and mypy before committing.")
    store.edit_text(vpath(PROJECT_NOTES), lambda text: text + "- Added by the user after.\n")
    assert decision.undo is not None
    take_back(store, decision.undo)
    assert store.read_text(vpath(PROJECT_NOTES)) == (
        "# Ours\n\n## Directives\n\n- Never push to main.\n- Added by the user after.\n"
    )
    (again,) = inbox.items()
    assert (again.id, again.text) == (item.id, "Run ruff before committing.")  # as proposed


def test_a_reject_taken_back_and_an_agents_call_that_changed_since(
    home: Home, workspace: Workspace, harvested: Path
) -> None:
    ProposalQueue(home, workspace).propose(
        ToolCall("create", {"path": "/memories/workspace/a.md", "file_text": "A fact.\n"}),
        client="codex-cli",
    )
    store = MemoryStore(home, workspace)
    inbox = Inbox(home, workspace)
    ids = [item.id for item in inbox.items()]
    rejected = inbox.reject(ids)
    assert rejected.undo is not None and rejected.undo.label == "reject of 4 memories"
    assert not harvested.exists() and inbox.items() == []
    take_back(store, rejected.undo)
    assert [item.id for item in inbox.items()] == ids
    accepted = inbox.accept([ids[3]])
    assert store.read_text(vpath("/memories/workspace/a.md")) == "A fact.\n"
    store.save(
        vpath("/memories/workspace/a.md"),
        "Changed.\n",
        store.read(vpath("/memories/workspace/a.md")).sha256,
    )
    assert accepted.undo is not None
    with pytest.raises(UndoRefusedError, match="a\\.md changed since"):
        take_back(store, accepted.undo)
    assert store.read_text(vpath("/memories/workspace/a.md")) == "Changed.\n"
