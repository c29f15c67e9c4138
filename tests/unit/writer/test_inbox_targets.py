"""The right memory for each Inbox item (docs/formats.md §10.5): a user's preference goes to
global memory, a project fact to project memory, the environment and the task's goal to
the workspace's notes — proposed from mux's category and the writer's section — and the
user may choose another file, in `Inbox.accept(to=…)` and `memtab inbox accept --to`."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from memtab.cli.main import main
from memtab.store.home import Home
from memtab.store.paths import Scope
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.registry import (
    MULTI_PROJECT_KEY,
    Workspace,
    add_workspace,
    load_registry,
)
from memtab.writer.config import DEFAULT_MEMORY_PATH
from memtab.writer.inbox.inbox import Inbox, InboxError
from memtab.writer.inbox.suggestions import SuggestionQueue
from memtab.writer.inbox.targets import GLOBAL_NOTES, PROJECT_NOTES, target_choices
from memtab.writer.offline.notes import DIRECTIVES, GOAL, Note
from support.memory_paths import vpath

FIXTURES = Path(__file__).parents[2] / "fixtures" / "harvest"
HARVEST_NAME = "summary-9f2c1e.md"


def harvest_into(home: Home, workspace: Workspace) -> None:
    folder = home.workspace_root(workspace.id) / "harvest"
    folder.mkdir(parents=True)
    shutil.copyfile(FIXTURES / HARVEST_NAME, folder / HARVEST_NAME)


def suggest(home: Home, workspace: Workspace) -> None:
    SuggestionQueue(home, workspace.id).propose(
        [Note(GOAL, "Ship the importer."), Note(DIRECTIVES, "Run ruff before committing.")],
        memory_path=DEFAULT_MEMORY_PATH,
    )


def test_each_item_proposes_the_memory_it_belongs_in(home: Home, workspace: Workspace) -> None:
    harvest_into(home, workspace)
    suggest(home, workspace)
    items = Inbox(home, workspace).items()
    assert [(i.category or i.section, i.memory_path) for i in items] == [
        ("preference", GLOBAL_NOTES),  # the user's, in every project
        ("project", PROJECT_NOTES),
        ("environment", DEFAULT_MEMORY_PATH),  # port 8081 on this machine
        (GOAL, DEFAULT_MEMORY_PATH),  # the task's
        (DIRECTIVES, PROJECT_NOTES),
    ]
    assert "preference" in (items[0].target_reason or "")
    accepted = Inbox(home, workspace).accept([items[0].id, items[1].id, items[4].id])
    store = MemoryStore(home, workspace)
    assert "- The user prefers pytest's plain asserts" in store.read_text(vpath(GLOBAL_NOTES))
    project = store.read_text(vpath(PROJECT_NOTES))
    assert "# Project notes" in project  # a new file gets the header of its scope
    assert "Database migrations live in db/migrations" in project
    assert "- Run ruff before committing." in project
    assert accepted.memory_path is None  # two files
    assert not (home.workspace_root(workspace.id) / "notes.md").exists()


def test_without_a_project_a_project_fact_stays_in_the_workspace(home: Home) -> None:
    add_workspace(home, MULTI_PROJECT_KEY, "multi", workspace_id="m1m2m3m4m5")
    workspace = load_registry(home).require_workspace("m1m2m3m4m5")
    harvest_into(home, workspace)
    project_fact = Inbox(home, workspace).items()[1]
    assert project_fact.memory_path == DEFAULT_MEMORY_PATH
    assert "project memory is unavailable" in (project_fact.target_reason or "")
    with pytest.raises(InboxError, match="Project memory is unavailable"):
        Inbox(home, workspace).accept([project_fact.id], to=PROJECT_NOTES)


def test_the_user_chooses_another_file(home: Home, workspace: Workspace) -> None:
    harvest_into(home, workspace)
    suggest(home, workspace)
    inbox = Inbox(home, workspace)
    preference, _, _, goal, rule = inbox.items()
    store = MemoryStore(home, workspace)
    store.save(vpath("/memories/project/conventions.md"), "# Conventions\n", None)
    listings = [store.list_scope(scope) for scope in Scope]
    assert target_choices(listings) == (
        GLOBAL_NOTES,
        PROJECT_NOTES,
        "/memories/project/conventions.md",
        DEFAULT_MEMORY_PATH,  # harvest files are no choice
    )
    inbox.accept([preference.id], to="/memories/project/conventions.md")
    inbox.accept([rule.id], to=" /memories/workspace/notes.md/ ")  # as the store reads it
    assert "plain asserts" in store.read_text(vpath("/memories/project/conventions.md"))
    assert "- Run ruff before committing." in store.read_text(vpath(DEFAULT_MEMORY_PATH))
    queue = SuggestionQueue(home, workspace.id).all()
    assert [s.accepted_into for s in queue if s.status == "accepted"] == [None]  # its own file
    for bad, said in [
        ("/memories/workspace/harvest/summary-9f2c1e.md", "harvest files"),
        ("/memories/global/x.json", "Markdown file"),
        ("/memories/../x.md", "Invalid memory path"),
    ]:
        with pytest.raises(InboxError, match=said):
            inbox.accept([goal.id], to=bad)
    inbox.accept([goal.id], to=GLOBAL_NOTES)
    accepted = [s for s in SuggestionQueue(home, workspace.id).all() if s.status == "accepted"]
    assert [(s.section, s.accepted_into) for s in accepted] == [
        (GOAL, GLOBAL_NOTES),
        (DIRECTIVES, None),
    ]


def test_cli_accepts_into_the_file_given(
    home: Home, workspace: Workspace, capsys: pytest.CaptureFixture[str]
) -> None:
    harvest_into(home, workspace)
    root = ["inbox", "--home", str(home.root)]
    assert main([*root, "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)["items"]
    assert [(i["memoryPath"], i["retargetable"]) for i in listed] == [
        (GLOBAL_NOTES, True),
        (PROJECT_NOTES, True),
        (DEFAULT_MEMORY_PATH, True),
    ]
    assert main(root) == 0
    assert "INTO" in capsys.readouterr().out
    first, second, _ = (i["id"] for i in listed)
    assert main([*root, "accept", first, "--to", "/memories/project/style.md", "--json"]) == 0
    accepted = json.loads(capsys.readouterr().out)["accepted"]
    assert accepted[0]["memoryPath"] == "/memories/project/style.md"
    assert "plain asserts" in MemoryStore(home, workspace).read_text(
        vpath("/memories/project/style.md")
    )
    assert main([*root, "accept", second, "--to", "/memories/nowhere/x.md"]) == 1
    assert "unknown scope" in capsys.readouterr().err
    assert main([*root, "accept", second]) == 0
    assert f"→ {PROJECT_NOTES}:" in capsys.readouterr().out
