"""Claude Code's memory as 2.1.331 lays it out (docs/formats.md §17.2): the user's own auto
memory, team memory (`team/<mount>/`, shared with the repository's collaborators, a mount
read-only where `CLAUDE_MEMORY_STORES` says `ro`), account memory
(`<config>/memory/personal/`, synced to the account), and what is none of them: `logs/`,
`sessions/`, `proposals/`, files that are not memory files and Claude Code's temp files.

The homes are laid out as its bundle writes them (its memory store chunk: the reserved
subtrees `["team","logs","sessions","proposals"]`, the memory suffixes
`[".md",".txt",".json",".jsonl"]`, the temp names `….tmp.<8 hex>`, `.<16 hex>.tmp~`,
`.purge.<uuid>.tmp`, `.<16 hex>.aside`, the sync's manifest `.memory-sync`), on top of a
real user's auto memory (tests/fixtures/shared/memory-stores/claude-code-auto-memory)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memtab.cli.memory.source_commands import _source_row as source_row
from memtab.components.search.indexed import IndexedTexts
from memtab.components.search.search import SearchQuery, find_matches
from memtab.components.tree.nodes import MemoryFileRef, NodeKind, TreeNode, ref_key
from memtab.components.tree.sources import build_source_sections
from memtab.components.tree.sources_scan import SourcesScan, scan_sources
from memtab.file_protocol.file_ref import SourceError
from memtab.sources.discovery import discover, scan
from memtab.sources.listing import source_file, target_file
from memtab.sources.model import FileKind, ReadOnlyError, SourceListing
from memtab.watch.events import RETARGET, Targets
from support.agent_machine import Machine, scan_machine

UUID = "3f2b8c1d-4e5a-4b6c-8d7e-9f0a1b2c3d4e"
REAL_FILES = {
    "MEMORY.md",
    "feedback_vercel-env-newline.md",
    "feedback_verify-before-asserting.md",
    "notiontalk-landing-strategy.md",
    "project_config-sync.md",
    "reference_vercel-cli-rest-api.md",
}


def write(path: Path, text: str = "x\n") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def lay_out_2_1_331(machine: Machine) -> None:
    """What Claude Code 2.1.331 keeps beside a user's own auto memory."""
    memory = machine.claude_memory
    team = memory / "team"
    write(team / "platform" / "MEMORY.md", "- [Deploys](deploys.md) — how we ship\n")
    write(
        team / "platform" / "deploys.md",
        "---\nname: deploys\ndescription: How the platform team ships\n"
        "metadata:\n  type: project\n---\n\nShip on Tuesdays.\n",
    )
    write(team / "platform" / "skills" / "release" / "SKILL.md", "---\nname: release\n---\n")
    write(team / "platform" / ".memory-sync", '{"v":1,"partition":"p"}')
    write(team / "docs" / "style.md", "---\ndescription: House style\n---\n\nShort words.\n")
    write(team / "legacy-note.md", "---\ndescription: Before mounts\n---\n")
    write(team / "MEMORY.md", "- [Legacy](legacy-note.md) — team memory's own index\n")
    # Not memory: the subtrees the personal store excludes, and Claude Code's own files.
    write(memory / "logs" / "2026" / "11" / "2026-11-20.md", "# Daily log\n")
    write(memory / "sessions" / "0b5c7a52.md", "# Session\n")
    write(memory / "proposals" / "skill-release.md", "# A proposal\n")
    write(memory / "Logs." / "upper.md", "# Claude Code folds the name: still logs\n")
    write(memory / "feedback_testing.md.tmp.1a2b3c4d", "half-written\n")
    write(memory / "feedback_testing.md.tmp~9f8e7d6c", "half-written\n")
    write(memory / ".0123456789abcdef.tmp~", "half-written\n")
    write(memory / ".0123456789abcdef.tmp", "half-written\n")
    write(memory / f".purge.{UUID}.tmp", "purged\n")
    write(memory / ".fedcba9876543210.aside", "set aside\n")
    write(memory / "diagram.png", "not a memory file\n")
    write(memory / "apply.marker", "")
    write(memory / ".memory-sync", '{"v":1,"partition":"user"}')
    # Kept: memory files of every suffix Claude Code takes.
    write(memory / "glossary.txt", "API: what the service serves\n")
    write(memory / "ports.json", '{"api": 8080}\n')
    # Account memory, synced to the account.
    account = machine.claude / "memory" / "personal"
    write(account / "preferences.md", "---\ndescription: How I like answers\n---\n\nShort.\n")
    write(account / ".memory-sync", '{"v":1,"partition":"account"}')


