"""Codex's memory as Codex writes it now (docs/formats.md §17.3): what its consolidation
keeps is editable with every file's rails, what it rewrites is not, `memory_summary.md`
keeps its `v1` line, and extensions are read-only with their manifest.

The home: the real store of `support.agent_machine` with what Codex writes beside it
(`support.codex_home`, each file as the source shows it)."""

from __future__ import annotations

import pytest

from memtab.file_protocol.memory_file import MemoryFileError
from memtab.sources.agent_file import AgentFile, SourceVersions
from memtab.sources.codex.summary import WITHOUT_VERSION_LINE, has_version_line
from memtab.sources.content import read_source_file, save_source_file
from memtab.sources.discovery import discover
from memtab.sources.layouts import GENERATED_BY_CODEX
from memtab.sources.listing import list_source, source_file
from memtab.sources.model import AgentFormatError, FileKind, Source, SourceFile, SourceListing
from support.agent_machine import Machine
from support.codex_home import EXTENSION, NOTE_NAME, ROLLOUT, lay_out_codex_memories


@pytest.fixture
def codex(machine: Machine) -> Machine:
    lay_out_codex_memories(machine.codex / "memories")
    return machine


def memories_of(machine: Machine) -> tuple[Source, SourceListing]:
    source = discover(machine.context()).source("codex:memories")
    return source, list_source(source)


def file_of(machine: Machine, relative: str) -> tuple[Source, SourceFile]:
    source, _ = memories_of(machine)
    found = source_file(source, relative)
    assert found is not None, relative
    return source, found


def test_what_codexs_consolidation_keeps_is_editable_what_it_rewrites_is_not(
    codex: Machine,
) -> None:
    _, listing = memories_of(codex)
    files = {f.relative: f for f in listing.files}
    # Its consolidation agent edits these from the workspace diff, and keeps a hand edit.
    for kept in ("MEMORY.md", "memory_summary.md", "skills/restore-session/SKILL.md"):
        assert files[kept].writable, kept
    assert files["MEMORY.md"].kind is FileKind.GENERATED
    # Rebuilt whole from Codex's database, or made for one run: an edit would be lost.
    for rewritten in ("raw_memories.md", "phase2_workspace_diff.md", ROLLOUT):
        assert files[rewritten].read_only_reason == GENERATED_BY_CODEX, rewritten
    # The user's notes are the way in; the rest of every extension is Codex's.
    assert files[f"extensions/ad_hoc/notes/{NOTE_NAME}"].writable
    for extension_file in (
        "extensions/ad_hoc/instructions.md",
        f"extensions/{EXTENSION}/instructions.md",
        f"extensions/{EXTENSION}/resources/index-a.md",
        f"extensions/{EXTENSION}/resources/unrelated.md",
        "extensions/external_agent_import/resources/acme-api/scope.json",
    ):
        reason = files[extension_file].read_only_reason
        assert reason is not None and "memory extension `" in reason, extension_file
    assert not any(name.startswith(".git") for name in files)


def test_an_edit_of_memory_md_is_saved_with_history(codex: Machine) -> None:
    source, file = file_of(codex, "MEMORY.md")
    history = SourceVersions(codex.home)
    before = read_source_file(source, file)
    edited = before.text.replace("# Task Group:", "# Task Group (checked by hand):", 1)
    AgentFile(source, file, history).save(edited, before.sha256)
    assert file.physical.read_text(encoding="utf-8") == edited
    (saved, kept) = history.versions(file.id)[:2]
    assert saved.op == "edit" and kept.sha256 == before.sha256  # what it held, kept first


def test_v1_is_kept_through_an_edit_of_the_summary(codex: Machine) -> None:
    source, file = file_of(codex, "memory_summary.md")
    loaded = read_source_file(source, file)
    assert has_version_line(loaded.text)
    edited = loaded.text.replace("## User preferences\n", "## User preferences\n\n- Be brief.\n")
    agent_file = AgentFile(source, file, SourceVersions(codex.home))
    sha = agent_file.save(edited, loaded.sha256)
    assert file.physical.read_text(encoding="utf-8").startswith("v1\n\n## User Profile\n")
    body = edited.split("\n", 1)[1]
    for lost in (body, " v1\n" + body, "\ufeffv1\n" + body, "V1\n" + body, "v1 \n" + body, ""):
        with pytest.raises(MemoryFileError, match="must begin with the line `v1`"):
            agent_file.save(lost, sha)
        assert file.physical.read_text(encoding="utf-8") == edited
    # Codex reads lines as Rust's `str::lines`: a CRLF line is still `v1`.
    crlf = edited.replace("\n", "\r\n")
    agent_file.save(crlf, sha)
    assert file.physical.read_bytes().startswith(b"v1\r\n")


