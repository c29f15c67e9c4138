"""Gemini CLI's memory as a source, on a home laid out as Gemini CLI 0.61 writes it
(`support.gemini_home`): its three tiers found and listed, its context file names and
project ids read as Gemini CLI reads them, every file writable through the sha-checked save."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from memtab.check.engine import CheckEngine
from memtab.sources.agent_file import AgentFile, SourceVersions
from memtab.sources.discovery import discover, scan
from memtab.sources.gemini.inbox import EXTRACTION_LOCK, extraction_running
from memtab.sources.gemini.settings import SettingsReader, context_names
from memtab.sources.gemini.source import gemini_projects, slugify
from memtab.sources.listing import source_file, target_file
from memtab.sources.model import FileKind, Layout, SourceListing
from memtab.store.errors import SaveConflictError
from support.agent_machine import Machine
from support.gemini_home import build_gemini_home


def _listings(machine: Machine, **env: str) -> dict[str, SourceListing]:
    _, listings = scan(machine.context(**env))
    return {listing.source.id: listing for listing in listings if listing.source.agent == "gemini"}


def test_the_three_tiers_are_found_each_with_its_files(machine: Machine) -> None:
    gemini = build_gemini_home(machine.user, machine.project)

    found = _listings(machine)

    project_id = next(i for i in found if i.startswith("gemini:project-"))
    assert sorted(found) == sorted(["gemini:user", "gemini:memory-acme-api", project_id])
    user, memory, project = found["gemini:user"], found["gemini:memory-acme-api"], found[project_id]
    assert (user.source.layout, user.source.project) == (Layout.GEMINI_USER, None)
    assert [(f.relative, f.kind) for f in user.files] == [("GEMINI.md", FileKind.INSTRUCTIONS)]
    assert [(f.relative, f.kind) for f in memory.files] == [
        ("MEMORY.md", FileKind.MEMORY_INDEX),
        ("build-notes.md", FileKind.NOTE),
        ("skills/run-api-tests/SKILL.md", FileKind.SKILL),
    ]
    assert memory.source.project == str(machine.project)
    assert memory.source.root == gemini.memory
    assert [f.relative for f in project.files] == ["GEMINI.md"]
    # The inbox, the extraction's state and settings are not memory files.
    every = [f.relative for listing in found.values() for f in listing.files]
    assert not any(".inbox" in r or "extraction" in r or r.endswith(".json") for r in every)
    assert all(f.writable for listing in found.values() for f in listing.files)


def test_gemini_cli_home_names_the_folder_that_holds_its_directory(machine: Machine) -> None:
    elsewhere = machine.user / "elsewhere"
    build_gemini_home(elsewhere, machine.project)

    discovery = discover(machine.context(GEMINI_CLI_HOME=str(elsewhere)))

    user = discovery.source("gemini:user")
    assert user.root == elsewhere / ".gemini"
    looked = [x for x in discovery.looked_for if x.agent == "gemini"]
    assert [(x.path, x.how, x.found) for x in looked] == [
        (str(elsewhere / ".gemini"), "GEMINI_CLI_HOME", True)
    ]


def test_context_file_names_come_before_gemini_md_which_stays(machine: Machine) -> None:
    build_gemini_home(machine.user, machine.project, context_names=["AGENTS.md", " CONTEXT.md "])
    (machine.user / ".gemini" / "AGENTS.md").write_text("# Global agents\n")

    found = _listings(machine)

    user = found["gemini:user"]
    assert user.source.context_names == ("AGENTS.md", "CONTEXT.md", "GEMINI.md")
    assert [f.relative for f in user.files] == ["AGENTS.md", "GEMINI.md"]
    project = next(v for k, v in found.items() if k.startswith("gemini:project-"))
    # The project's AGENTS.md is read by Gemini CLI now: it is listed with its GEMINI.md.
    assert [f.relative for f in project.files] == ["AGENTS.md", "GEMINI.md"]


def test_settings_read_as_gemini_cli_reads_them(tmp_path: Path) -> None:
    gemini = tmp_path / "home" / ".gemini"
    project = tmp_path / "src" / "app"
    (project / ".gemini").mkdir(parents=True)
    gemini.mkdir(parents=True)
    (gemini / "settings.json").write_text(
        '{\n  // mine\n  "context": {"fileName": ["${DOCS:-docs}/CTX.md", "A.md"],\n'
        '  /* a block */ "memoryBoundaryMarkers": ["$MARK"]},\n'
        '  "experimental": {"autoMemory": true}\n}\n'
    )
    (project / ".gemini" / "settings.json").write_text('{"context": {"fileName": "P.md"}}')
    system = tmp_path / "system.json"
    system.write_text('{"context": {"importFormat": "flat"}}')
    env = {"MARK": ".hg", "GEMINI_CLI_SYSTEM_SETTINGS_PATH": str(system)}
    reader = SettingsReader(gemini, env)

    user = reader.settings()
    untrusted = reader.settings(project)
    (gemini / "trustedFolders.json").write_text(json.dumps({str(project): "TRUST_FOLDER"}))
    trusted = SettingsReader(gemini, env).settings(project)

    assert user.context_names == ("docs/CTX.md", "A.md", "GEMINI.md")
    assert (user.boundary_markers, user.import_format, user.auto_memory) == ((".hg",), "flat", True)
    assert untrusted.context_names == user.context_names  # an untrusted folder's are not read
    assert trusted.context_names == ("P.md", "GEMINI.md")
    assert trusted.global_name == "P.md"


def test_a_settings_file_that_is_no_object_is_said_and_read_as_empty(tmp_path: Path) -> None:
    gemini = tmp_path / ".gemini"
    gemini.mkdir()
    (gemini / "settings.json").write_text('{"context": {"fileName": "A.md",}}')  # a comma
    settings = SettingsReader(gemini, {}, system=False).settings()
    assert settings.context_names == ("GEMINI.md",)
    assert len(settings.problems) == 1 and "Gemini CLI stops at its start" in settings.problems[0]


def test_context_names_drop_the_empty_and_keep_each_once() -> None:
    assert context_names(["", " GEMINI.md ", "./a/../B.md", 3]) == ("GEMINI.md", "B.md")
    assert context_names(None) == ("GEMINI.md",)


def test_project_ids_are_made_as_gemini_cli_makes_them() -> None:
    assert slugify("acme-api") == "acme-api"
    assert slugify("My App (v2)") == "my-app-v2"
    assert slugify("...") == "project"
    assert slugify("Ünïcode") == "n-code"


def test_projects_come_from_the_registry_and_from_markers_it_lost(tmp_path: Path) -> None:
    gemini = tmp_path / ".gemini"
    for project_id, owner in (("one", "/src/one"), ("two", "/src/two"), ("stolen", "/src/x")):
        (gemini / "tmp" / project_id).mkdir(parents=True)
        (gemini / "tmp" / project_id / ".project_root").write_text(owner)
    (gemini / "tmp" / ("a" * 64)).mkdir()  # an older Gemini CLI's hashed folder: no marker
    (gemini / "projects.json").write_text(
        json.dumps({"projects": {"/src/one": "one", "/src/y": "stolen", "rel": "rel"}}, indent=2)
    )

    found = [(p.path, p.project_id) for p in gemini_projects(gemini)]

    # `/src/y` is not the owner `stolen`'s marker names; `two` is known by its marker alone.
    assert found == [("/src/one", "one"), ("/src/two", "two"), ("/src/x", "stolen")]


def test_where_gemini_memory_may_appear_a_change_finds_the_sources_again(
    machine: Machine,
) -> None:
    """The window finds the sources again when Gemini CLI makes a project's private memory
    (its first extraction), a project's folder in `tmp/` (its first session there), its
    `tmp/` (its first session anywhere) or a project's own GEMINI.md (issue 70 point 5)."""
    gemini = build_gemini_home(machine.user, machine.project)
    shutil.rmtree(gemini.memory)
    (machine.project / "GEMINI.md").unlink()

    discovery = discover(machine.context())

    assert "gemini:memory-acme-api" not in {s.id for s in discovery.sources}
    assert discovery.opens(str(gemini.memory))
    assert discovery.opens(str(gemini.gemini_dir / "tmp" / "webapp"))
    assert discovery.opens(str(machine.project / "GEMINI.md"))
    # Gemini CLI writes these often, and they are no memory.
    assert not discovery.opens(str(gemini.memory.parent / "logs.json"))
    assert not discovery.opens(str(gemini.memory.parent / "chats"))
    assert not discovery.opens(str(gemini.gemini_dir / "settings.json"))
    shutil.rmtree(gemini.gemini_dir / "tmp")
    assert discover(machine.context()).opens(str(gemini.gemini_dir / "tmp"))


