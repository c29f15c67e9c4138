"""A task tree shares one notebook (docs/formats.md §2.5): xum's
`src/node/services/memoryWorkspaceOwner.ts`, and what uses the owner — the workspace
scope's root, its memory-meta.json keys, its history index and its journal record."""

from __future__ import annotations

import json
from typing import Any

import pytest

from memtab.cli.main import main
from memtab.store.home import Home
from memtab.store.paths import Scope
from memtab.store.scopes.memory import MemoryStore
from memtab.store.scopes.tool import MemoryTool
from memtab.store.sidecars.journal import ConsolidationRecord, Journal, JournalOp
from memtab.store.sidecars.meta import workspace_key
from memtab.store.sidecars.registry import (
    MAX_CHAIN_DEPTH,
    OwnerLinks,
    load_registry,
    notebook_owner,
)

from .helpers import PROJECT, write_config

ROOT, CHILD, GRANDCHILD, SIDE, SOLO = "ws-owner", "ws-child", "ws-grand", "ws-side", "ws-solo"


TREE = {
    ROOT: OwnerLinks(),
    CHILD: OwnerLinks(parent_id=ROOT),
    GRANDCHILD: OwnerLinks(parent_id=CHILD),
    SIDE: OwnerLinks(side_chat_parent_id=CHILD),
    SOLO: OwnerLinks(),
}


@pytest.mark.parametrize(
    ("workspace_id", "owner"),
    [(ROOT, ROOT), (CHILD, ROOT), (GRANDCHILD, ROOT), (SIDE, ROOT), (SOLO, SOLO)],
)
def test_a_task_tree_and_its_side_chats_share_the_roots_notebook(
    workspace_id: str, owner: str
) -> None:
    assert notebook_owner(TREE, workspace_id) == owner


def test_a_pin_speaks_only_for_a_child_whose_parent_was_removed() -> None:
    # The middle of the chain was removed: xum pinned the grandchild to the root.
    removed_middle = {ROOT: OwnerLinks(), GRANDCHILD: OwnerLinks(CHILD, None, ROOT)}
    assert notebook_owner(removed_middle, GRANDCHILD) == ROOT
    # A live parent wins over a pin that disagrees with it.
    live = {**TREE, GRANDCHILD: OwnerLinks(CHILD, None, SOLO)}
    assert notebook_owner(live, GRANDCHILD) == ROOT
    # A pin whose owner is gone too leaves the child its own notebook.
    assert notebook_owner({GRANDCHILD: OwnerLinks(CHILD, None, ROOT)}, GRANDCHILD) == GRANDCHILD


@pytest.mark.parametrize(
    ("links", "workspace_id"),
    [
        ({CHILD: OwnerLinks(parent_id="ws-gone")}, CHILD),  # a parent not registered
        ({}, "ws-unknown"),  # an id the registry does not know
        ({"a": OwnerLinks(parent_id="b"), "b": OwnerLinks(parent_id="a")}, "a"),  # a cycle
        (
            {
                f"w{n}": OwnerLinks(parent_id=f"w{n + 1}" if n < MAX_CHAIN_DEPTH else None)
                for n in range(MAX_CHAIN_DEPTH + 1)
            },
            "w0",
        ),  # deeper than 32
    ],
)
def test_what_xum_cannot_resolve_leaves_a_workspace_its_own_notebook(
    links: dict[str, OwnerLinks], workspace_id: str
) -> None:
    assert notebook_owner(links, workspace_id) == workspace_id


def test_a_chain_of_32_is_still_followed() -> None:
    links = {
        f"w{n}": OwnerLinks(parent_id=f"w{n + 1}" if n < MAX_CHAIN_DEPTH - 1 else None)
        for n in range(MAX_CHAIN_DEPTH)
    }
    assert notebook_owner(links, "w0") == f"w{MAX_CHAIN_DEPTH - 1}"


# --- the registry and the store ---------------------------------------------------------------


def _entry(workspace_id: str, **fields: Any) -> dict[str, Any]:
    return {"id": workspace_id, "name": workspace_id, "path": f"/w/{workspace_id}", **fields}


@pytest.fixture
def tree_home(home: Home) -> Home:
    write_config(
        home,
        {
            "projects": [
                [
                    PROJECT,
                    {
                        "workspaces": [
                            _entry(ROOT),
                            _entry(CHILD, parentWorkspaceId=ROOT),
                            _entry(GRANDCHILD, parentWorkspaceId=CHILD),
                            _entry(SIDE, sideChatParentWorkspaceId=ROOT),
                            _entry(
                                SOLO, parentWorkspaceId="ws-removed", memoryOwnerWorkspaceId=ROOT
                            ),
                        ]
                    },
                ]
            ]
        },
    )
    return home


def test_the_registry_reads_whose_notebook_each_workspace_uses(tree_home: Home) -> None:
    registry = load_registry(tree_home)
    owners = {ws.id: ws.notebook_id for ws in registry.workspaces}
    assert owners == {ROOT: ROOT, CHILD: ROOT, GRANDCHILD: ROOT, SIDE: ROOT, SOLO: ROOT}
    assert not registry.require_workspace(ROOT).shares_notebook
    assert registry.require_workspace(GRANDCHILD).shares_notebook


def test_a_sub_agent_writes_into_the_roots_notebook(tree_home: Home) -> None:
    registry = load_registry(tree_home)
    store = MemoryStore(tree_home, registry.require_workspace(GRANDCHILD), actor="agent-tool")
    result = MemoryTool(store).execute(
        {"command": "create", "path": "/memories/workspace/plan.md", "file_text": "step 1\n"}
    )
    assert result.success, result.error
    assert (tree_home.workspace_root(ROOT) / "plan.md").read_text() == "step 1\n"
    assert not tree_home.workspace_root(GRANDCHILD).exists()
    # The root sees it, and its usage counts under the root's key, as xum keys it.
    root_store = MemoryStore(tree_home, registry.require_workspace(ROOT))
    view = MemoryTool(root_store).execute(
        {"command": "view", "path": "/memories/workspace/plan.md"}
    )
    assert view.output == "1\tstep 1"
    assert set(root_store.meta_entries()) == {workspace_key(ROOT, "plan.md")}
    assert store.history_key(Scope.WORKSPACE) == root_store.history_key(Scope.WORKSPACE)


def test_the_journal_keeps_a_task_trees_runs_under_its_notebook(tree_home: Home) -> None:
    registry = load_registry(tree_home)
    child = registry.require_workspace(CHILD)
    record = ConsolidationRecord(
        last_run_at=1_700_000_000_000,
        trigger="manual",
        summary="merged two notes",
        ops=(JournalOp(command="create", path="/memories/workspace/a.md", applied=True),),
    )
    Journal(tree_home).save_run(ROOT, None, record)
    status = Journal(tree_home).status(child.id, child.project_identity, child.notebook_id)
    assert status.workspace_record is not None
    assert status.workspace_record.last_run_at == record.last_run_at


def test_memtab_workspaces_says_whose_notebook(
    tree_home: Home, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--home", str(tree_home.root), "workspaces", "--json"]) == 0
    rows = {row["id"]: row for row in json.loads(capsys.readouterr().out)["workspaces"]}
    assert rows[SIDE]["notebookWorkspaceId"] == ROOT and rows[ROOT]["notebookWorkspaceId"] == ROOT
    assert main(["--home", str(tree_home.root), "workspaces"]) == 0
    out = capsys.readouterr().out
    assert f"side chat of {ROOT}, notebook of {ROOT}" in out