def test_no_write_of_memtabs_removes_v1_a_restore_or_a_copy_included(codex: Machine) -> None:
    source, file = file_of(codex, "memory_summary.md")
    history = SourceVersions(codex.home)
    loaded = read_source_file(source, file)
    history.record(file, None, b"## User Profile\n\nAn old summary without its line.\n", "seen")
    (old,) = history.versions(file.id)
    agent_file = AgentFile(source, file, history)
    with pytest.raises(MemoryFileError, match="must begin with the line `v1`"):
        agent_file.restore(old.id)
    assert read_source_file(source, file).sha256 == loaded.sha256
    file.physical.unlink()  # gone: a copy may create it, only with its line
    new = source_file(source, "memory_summary.md") or file
    with pytest.raises(AgentFormatError):
        save_source_file(source, new, "## User Profile\n", None)
    assert not file.physical.exists()
    save_source_file(source, new, "v1\n\n## User Profile\n", None)
    assert file.physical.read_text(encoding="utf-8") == "v1\n\n## User Profile\n"
    assert WITHOUT_VERSION_LINE.startswith("Codex's memory_summary.md must begin")


def test_extensions_are_listed_with_their_manifest(codex: Machine) -> None:
    _, listing = memories_of(codex)
    by_name = {extension.name: extension for extension in listing.extensions}
    assert sorted(by_name) == ["ad_hoc", EXTENSION, "external_agent_import"]
    managed = by_name[EXTENSION]
    assert managed.description == "Project memory from the team wiki"
    assert managed.manifest == f"extensions/{EXTENSION}/manifest.json"
    assert managed.manifest_version == 1 and managed.problem is None
    assert [(r.source_id, managed.inside(r.relative), r.present) for r in managed.listed] == [
        ("project/index", "resources/index-a.md", True),
        ("project/topic", "resources/topic-b.md", True),
    ]
    assert managed.unlisted == (f"extensions/{EXTENSION}/resources/unrelated.md",)
    assert managed.summary() == "3 resources · manifest v1: 2 listed"
    assert by_name["ad_hoc"].notes == (f"extensions/ad_hoc/notes/{NOTE_NAME}",)
    assert by_name["ad_hoc"].summary() == "1 note"
    imported = by_name["external_agent_import"]
    assert imported.manifest is None and len(imported.resources) == 2
    # The manifest itself is shown rendered, read-only, as loki-mode's JSON is.
    manifest = next(f for f in listing.files if f.relative == managed.manifest)
    assert manifest.kind is FileKind.RENDERED and not manifest.writable
    shown = read_source_file(listing.source, manifest)
    assert shown.rendered and "`resources/topic-b.md` | project/topic" in shown.text


def test_a_manifest_codex_cannot_use_is_said_and_its_resources_still_listed(
    codex: Machine,
) -> None:
    manifest = codex.codex / "memories" / "extensions" / EXTENSION / "manifest.json"
    manifest.write_text('{"version": 2, "resources": {}}\n')
    _, listing = memories_of(codex)
    extension = next(e for e in listing.extensions if e.name == EXTENSION)
    assert extension.problem == "version 2, where Codex writes 1"
    assert len(extension.resources) == 3 and extension.listed == ()
    manifest.write_text("{not json")
    _, listing = memories_of(codex)
    extension = next(e for e in listing.extensions if e.name == EXTENSION)
    assert extension.problem is not None and "JSON" in extension.problem
    assert (
        "Codex cannot use it"
        in read_source_file(
            listing.source, next(f for f in listing.files if f.relative == extension.manifest)
        ).text
    )


def test_an_older_codexs_extensions_folder_and_buckets_keep_their_rules(codex: Machine) -> None:
    legacy = codex.codex / "memories_extensions" / "ad_hoc" / "notes"
    legacy.mkdir(parents=True)
    (legacy / NOTE_NAME).write_text("Use pnpm.\n")
    (legacy.parent / "instructions.md").write_text("# Ad-hoc notes\n")
    bucket = codex.codex / "memories" / "0123456789abcdef" / "memory"
    bucket.mkdir(parents=True)
    (bucket / "memory_summary.md").write_text("v1\n")
    source = discover(codex.context()).source("codex:memories_extensions")
    files = {f.relative: f for f in list_source(source).files}
    assert files[f"ad_hoc/notes/{NOTE_NAME}"].writable
    assert not files["ad_hoc/instructions.md"].writable
    _, listing = memories_of(codex)
    old = next(f for f in listing.files if f.relative.startswith("0123456789abcdef/"))
    assert old.read_only_reason == GENERATED_BY_CODEX  # the current Codex reads no bucket
