"""Reading (capped, rendered) and saving (sha-checked, read-only rules kept) source files."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from memtab.file_protocol.file_ref import SourceError
from memtab.fs.locking.locks import interprocess_lock
from memtab.sources.content import file_lock_path, read_source_file, save_source_file
from memtab.sources.model import ReadOnlyError, SourceFile
from memtab.store.files import MAX_FILE_BYTES, content_sha256
from memtab.store.scopes.memory import CapError, NotEditableError, SaveConflictError
from support.agent_machine import Machine
from support.codex_home import ROLLOUT

from .helpers import file_in


def test_a_read_gives_the_text_and_the_sha_a_save_checks(machine: Machine) -> None:
    source, file = file_in(machine, "claude-code:memory-", "memory/project_config-sync.md")
    content = read_source_file(source, file)
    assert content.text == file.physical.read_text(encoding="utf-8")
    assert content.sha256 == content_sha256(content.text) and not content.rendered
    new_sha = save_source_file(source, file, content.text + "\n- one more line\n", content.sha256)
    assert file.physical.read_text(encoding="utf-8").endswith("- one more line\n")
    assert new_sha == read_source_file(source, file).sha256


def test_a_save_over_a_change_made_meanwhile_is_refused_and_changes_nothing(
    machine: Machine,
) -> None:
    source, file = file_in(machine, "claude-code:user", "CLAUDE.md")
    loaded = read_source_file(source, file)
    file.physical.write_text("# Claude Code rewrote this meanwhile\n", encoding="utf-8")
    with pytest.raises(SaveConflictError) as conflict:
        save_source_file(source, file, "my edit\n", loaded.sha256)
    assert conflict.value.kind == "changed"
    assert file.physical.read_text(encoding="utf-8") == "# Claude Code rewrote this meanwhile\n"
    file.physical.unlink()
    with pytest.raises(SaveConflictError) as missing:
        save_source_file(source, file, "my edit\n", loaded.sha256)
    assert missing.value.kind == "missing" and not file.physical.exists()


def test_read_only_files_are_never_written(machine: Machine) -> None:
    for prefix, relative in (
        ("codex:memories", ROLLOUT),
        ("loki:", "semantic/patterns.json"),
    ):
        source, file = file_in(machine, prefix, relative)
        before = file.physical.read_bytes()
        loaded = read_source_file(source, file)
        with pytest.raises(ReadOnlyError, match="read-only"):
            save_source_file(source, file, "overwritten\n", loaded.sha256)
        assert file.physical.read_bytes() == before


def test_a_save_over_the_cap_or_into_a_binary_file_is_refused(machine: Machine) -> None:
    source, file = file_in(machine, "codex:user", "AGENTS.md")
    loaded = read_source_file(source, file)
    with pytest.raises(CapError):
        save_source_file(source, file, "x" * (MAX_FILE_BYTES + 1), loaded.sha256)
    file.physical.write_bytes(b"# now\x00binary")
    source, file = file_in(machine, "codex:user", "AGENTS.md")  # listed again: read-only
    assert not file.writable
    writable_view = SourceFile(**{**file.__dict__, "read_only_reason": None})
    with pytest.raises(NotEditableError):
        save_source_file(source, writable_view, "text\n", read_source_file(source, file).sha256)


def test_reads_stop_at_the_cap(machine: Machine) -> None:
    (machine.codex / "AGENTS.md").write_text("y" * (MAX_FILE_BYTES + 5000))
    source, file = file_in(machine, "codex:user", "AGENTS.md")
    content = read_source_file(source, file)
    assert content.over_cap and len(content.text) == MAX_FILE_BYTES and content.note
    assert content.size_bytes == MAX_FILE_BYTES + 5000


def test_a_write_through_a_linked_directory_is_refused(machine: Machine, tmp_path: Path) -> None:
    outside = tmp_path / "outside-rules"
    outside.mkdir()
    rules = machine.project / ".claude" / "rules"
    for child in rules.iterdir():
        child.unlink()
    rules.rmdir()
    rules.symlink_to(outside)
    source, instructions = file_in(machine, "claude-code:project-", "CLAUDE.md")
    for relative in (".claude/rules/new.md", ".claude/rules/sub/new.md"):
        new = SourceFile(
            source.id, relative, machine.project / relative, instructions.kind, "", 0, 0
        )
        with pytest.raises(SourceError, match="is a link, and Memtab does not write"):
            save_source_file(source, new, "# new\n", None)
    assert list(outside.iterdir()) == []  # not even a directory was made there


def test_a_save_waits_for_the_files_lock_and_then_sees_the_change(
    machine: Machine, tmp_path: Path
) -> None:
    """Another Memtab holding the file's lock: the save waits, then finds the file changed
    by the holder and refuses instead of overwriting it."""
    source, file = file_in(machine, "claude-code:user", "CLAUDE.md")
    loaded = read_source_file(source, file)
    env = {"MEMTAB_CONFIG_DIR": str(tmp_path / "config")}
    outcome: list[str] = []

    def save() -> None:
        try:
            save_source_file(source, file, "mine\n", loaded.sha256, env=env)
            outcome.append("saved")
        except SaveConflictError as conflict:
            outcome.append(conflict.kind)

    with interprocess_lock(file_lock_path(file.physical, env)):
        saver = threading.Thread(target=save)
        saver.start()
        saver.join(0.3)
        assert saver.is_alive() and not outcome  # waiting for the lock
        file.physical.write_text("theirs\n")
    saver.join(10)
    assert outcome == ["changed"]
    assert file.physical.read_text() == "theirs\n"


def _link_project_folder_outside(machine: Machine, tmp_path: Path) -> Path:
    """Move Claude Code's folder of the project outside and leave a link in its place
    (`~/.claude/projects/<name>` → elsewhere), as a user syncing one project might."""
    folder = machine.claude_memory.parent
    outside = tmp_path / "outside" / folder.name
    outside.parent.mkdir()
    folder.rename(outside)
    folder.symlink_to(outside)
    return outside


def test_a_linked_agent_folder_is_read_through_but_never_written(
    machine: Machine, tmp_path: Path
) -> None:
    outside = _link_project_folder_outside(machine, tmp_path)
    before = {p: p.read_bytes() for p in outside.rglob("*") if p.is_file()}
    source, file = file_in(machine, "claude-code:memory-", "memory/project_config-sync.md")
    assert source.read_only_reason is not None and "is a link to" in source.read_only_reason
    assert not file.writable and file.read_only_reason == source.read_only_reason
    loaded = read_source_file(source, file)  # read as Claude Code reads it
    assert loaded.text == (outside / "memory" / "project_config-sync.md").read_text()
    writable = SourceFile(**{**file.__dict__, "read_only_reason": None})
    with pytest.raises(SourceError, match="is a link, and Memtab does not write"):
        save_source_file(source, writable, "overwritten\n", loaded.sha256)
    new = SourceFile(**{**writable.__dict__, "relative": "memory/new.md"})
    with pytest.raises(SourceError, match="is a link, and Memtab does not write"):
        save_source_file(source, new, "# new\n", None)
    assert {p: p.read_bytes() for p in outside.rglob("*") if p.is_file()} == before


def test_a_folder_swapped_for_a_link_after_discovery_is_not_written_through(
    machine: Machine, tmp_path: Path
) -> None:
    source, file = file_in(machine, "claude-code:memory-", "memory/project_config-sync.md")
    assert source.writable and file.writable
    loaded = read_source_file(source, file)
    outside = _link_project_folder_outside(machine, tmp_path)
    target = outside / "memory" / "project_config-sync.md"
    before = target.read_bytes()
    with pytest.raises(SourceError, match="is a link, and Memtab does not write"):
        save_source_file(source, file, "overwritten\n", loaded.sha256)
    assert target.read_bytes() == before


def test_an_agent_root_the_user_chose_may_itself_be_a_link(
    machine: Machine, tmp_path: Path
) -> None:
    """`~/.claude` → a dotfiles repository: the root is resolved once and trusted."""
    dotfiles = tmp_path / "dotfiles" / "claude"
    dotfiles.parent.mkdir()
    machine.claude.rename(dotfiles)
    machine.claude.symlink_to(dotfiles)
    source, file = file_in(machine, "claude-code:memory-", "memory/project_config-sync.md")
    assert source.writable and source.trusted_root == dotfiles
    loaded = read_source_file(source, file)
    save_source_file(source, file, loaded.text + "- saved\n", loaded.sha256)
    saved = dotfiles / "projects" / machine.claude_memory.parent.name / "memory"
    assert (saved / "project_config-sync.md").read_text().endswith("- saved\n")
