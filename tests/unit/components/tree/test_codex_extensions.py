"""Codex's memory extensions in the Memory tab's tree (no Qt): each extension's folder says
what it holds and what its manifest lists, and is read-only but for the ad-hoc notes
(docs/formats.md §17.3). The home is laid out as Codex's sources write it
(support.codex_home)."""

from __future__ import annotations

from pathlib import Path

from memtab.components.tree.nodes import NodeKind, TreeNode, ref_key
from memtab.components.tree.text import row_tooltip
from memtab.components.tree.tree import build_tree
from memtab.file_protocol.file_ref import MemoryFileRef
from support.agent_machine import build_machine, scan_machine
from support.codex_home import EXTENSION, lay_out_codex_memories


def folder(tree: TreeNode, relative: str) -> TreeNode:
    key = ref_key(MemoryFileRef("codex:memories", relative), folder=True)
    found = next((node for node in tree.walk() if node.key == key), None)
    assert found is not None, key
    return found


def test_an_extensions_folder_shows_its_manifest(tmp_path: Path) -> None:
    machine = build_machine(tmp_path)
    lay_out_codex_memories(machine.codex / "memories")
    tree = build_tree(scan_machine(machine))
    managed = folder(tree, f"extensions/{EXTENSION}")
    assert managed.kind is NodeKind.DIRECTORY
    assert managed.subtitle == "extension · 3 resources · manifest v1: 2 listed"
    tip = row_tooltip(managed, None)
    assert tip is not None
    assert "Codex memory extension `external-import`: Project memory from the team wiki" in tip
    assert "resources/index-a.md ← project/index" in tip
    assert "Not in it: resources/unrelated.md" in tip
    assert managed.not_editable_reason is not None and "Read-only: part of" in tip
    notes = folder(tree, "extensions/ad_hoc")
    assert notes.subtitle == "extension · 1 note" and notes.not_editable_reason is None
    imported = folder(tree, "extensions/external_agent_import")
    assert imported.subtitle == "extension · 2 resources · imported from Claude Code: 1 project"
    manifest = next(
        node for node in managed.walk() if node.name == "manifest.json"
    )  # the manifest's own row: rendered, Codex's
    assert manifest.tag == "rendered" and manifest.not_editable_reason is not None
