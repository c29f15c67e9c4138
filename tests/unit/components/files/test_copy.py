"""Copy to… in the Memory tab's rules (no Qt): where a memory file can go and the copy
itself, from any memory file (mux's or another agent's) into mux's scopes or another
agent's memory, taken back by Edit → Undo — on a developer's machine built from real
stores (support.agent_machine)."""

from __future__ import annotations

from pathlib import Path

import pytest

from memtab.components.files.copy import copy_targets, copy_to
from memtab.components.files.ops import open_file
from memtab.components.files.undo import UndoStack, redo_step, undo_step
from memtab.components.tree.scan import HomeScan
from memtab.file_protocol.file_ref import MemoryFileRef, parse_file_ref
from memtab.file_protocol.memory_file import MemoryFile, MuxFile
from memtab.fs.atomic import atomic_write_text
from memtab.sources.copy import default_name
from memtab.store.history.versions import ScopeHistory
from memtab.store.paths import Scope, parse_file_path
from memtab.store.restore.from_history import trash
from memtab.store.scopes.memory import MemoryStore
from support.agent_machine import Machine, build_machine, scan_machine
from support.memory_paths import vpath


@pytest.fixture
def machine(tmp_path: Path) -> Machine:
    return build_machine(tmp_path)


def memory_source(scan: HomeScan) -> str:
    assert scan.sources is not None
    return next(
        listing.source.id
        for listing in scan.sources.listings
        if listing.source.id.startswith("claude-code:memory-")
    )


def topic(scan: HomeScan) -> MemoryFile:
    ref = MemoryFileRef(memory_source(scan), "memory/feedback_vercel-env-newline.md")
    file = open_file(scan, ref)
    assert file is not None
    return file


def mux_file(store: MemoryStore, raw: str) -> MemoryFile:
    return MuxFile(store, parse_file_path(raw))


def test_copy_targets_are_mux_scopes_and_sources_that_take_new_files(machine: Machine) -> None:
    scan = scan_machine(machine)
    memory_id = memory_source(scan)
    targets = {target.key: target for target in copy_targets(scan, topic(scan).ref)}
    assert {"mux:global", "mux:project", "mux:workspace"} <= set(targets)
    assert f"source:{memory_id}" not in targets  # not into where it comes from
    assert "source:claude-code:user" in targets and "source:codex:memories" in targets
    assert not any(key.startswith("source:loki:") for key in targets)  # loki is read-only
    assert not any(key.startswith("source:codex:project-") for key in targets)  # one AGENTS.md
    skill = targets["source:codex:memories"]
    assert skill.target_for("deploy") == "skills/deploy/SKILL.md"
    assert skill.ref_for("deploy") == MemoryFileRef("codex:memories", "skills/deploy/SKILL.md")
    assert skill.problem("a/b") is not None and skill.problem("") == "Enter a name"
    assert targets["mux:global"].target_for("tips.md") == "/memories/global/tips.md"
    assert targets["mux:global"].problem("../x") is not None


def test_a_linked_agent_folder_is_no_copy_target_and_a_copy_there_is_refused(
    machine: Machine, tmp_path: Path
) -> None:
    scan = scan_machine(machine)
    memory_id = memory_source(scan)
    target = next(t for t in copy_targets(scan) if t.key == f"source:{memory_id}")
    folder = machine.claude_memory.parent
    outside = tmp_path / "outside"
    folder.rename(outside)
    folder.symlink_to(outside)
    store = MemoryStore(machine.home, scan.workspace)
    store.create_file(vpath("/memories/global/tips.md"), "---\ndescription: Tips\n---\n\n- one\n")
    # Copy to… chosen before the folder became a link: refused, nothing written there.
    stack = UndoStack()
    origin = mux_file(store, "/memories/global/tips.md")
    result = copy_to(stack, store, origin, target, "tips", "user")
    assert not result.ok and "link" in (result.error or "")
    assert not (outside / "memory" / "tips.md").exists() and len(stack) == 0
    rescanned = scan_machine(machine)
    assert f"source:{memory_id}" not in {t.key for t in copy_targets(rescanned)}


