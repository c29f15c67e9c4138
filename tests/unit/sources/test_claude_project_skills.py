"""A project's skills shown with its Claude Code memory (docs/formats.md §17.2): Claude Code
2.1.331's feedback memories also edit `.claude/skills/<name>/SKILL.md` ("fold the same
correction into the project skill that drives that step"), and may create
`.claude/skills/verify/SKILL.md` — listed, opened, saved with history, searched and
recorded like the project's CLAUDE.md."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from memtab.components.search.indexed import IndexedTexts
from memtab.components.search.search import SearchQuery, find_matches
from memtab.components.tree.nodes import MemoryFileRef, ref_key
from memtab.sources.agent_file import AgentFile, SourceVersions
from memtab.sources.discovery import discover, scan
from memtab.sources.listing import source_file
from memtab.sources.model import FileKind, Source
from memtab.watch.events import Targets
from memtab.watch.sources import record_source
from support.agent_machine import Machine, scan_machine

VERIFY = (
    "---\nname: verify\ndescription: How this project verifies a change\n---\n\nRun make check.\n"
)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def project_source(machine: Machine) -> Source:
    return next(s for s in discover(machine.context()).sources if s.layout == "claude-project")


def test_a_projects_skills_are_listed_with_its_claude_code_memory(machine: Machine) -> None:
    skills = machine.project / ".claude" / "skills"
    write(skills / "verify" / "SKILL.md", VERIFY)
    write(skills / "deploy" / "SKILL.md", "---\nname: deploy\n---\n\nUse the pipeline.\n")
    write(skills / "deploy" / "scripts" / "run.sh", "#!/bin/sh\n")  # a skill's own file
    write(skills / "README.md", "# Our skills\n")
    listing = next(
        listing
        for listing in scan(machine.context())[1]
        if listing.source.layout == "claude-project"
    )
    found = {f.relative: f for f in listing.files if f.relative.startswith(".claude/skills/")}
    assert {relative: f.kind for relative, f in found.items()} == {
        ".claude/skills/deploy/SKILL.md": FileKind.SKILL,
        ".claude/skills/verify/SKILL.md": FileKind.SKILL,
    }
    assert found[".claude/skills/verify/SKILL.md"].writable
    assert (
        found[".claude/skills/verify/SKILL.md"].description == "How this project verifies a change"
    )


def test_a_project_with_only_a_skill_is_found(machine: Machine) -> None:
    (machine.project / "CLAUDE.md").unlink()
    shutil.rmtree(machine.project / ".claude")
    assert not any(s.layout == "claude-project" for s in discover(machine.context()).sources)
    write(machine.project / ".claude" / "skills" / "verify" / "SKILL.md", VERIFY)
    source = project_source(machine)
    assert source.project == str(machine.project)
    assert source_file(source, ".claude/skills/verify/SKILL.md") is not None


def test_a_skill_is_edited_with_history_searched_and_recorded(
    machine: Machine, monkeypatch: pytest.MonkeyPatch
) -> None:
    skill = write(machine.project / ".claude" / "skills" / "verify" / "SKILL.md", VERIFY)
    source = project_source(machine)
    file = source_file(source, ".claude/skills/verify/SKILL.md")
    assert file is not None
    agent_file = AgentFile(source, file, SourceVersions(machine.home))
    loaded = agent_file.read()
    agent_file.save(loaded.content + "Then run the smoke test.\n", loaded.sha256)
    assert [version.op for version in agent_file.versions()] == ["edit", "seen"]

    found = find_matches(scan_machine(machine), SearchQuery.parse("smoke test"), IndexedTexts())
    assert ref_key(MemoryFileRef(source.id, ".claude/skills/verify/SKILL.md")) in found

    monkeypatch.setenv("HOME", str(machine.user))  # the recorder's discovery finds the project
    assert Targets.find(machine.home).concerned(str(skill)) == f"source:{source.id}"
    record_source(machine.home, source)  # what the project's other files hold
    skill.write_text(VERIFY + "Claude Code folded a correction in.\n", encoding="utf-8")
    assert record_source(machine.home, source).recorded == 1
    newest = agent_file.versions()[0]
    assert (newest.op, newest.actor) == ("edit", "external")