def test_a_memory_folder_reached_through_a_link_is_read_only(machine: Machine) -> None:
    gemini = build_gemini_home(machine.user, machine.project)
    moved = machine.user / "moved-memory"
    gemini.memory.rename(moved)
    os.symlink(moved, gemini.memory)

    memory = _listings(machine)["gemini:memory-acme-api"]

    assert memory.files and not any(f.writable for f in memory.files)
    assert "is a link" in (memory.source.read_only_reason or "")


def test_a_private_note_is_saved_sha_checked_and_kept_in_history(machine: Machine) -> None:
    build_gemini_home(machine.user, machine.project)
    source = discover(machine.context()).source("gemini:memory-acme-api")
    file = source_file(source, "MEMORY.md")
    assert file is not None
    agent_file = AgentFile(source, file, SourceVersions(machine.home))
    before = agent_file.read()

    agent_file.save(before.content + "- Deploys need a ticket.\n", before.sha256)

    with pytest.raises(SaveConflictError):
        agent_file.save("stale", before.sha256)
    assert "Deploys need a ticket" in file.physical.read_text()
    assert [v.op for v in agent_file.versions()][:1] == ["edit"]


def test_only_notes_of_the_memory_folder_itself_can_be_created(machine: Machine) -> None:
    build_gemini_home(machine.user, machine.project)
    source = discover(machine.context()).source("gemini:memory-acme-api")
    assert target_file(source, "new-note.md").kind is FileKind.NOTE
    for refused in ("notes/deep.md", "notes.txt", "skills/x/other.md"):
        with pytest.raises(Exception, match="has no place"):
            target_file(source, refused)