def listings(machine: Machine) -> dict[str, SourceListing]:
    return {listing.source.id: listing for listing in scan(machine.context())[1]}


def by_layout(found: dict[str, SourceListing], layout: str) -> SourceListing:
    return next(listing for listing in found.values() if listing.source.layout == layout)


def test_personal_team_and_account_memory_are_told_apart(machine: Machine) -> None:
    lay_out_2_1_331(machine)
    found = listings(machine)
    personal = by_layout(found, "claude-memory")
    memory = {f.relative for f in personal.files if f.kind is not FileKind.SESSION_SUMMARY}
    assert {relative.removeprefix("memory/") for relative in memory} == REAL_FILES | {
        "glossary.txt",
        "ports.json",
    }
    assert personal.source.shared == "account"  # its `.memory-sync`: synced to the account
    assert "Synced to your account" in (personal.source.note or "")

    team = by_layout(found, "claude-team-memory")
    assert team.source.root == machine.claude_memory / "team"
    assert team.source.project == str(machine.project)
    assert team.source.shared == "team"
    assert "shared with all repository collaborators" in (team.source.note or "")
    assert {f.relative: f.kind for f in team.files} == {
        "docs/style.md": FileKind.AUTO_MEMORY_TOPIC,
        "legacy-note.md": FileKind.AUTO_MEMORY_TOPIC,
        "MEMORY.md": FileKind.AUTO_MEMORY_INDEX,
        "platform/MEMORY.md": FileKind.AUTO_MEMORY_INDEX,
        "platform/deploys.md": FileKind.AUTO_MEMORY_TOPIC,
        "platform/skills/release/SKILL.md": FileKind.SKILL,
    }
    assert all(f.writable for f in team.files)

    account = found["claude-code:account-memory"]
    assert account.source.root == machine.claude / "memory" / "personal"
    assert [f.relative for f in account.files] == ["preferences.md"]
    assert (account.source.shared, account.source.note) == ("account", "Synced to your account")


def test_logs_sessions_proposals_and_temp_files_are_never_listed(machine: Machine) -> None:
    lay_out_2_1_331(machine)
    listed = [f.relative for listing in listings(machine).values() for f in listing.files]
    for part in ("logs/", "Logs./", "sessions/", "proposals/", ".tmp", ".aside", ".purge."):
        assert not [name for name in listed if part in name], part
    assert not [name for name in listed if name.endswith(("diagram.png", "apply.marker"))]
    source = by_layout(listings(machine), "claude-memory").source
    for relative in (
        "memory/logs/2026/11/2026-11-20.md",
        "memory/feedback_testing.md.tmp.1a2b3c4d",
    ):
        assert source_file(source, relative) is None
    # Nor may Memtab write one there (Copy to…, a restore): no memory file of this folder.
    for relative in ("memory/logs/today.md", "memory/proposals/x.md", "memory/team/x.md"):
        with pytest.raises(SourceError, match="has no place for"):
            target_file(source, relative)


def test_a_mount_claude_code_reads_only_is_read_only(machine: Machine) -> None:
    lay_out_2_1_331(machine)
    stores = [
        {"path": "/v1/code/memory/grouping/docs", "mode": "ro", "scope": "team"},
        {"path": "/v1/code/memory/grouping/platform-eng", "mount": "platform"},
    ]
    write(
        machine.claude / "settings.json",
        json.dumps({"env": {"CLAUDE_MEMORY_STORES": json.dumps(stores)}}),
    )
    team = by_layout(listings(machine), "claude-team-memory")
    modes = {f.relative: f.read_only_reason for f in team.files}
    assert modes["docs/style.md"] == (
        "Claude Code mounts the team memory 'docs' read-only (mode \"ro\" in CLAUDE_MEMORY_STORES)"
    )
    assert modes["platform/deploys.md"] is None
    with pytest.raises(ReadOnlyError, match="read-only"):
        target_file(team.source, "docs/new.md")
    assert target_file(team.source, "platform/new.md").relative == "platform/new.md"
    # Read-only, yet read: its text is searched as the writable mounts' is.
    found = find_matches(scan_machine(machine), SearchQuery.parse("short words"), IndexedTexts())
    assert ref_key(MemoryFileRef(team.source.id, "docs/style.md")) in found


