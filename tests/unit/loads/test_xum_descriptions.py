"""Notes xum can hardly recall: its memory index lists every note of the shared scopes by
path and description (`listIndexEntries`, `- <path> — "<description>"`, or the path alone),
and its recall judges index entries by them first; a note without a `description:` is
flagged as Claude Code's undescribed topic files are — the tree's `no description` pill and
a note in `memtab loads` (docs/formats.md §17.6). Before, nothing said so for xum."""

from __future__ import annotations

from pathlib import Path

from memtab.components.tree.nodes import TreeNode, file_key
from memtab.components.tree.tree import build_tree
from memtab.loads.engine import compute_loads
from memtab.loads.limits import XUM_NO_DESCRIPTION
from memtab.store.paths import parse_file_path
from support.agent_machine import WORKSPACE_ID, build_machine, scan_machine


def _row(tree: TreeNode, path: str) -> TreeNode:
    key = file_key(parse_file_path(path))
    return next(node for node in tree.walk() if node.key == key)


def test_an_undescribed_note_is_flagged_in_the_tree_and_in_loads(tmp_path: Path) -> None:
    machine = build_machine(tmp_path)
    root = machine.home.global_root
    root.mkdir(parents=True, exist_ok=True)
    (root / "described.md").write_text(
        "---\ndescription: How we release\n---\n# Release\n", encoding="utf-8"
    )
    (root / "bare.md").write_text("# Scratch\n\nRun make check first.\n", encoding="utf-8")
    tree = build_tree(scan_machine(machine))
    bare = _row(tree, "/memories/global/bare.md")
    assert (bare.warning, bare.warning_label) == (XUM_NO_DESCRIPTION, "no description")
    assert bare.description == "Scratch"  # its title still shows in the description's place
    described = _row(tree, "/memories/global/described.md")
    assert (described.warning, described.warning_label) == (None, None)

    loads = compute_loads(
        machine.home, workspace_id=WORKSPACE_ID, agents=("xum",), context=machine.context()
    )
    (note,) = [n for n in loads.agents[0].notes if "no description" in n]
    assert note == (
        "1 of the index's 2 notes has no description: xum lists it by path alone, and its "
        "recall judges notes by path and description first (/memories/global/bare.md)"
    )