def test_a_note_memory_md_names_nowhere_is_one_gemini_cli_never_finds(
    machine: Machine, monkeypatch: pytest.MonkeyPatch
) -> None:
    gemini = build_gemini_home(machine.user, machine.project)
    (gemini.memory / "orphan-note.md").write_text("# Orphan\n\nNobody points here.\n")

    memory = _listings(machine)["gemini:memory-acme-api"]

    warned = {f.relative: f.warning_label for f in memory.files if f.warning}
    assert warned == {"orphan-note.md": "not in index"}  # build-notes.md is pointed to
    monkeypatch.setenv("HOME", str(machine.user))  # where the check finds ~/.gemini
    report = CheckEngine(machine.home, env=machine.env, find_program=lambda _: "/bin/x").check()
    (found,) = [f for f in report.findings if f.kind == "not-in-index"]
    assert (found.path, found.agent, found.scope) == (
        "gemini:memory-acme-api:orphan-note.md",
        "gemini",
        "project",
    )
    assert found.message == "Gemini CLI never finds this note: MEMORY.md does not point to it"


def test_an_extraction_lock_is_never_asked_of_a_process_where_pids_cannot_be_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # One pid check (fs.locking.lease_lock.pid_alive): on Windows os.kill(pid, 0) is not a
    # question, so a fresh lock stands until it is stale by its age, as Gemini CLI's does.
    gone = 2**22 + 12345  # past Linux's largest pid: no process has it
    (tmp_path / EXTRACTION_LOCK).write_text(
        json.dumps({"pid": gone, "startedAt": "2099-01-01T00:00:00.000Z"})
    )
    assert extraction_running(tmp_path) is None  # asked here: its process is gone
    monkeypatch.setattr("sys.platform", "win32")
    monkeypatch.setattr(os, "kill", lambda *_: pytest.fail("os.kill asked on Windows"))
    lock = extraction_running(tmp_path)
    assert lock is not None and lock.pid == gone
