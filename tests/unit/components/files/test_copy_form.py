"""Copy to…'s form without Qt (`components.files.copy.CopyForm`): where a copy lands as the
name is typed, why it cannot, when Claude Code's memory type is asked and what is chosen —
on a developer's machine built from real stores (support.agent_machine)."""

from __future__ import annotations

from pathlib import Path

from memtab.components.files.copy import (
    CopyChoice,
    CopyForm,
    copy_origin,
    copy_targets,
    target_icon,
)
from memtab.components.tree.nodes import NodeKind, TreeNode, file_key
from memtab.file_protocol.file_ref import MemoryFileRef
from memtab.store.paths import Scope, parse_file_path
from support.agent_machine import build_machine, scan_machine


def test_the_form_says_where_a_copy_lands_or_why_not_and_asks_a_type_only_for_claude(
    tmp_path: Path,
) -> None:
    scan = scan_machine(build_machine(tmp_path))
    targets = copy_targets(scan)
    form = CopyForm(targets)
    glob = next(i for i, t in enumerate(targets) if t.scope is Scope.GLOBAL)
    claude = next(i for i, t in enumerate(targets) if t.asks_topic_type)
    assert target_icon(targets[glob]) == "folder"
    assert target_icon(targets[claude]) == f"agent-{targets[claude].agent}"
    state = form.state(glob, " notes ")
    assert state.where == "/memories/global/notes.md" and state.problem is None
    assert not state.asks_type
    empty = form.state(glob, "  ")
    assert empty.where == "—" and empty.problem == "Enter a name"
    nowhere = form.state(len(targets), "notes")
    assert nowhere.problem == "Nowhere to copy to" and not nowhere.asks_type
    assert form.state(claude, "notes").asks_type
    assert "plain name" in (form.state(claude, "sub/notes").problem or "")
    assert form.choice(glob, " notes ", "user") == CopyChoice(targets[glob], "notes", None)
    assert form.choice(claude, "notes", "user") == CopyChoice(targets[claude], "notes", "user")
    assert form.choice(claude, "", "user") is None
    assert form.choice(-1, "notes", "user") is None


def test_only_a_file_row_with_a_memory_file_is_copied(tmp_path: Path) -> None:
    scan = scan_machine(build_machine(tmp_path))
    path = parse_file_path("/memories/global/gone-or-never-was.md")
    row = TreeNode(file_key(path), NodeKind.FILE, path.name, path=path)
    assert copy_origin(scan, row) is None  # no ref: an orphaned project dir's file
    row.ref = MemoryFileRef.of_mux(path)
    folder = TreeNode("dir", NodeKind.DIRECTORY, "tools", ref=row.ref)
    assert copy_origin(scan, folder) is None and copy_origin(None, row) is None
