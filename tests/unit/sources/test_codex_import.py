"""Claude Code's memory as Codex 0.169.0 imports it (`extensions/external_agent_import/
resources/<project key>/`, `scope.json` naming the `cwd`; support.codex_home) shown as what
it is: each copy read-only, "imported from Claude Code (cwd …)", linked to its original in
Claude Code's memory and back (docs/formats.md §17.3). Before, every imported file was a
second, unlabelled copy of the original."""

from __future__ import annotations

from pathlib import Path

from memtab.components.files.rules import RowAction, linked_text, row_actions
from memtab.components.tree.nodes import TreeNode, ref_key
from memtab.components.tree.text import row_tooltip
from memtab.components.tree.tree import build_tree
from memtab.file_protocol.file_ref import MemoryFileRef
from memtab.sources.codex.imports import link_imports
from memtab.sources.discovery import discover
from memtab.sources.layouts import IMPORTED_BY_CODEX
from memtab.sources.listing import list_source
from memtab.sources.model import ImportedProject
from support.agent_machine import Machine, build_machine, scan_machine
from support.codex_home import import_claude_memory

IMPORT = "extensions/external_agent_import/resources"


def _machine(tmp_path: Path) -> tuple[Machine, str]:
    machine = build_machine(tmp_path)
    folder = import_claude_memory(
        machine.codex / "memories", machine.claude_memory.parent, str(machine.project)
    )
    return machine, folder.name


def test_the_import_is_read_only_and_says_whose_and_for_which_cwd(tmp_path: Path) -> None:
    machine, key = _machine(tmp_path)
    discovery = discover(machine.context())
    listing = list_source(discovery.source("codex:memories"))
    (extension,) = [e for e in listing.extensions if e.name == "external_agent_import"]
    assert extension.imports == (ImportedProject(key, f"{IMPORT}/{key}", str(machine.project)),)
    assert extension.imports[0].label == f"imported from Claude Code (cwd {machine.project})"
    imported = [f for f in listing.files if f.relative.startswith(f"{IMPORT}/{key}/")]
    copies = [f for f in imported if not f.relative.endswith("scope.json")]
    assert len(copies) == len(list(machine.claude_memory.rglob("*.md"))) > 1
    assert {f.read_only_reason for f in copies} == {IMPORTED_BY_CODEX}


def test_each_copy_is_linked_to_its_original_and_back(tmp_path: Path) -> None:
    machine, key = _machine(tmp_path)
    discovery = discover(machine.context())
    links = link_imports([list_source(source) for source in discovery.sources])
    copy = f"codex:memories:{IMPORT}/{key}/MEMORY.md"
    original = f"claude-code:memory-{key}:memory/MEMORY.md"
    assert links.original_of[copy] == original
    assert links.imports_of[original] == (copy,)
    assert links.labels[copy] == f"imported from Claude Code (cwd {machine.project})"
    assert len(links.original_of) == len(list(machine.claude_memory.rglob("*.md")))


def _row(tree: TreeNode, file_id: str) -> TreeNode:
    source, _, path = file_id.rpartition(":")
    key = ref_key(MemoryFileRef(source, path))
    return next(node for node in tree.walk() if node.key == key)


def test_the_tree_labels_the_copy_and_opens_either_from_the_other(tmp_path: Path) -> None:
    machine, key = _machine(tmp_path)
    tree = build_tree(scan_machine(machine))
    copy_id = f"codex:memories:{IMPORT}/{key}/MEMORY.md"
    original_id = f"claude-code:memory-{key}:memory/MEMORY.md"
    copy, original = _row(tree, copy_id), _row(tree, original_id)
    assert copy.tag == "imported"
    assert copy.description == (
        f"Imported from Claude Code (cwd {machine.project}): a copy of {original_id}"
    )
    assert copy.linked == MemoryFileRef(f"claude-code:memory-{key}", "memory/MEMORY.md")
    assert original.linked == MemoryFileRef("codex:memories", f"{IMPORT}/{key}/MEMORY.md")
    assert f"Linked to {copy_id}: right-click to open it" in (row_tooltip(original, None) or "")
    assert "Linked to" not in original.description  # the row's one line stays its own
    assert row_actions(copy)[0] is RowAction.OPEN_LINKED
    assert row_actions(original)[0] is RowAction.OPEN_LINKED
    assert linked_text(copy) == "Open the original in Claude Code's memory"
    assert linked_text(original) == "Open Codex's import of it"
