"""One protocol for every memory file: a mux file and another agent's file are read,
saved, restored and taken back alike (`memtab.file_protocol.memory_file`), on a developer's
machine built from real stores (support.agent_machine)."""

from __future__ import annotations

from pathlib import Path

import pytest

from memtab.components.files.ops import open_file
from memtab.components.tree.scan import HomeScan
from memtab.file_protocol.file_ref import MemoryFileRef, SourceError, parse_file_ref
from memtab.file_protocol.memory_file import (
    MemoryFile,
    MemoryFileError,
    MemoryFileMissingError,
    MuxFile,
)
from memtab.sources.layouts import GENERATED_BY_CODEX
from memtab.sources.open_file import open_memory_file
from memtab.store.errors import SaveConflictError
from memtab.store.paths import PathError, parse_file_path
from memtab.store.scopes.memory import MemoryStore
from support.agent_machine import Machine, build_machine, scan_machine
from support.codex_home import ROLLOUT
from support.memory_paths import vpath


@pytest.fixture
def machine(tmp_path: Path) -> Machine:
    return build_machine(tmp_path)


def agent_file(scan: HomeScan, file_id: str) -> MemoryFile:
    file = open_file(scan, MemoryFileRef.of_file_id(file_id))
    assert file is not None
    return file


# -- the reference ---------------------------------------------------------------------------


def test_one_parser_names_a_mux_file_and_another_agents_file() -> None:
    mux = parse_file_ref(" /memories/global/notes/a.md ")
    assert mux == MemoryFileRef.of_mux(parse_file_path("/memories/global/notes/a.md"))
    assert (mux.key, mux.name, mux.relative, mux.agent) == (
        "/memories/global/notes/a.md",
        "a.md",
        "notes/a.md",
        "mux",
    )
    assert mux.virtual_path == parse_file_path("/memories/global/notes/a.md")
    other = parse_file_ref("claude-code:user:rules/testing.md")
    assert (other.source_id, other.path, other.key) == (
        "claude-code:user",
        "rules/testing.md",
        "claude-code:user:rules/testing.md",
    )
    assert (other.agent, other.relative, other.virtual_path) == (
        "claude-code",
        "rules/testing.md",
        None,
    )
    assert parse_file_ref(other.key) == other and parse_file_ref(mux.key) == mux
    with pytest.raises(PathError):
        parse_file_ref("/memories/global")  # a scope, not a file
    with pytest.raises(SourceError, match="Not a file id"):
        parse_file_ref("mux:global:a.md")


def test_a_ref_is_within_a_folder_of_its_own_store_only() -> None:
    folder = MemoryFileRef.of_mux(parse_file_path("/memories/global/notes"))
    assert parse_file_ref("/memories/global/notes/a.md").is_within(folder)
    assert not parse_file_ref("/memories/global/notes-old/a.md").is_within(folder)
    rules = MemoryFileRef("claude-code:user", "rules")
    assert parse_file_ref("claude-code:user:rules/a.md").is_within(rules)
    assert not parse_file_ref("claude-code:project-x:rules/a.md").is_within(rules)


# -- another agent's file ----------------------------------------------------------------------


def test_another_agents_file_saves_against_the_sha_it_read(machine: Machine) -> None:
    scan = scan_machine(machine)
    file = agent_file(scan, "claude-code:user:CLAUDE.md")
    assert file.ref.key == "claude-code:user:CLAUDE.md"
    # The editor names it where it really is; the id stays the CLI's name for it.
    assert file.title == str(machine.claude / "CLAUDE.md")
    assert file.read_only_reason is None
    loaded = file.read()
    sha = file.save(loaded.content + "- Be brief.\n", loaded.sha256)
    assert (machine.claude / "CLAUDE.md").read_text(encoding="utf-8").endswith("- Be brief.\n")
    (machine.claude / "CLAUDE.md").write_text("# changed by Claude Code\n", encoding="utf-8")
    with pytest.raises(SaveConflictError):
        file.save("mine\n", sha)
    assert (machine.claude / "CLAUDE.md").read_text(
        encoding="utf-8"
    ) == "# changed by Claude Code\n"
    (machine.claude / "CLAUDE.md").unlink()
    with pytest.raises(MemoryFileMissingError):
        file.read()
    assert file.read_whole() is None
    file.save("recreated\n", None)  # a deleted file's draft is saved again
    assert (machine.claude / "CLAUDE.md").read_text(encoding="utf-8") == "recreated\n"
    # Every save was recorded: the version before the first comes back, and goes again.
    versions = file.versions()
    assert versions[0].op == "create" and "edit" in [v.op for v in versions]
    restored = file.restore(versions[-1].id)
    assert restored.file == file and not restored.unchanged and restored.before is not None
    assert file.restore(versions[-1].id).unchanged


def test_a_generated_file_is_read_only_and_says_who_writes_it(machine: Machine) -> None:
    scan = scan_machine(machine)
    file = agent_file(scan, f"codex:memories:{ROLLOUT}")
    assert file.read_only_reason == GENERATED_BY_CODEX
    before = (machine.codex / "memories" / ROLLOUT).read_bytes()
    with pytest.raises(MemoryFileError, match="read-only"):
        file.save("overwritten\n", file.read().sha256)
    assert (machine.codex / "memories" / ROLLOUT).read_bytes() == before


def test_a_file_no_listing_has_opens_as_nothing(machine: Machine) -> None:
    scan = scan_machine(machine)
    assert open_file(scan, MemoryFileRef.of_file_id("claude-code:user:rules/none.md")) is None
    assert open_memory_file(parse_file_ref("/memories/global/a.md"), machine.home) is None


# -- a mux file ----------------------------------------------------------------------------


def test_a_mux_file_reads_saves_and_restores_through_the_store(machine: Machine) -> None:
    scan = scan_machine(machine)
    store = MemoryStore(machine.home, scan.workspace)
    store.create_file(vpath("/memories/global/notes.md"), "one\n")
    file = open_file(scan, parse_file_ref("/memories/global/notes.md"))
    assert isinstance(file, MuxFile) and file == MuxFile(store, file.path)
    assert (file.title, file.label, file.read_only_reason) == (
        "/memories/global/notes.md",
        "notes.md",
        None,
    )
    loaded = file.read()
    file.save("two\n", loaded.sha256)
    assert file.read().content == "two\n" and file.read_whole() == b"two\n"
    with pytest.raises(MemoryFileError, match="limited to"):  # the store's refusal
        file.save("x" * 200_000, file.read().sha256)
    gone = MuxFile(store, parse_file_path("/memories/global/gone.md"))
    with pytest.raises(SaveConflictError):
        gone.save("x\n", "0" * 64)
    with pytest.raises(MemoryFileMissingError):
        gone.read()
    first = file.versions()[-1]
    restored = file.restore(first.id)
    assert file.read().content == "one\n" and restored.before is not None
    # Taken back only over what the restore wrote.
    file.restore(restored.before.id, expected_sha256=restored.sha256)
    assert file.read().content == "two\n"
    with pytest.raises(SaveConflictError):
        file.restore(first.id, expected_sha256=restored.sha256)
    assert file.in_store(store) == file
    assert file.in_store(None) is None