def test_the_stores_of_the_environment_are_read_when_the_settings_have_none(
    machine: Machine,
) -> None:
    lay_out_2_1_331(machine)
    stores = json.dumps([{"path": "/memory/docs", "mode": "ro"}])
    team = next(
        listing
        for listing in scan(machine.context(CLAUDE_MEMORY_STORES=stores))[1]
        if listing.source.layout == "claude-team-memory"
    )
    assert team.file("docs/style.md").read_only_reason  # type: ignore[union-attr]
    # Not JSON, or an entry Claude Code refuses: it mounts nothing, nothing is read-only.
    for raw in ("[not json", json.dumps([{"path": "/memory/docs", "mode": "rx"}])):
        team = next(
            listing
            for listing in scan(machine.context(CLAUDE_MEMORY_STORES=raw))[1]
            if listing.source.layout == "claude-team-memory"
        )
        assert team.file("docs/style.md").writable  # type: ignore[union-attr]


def test_the_tree_names_each_memory_for_what_it_is(machine: Machine) -> None:
    lay_out_2_1_331(machine)
    discovery, found = scan(machine.context())
    sections = build_source_sections(SourcesScan(discovery, tuple(found)))

    def rows(section: TreeNode) -> dict[str, TreeNode]:
        return {row.name: row for row in section.children if row.kind is NodeKind.SOURCE}

    project = next(s for s in sections if s.physical == str(machine.project))
    team = rows(project)["Claude Code · team memory"]
    assert "shared with all repository collaborators" in team.description
    assert [child.name for child in team.children] == [
        "docs",
        "platform",
        "legacy-note.md",
        "MEMORY.md",
    ]
    assert "Synced to your account" in rows(project)["Claude Code · auto memory"].description
    claude = next(s for s in sections if s.key == "sources:agent:claude-code")
    assert rows(claude)["account memory"].description == "Synced to your account"
    account = next(item for item in found if item.source.id == "claude-code:account-memory")
    assert source_row(account).to_json()["shared"] == "account"  # `memtab sources --json`


def test_team_memory_appearing_later_is_found(
    machine: Machine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Claude Code syncs team memory in at a session's start: the first mount is a new
    source, which the recorder and the window find again."""
    monkeypatch.setenv("HOME", str(machine.user))  # the recorder's discovery finds ~/.claude
    targets = Targets.find(machine.home)
    previous = scan_sources(machine.home, None, None, lambda _home: machine.context())
    for found in (targets.sources.values(), previous.discovery.sources):
        assert not any(source.layout == "claude-team-memory" for source in found)
    first = write(machine.claude_memory / "team" / "platform" / "deploys.md")
    assert targets.concerned(str(first)) == RETARGET
    assert targets.concerned(str(machine.claude_memory / "logs" / "x.md")) is None

    again = scan_sources(
        machine.home, previous, frozenset({str(first)}), lambda _home: machine.context()
    )
    team = next(s for s in again.discovery.sources if s.layout == "claude-team-memory")
    assert again.listing(team.id).file("platform/deploys.md") is not None  # type: ignore[union-attr]
    assert discover(machine.context()).source(team.id).root == machine.claude_memory / "team"


def test_a_shared_skill_says_what_claude_code_does_not_take_of_it(machine: Machine) -> None:
    skills = machine.claude_memory / "team" / "platform" / "skills"
    write(skills / "plain" / "SKILL.md", "---\nname: plain\ndescription: Ship it\n---\n\nSteps.\n")
    write(
        skills / "powerful" / "SKILL.md",
        "---\nname: powerful\nallowed-tools: Bash(*)\nhooks:\n  PreToolUse: []\n---\n\n!`make`\n",
    )
    write(skills / "huge" / "SKILL.md", "---\nname: huge\n---\n" + "x" * (128 * 1024))
    team = by_layout(listings(machine), "claude-team-memory")
    warnings = {
        f.relative.split("/")[2]: (f.warning_label, f.warning)
        for f in team.files
        if f.kind is FileKind.SKILL
    }
    assert warnings == {
        "plain": (None, None),
        "powerful": (
            "keys ignored",
            "Claude Code ignores allowed-tools, hooks in a shared memory skill (and runs "
            "none of its inline shell): a skill from team memory cannot widen what it may do",
        ),
        "huge": ("over limit", "Over 128 KB: Claude Code skips a shared memory skill this large"),
    }