def test_copy_to_converts_frontmatter_and_records_a_mux_copy_in_history(machine: Machine) -> None:
    scan = scan_machine(machine)
    memory_id = memory_source(scan)
    origin = topic(scan)
    assert default_name(origin.ref) == "feedback_vercel-env-newline"
    assert origin.memory_type == "feedback"
    store = MemoryStore(machine.home, scan.workspace)
    stack = UndoStack()
    target = next(t for t in copy_targets(scan, origin.ref) if t.scope is Scope.GLOBAL)
    result = copy_to(stack, store, origin, target, "vercel")
    assert result.ok and result.created == parse_file_ref("/memories/global/vercel.md")
    text = (machine.home.global_root / "vercel.md").read_text(encoding="utf-8")
    assert text.startswith("---\ndescription: vercel env add") and "type:" not in text
    versions = [
        version
        for version in ScopeHistory(machine.home, "global").versions()
        if version.path == "/memories/global/vercel.md"
    ]
    assert [(version.op, version.actor) for version in versions] == [("create", "user")]
    again = copy_to(stack, store, origin, target, "vercel")
    assert not again.ok and "already exists" in (again.error or "")
    # Back into Claude Code's auto memory as a topic of the chosen type.
    claude = next(t for t in copy_targets(scan) if t.key == f"source:{memory_id}")
    back = copy_to(
        stack, store, mux_file(store, "/memories/global/vercel.md"), claude, "user_vercel", "user"
    )
    assert back.ok, back.error
    assert back.created == MemoryFileRef(memory_id, "memory/user_vercel.md")
    written = (machine.claude_memory / "user_vercel.md").read_text(encoding="utf-8")
    assert "type: user" in written and "name:" in written


def test_undoing_a_copy_removes_only_what_the_copy_wrote(machine: Machine) -> None:
    scan = scan_machine(machine)
    origin = topic(scan)
    store = MemoryStore(machine.home, scan.workspace)
    targets = {target.key: target for target in copy_targets(scan, origin.ref)}
    stack = UndoStack()
    # Into mux: the copy goes to Recently deleted.
    assert copy_to(stack, store, origin, targets["mux:global"], "vercel").ok
    step = stack.pop()
    assert step is not None and step.description == "copy to vercel.md"
    assert step.affected == (parse_file_ref("/memories/global/vercel.md"),)
    assert undo_step(machine.home, step).ok
    assert not (machine.home.global_root / "vercel.md").exists()
    assert [item.path for item in trash(store)] == ["/memories/global/vercel.md"]
    # Into a Codex skill: the file and the folder made for it go, the skills folder stays.
    skills = machine.codex / "memories" / "skills"
    had_skills = skills.exists()
    assert copy_to(stack, store, origin, targets["source:codex:memories"], "vercel").ok
    assert (skills / "vercel" / "SKILL.md").is_file()
    step = stack.pop()
    assert step is not None
    result = undo_step(machine.home, step)
    assert result.ok, result.error
    assert not (skills / "vercel").exists() and skills.exists() == had_skills
    # Into Claude Code's user rules, then edited there: the undo keeps the edit.
    user = targets["source:claude-code:user"]
    assert copy_to(stack, store, origin, user, "vercel").ok
    rule = machine.claude / "rules" / "vercel.md"
    atomic_write_text(rule, rule.read_text(encoding="utf-8") + "- mine\n")
    step = stack.pop()
    assert step is not None
    refused = undo_step(machine.home, step)
    assert not refused.ok and "changed since it was copied" in (refused.error or "")
    assert rule.read_text(encoding="utf-8").endswith("- mine\n")
    # A copy that failed pushes nothing.
    assert not copy_to(stack, store, origin, user, "vercel").ok
    assert len(stack) == 0


def test_copy_to_refuses_a_name_that_leaves_its_place(machine: Machine) -> None:
    scan = scan_machine(machine)
    skill = next(t for t in copy_targets(scan) if t.key == "source:codex:memories")
    assert skill.problem("x") is None
    store = MemoryStore(machine.home, scan.workspace)
    store.create_file(vpath("/memories/global/x.md"), "# x\n")
    result = copy_to(UndoStack(), store, mux_file(store, "/memories/global/x.md"), skill, "../../x")
    assert not result.ok and "Invalid path" in (result.error or "")
    assert not (machine.codex / "x").exists()


def test_a_copy_taken_back_is_made_again_by_redo(machine: Machine) -> None:
    scan = scan_machine(machine)
    origin = topic(scan)
    store = MemoryStore(machine.home, scan.workspace)
    targets = {target.key: target for target in copy_targets(scan, origin.ref)}
    stack = UndoStack()
    assert copy_to(stack, store, origin, targets["source:claude-code:user"], "vercel").ok
    rule = machine.claude / "rules" / "vercel.md"
    copied = rule.read_text(encoding="utf-8")
    step = stack.peek()
    assert step is not None and stack.take(step)
    assert undo_step(machine.home, step, stack=stack).ok
    assert not rule.exists()
    again = stack.peek_redo()
    assert again is not None and stack.take_redo(again)
    result = redo_step(machine.home, again, stack=stack)
    assert result.ok, result.error
    assert result.message.startswith("Redid copy to vercel.md: Restored")
    assert rule.read_text(encoding="utf-8") == copied
    back = stack.peek()  # and Undo removes it once more
    assert back is not None and stack.take(back)
    assert undo_step(machine.home, back, stack=stack).ok and not rule.exists()
