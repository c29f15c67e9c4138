"""Notes xum adopted from a sub-agent's old private notebook, `imported/<child>/` of the
owner's workspace notebook (xum's memoryLegacyAdoption.ts; docs/formats.md §2.5): the tree
and `memtab list` say what they are. `context-notes.md` is an ordinary note since xum's
ADR 0007 moved the rollover checkpoint to the session scope."""

from __future__ import annotations

import json

import pytest

from memtab.cli.main import main
from memtab.components.tree.nodes import NodeKind, TreeNode
from memtab.components.tree.text import row_tooltip
from memtab.store.home import Home
from memtab.store.paths import parse_virtual_path
from memtab.store.xum_notes import adopted_child, child_id

from .helpers import PROJECT, write, write_config

OWNER, CHILD = "ws-owner", "ws-child"


@pytest.mark.parametrize(
    ("segment", "workspace_id"),
    [
        ("a1b2c3d4e5", "a1b2c3d4e5"),
        # xum escapes every UTF-8 byte outside [A-Za-z0-9_-] of an id the grammar refuses
        ("proj=7Ework", "proj~work"),
        ("caf=C3=A9", "café"),
    ],
)
def test_the_child_an_imported_folder_is_named_after(segment: str, workspace_id: str) -> None:
    assert child_id(segment) == workspace_id


def test_only_notes_below_imported_child_are_adopted() -> None:
    def child(raw: str) -> str | None:
        return adopted_child(parse_virtual_path(raw))

    assert child("/memories/workspace/imported/ws-child/plan.md") == "ws-child"
    assert child("/memories/workspace/imported/ws-child") == "ws-child"
    assert child("/memories/workspace/imported") is None
    assert child("/memories/workspace/plan.md") is None
    assert child("/memories/project/imported/ws-child/plan.md") is None


def test_the_tree_says_where_an_adopted_note_came_from() -> None:
    path = parse_virtual_path("/memories/workspace/imported/ws-child/plan.md")
    file = TreeNode("f", NodeKind.FILE, "plan.md", path=path, modified_at_ms=1)
    assert "Adopted by xum from sub-agent ws-child's old private notebook" in (
        row_tooltip(file, None) or ""
    )
    folder = TreeNode(
        "d", NodeKind.DIRECTORY, "imported", path=parse_virtual_path("/memories/workspace/imported")
    )
    assert "adopted from sub-agents' old private notebooks" in (row_tooltip(folder, None) or "")


def test_memtab_list_names_the_sub_agent(home: Home, capsys: pytest.CaptureFixture[str]) -> None:
    write_config(
        home,
        {
            "projects": [
                [
                    PROJECT,
                    {
                        "workspaces": [
                            {"id": OWNER, "name": "main", "path": "/w/main"},
                            {"id": CHILD, "name": "t", "path": "/w/t", "parentWorkspaceId": OWNER},
                        ]
                    },
                ]
            ]
        },
    )
    write(home.workspace_root(OWNER) / "imported" / CHILD / "plan.md", "step 1\n")
    write(home.workspace_root(OWNER) / "own.md", "mine\n")
    write(home.workspace_root(OWNER) / "context-notes.md", "## Next\n- finish the parser\n")
    assert main(["--home", str(home.root), "list", "--workspace", CHILD, "--json"]) == 0
    rows = {row["path"]: row for row in json.loads(capsys.readouterr().out)["files"]}
    assert rows["/memories/workspace/imported/ws-child/plan.md"]["adoptedFrom"] == CHILD
    assert rows["/memories/workspace/own.md"]["adoptedFrom"] is None
    assert main(["--home", str(home.root), "list", "--workspace", CHILD]) == 0
    out = capsys.readouterr().out
    assert "adopted from sub-agent ws-child" in out


def test_context_notes_is_an_ordinary_workspace_note(
    home: Home, capsys: pytest.CaptureFixture[str]
) -> None:
    """xum's ADR 0007: "Existing `context-notes.md` files stay as ordinary workspace
    memory" — no checkpoint label in the tree or in `memtab list`."""
    path = parse_virtual_path("/memories/workspace/context-notes.md")
    file = TreeNode("f", NodeKind.FILE, "context-notes.md", path=path, modified_at_ms=1)
    assert "checkpoint" not in (row_tooltip(file, None) or "")

    write_config(home, {"projects": [[PROJECT, {"workspaces": [{"id": OWNER, "path": "/w"}]}]]})
    write(home.workspace_root(OWNER) / "context-notes.md", "## Next\n- finish the parser\n")
    assert main(["--home", str(home.root), "list", "--workspace", OWNER, "--json"]) == 0
    [row] = json.loads(capsys.readouterr().out)["files"]
    assert "checkpoint" not in row
    assert main(["--home", str(home.root), "list", "--workspace", OWNER]) == 0
    assert "checkpoint" not in capsys.readouterr().out
