"""Claude Code's auto memory where its settings put it (`autoMemoryDirectory`, read as
Claude Code reads it), its last consolidation (`.consolidate-lock`), and its subagents'
memory (`agent-memory/`) in a section of its own."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from memtab.cli.memory.source_commands import _source_row as source_row
from memtab.components.tree.nodes import TreeNode
from memtab.components.tree.sources import SUBAGENTS_GROUP_KEY, build_source_sections
from memtab.components.tree.sources_scan import SourcesScan
from memtab.sources.claude.settings import (
    CONSOLIDATE_LOCK,
    memory_path,
    user_auto_memory_directory,
)
from memtab.sources.discovery import scan
from memtab.sources.model import FileKind, SourceListing
from memtab.store.paths import project_dir_name
from support.agent_machine import Machine

LOCK_AT_MS = 1_767_225_600_000


def listings_by_id(machine: Machine) -> dict[str, SourceListing]:
    return {listing.source.id: listing for listing in scan(machine.context())[1]}


def sections_of(machine: Machine) -> list[TreeNode]:
    discovery, listings = scan(machine.context())
    return build_source_sections(SourcesScan(discovery, tuple(listings)))


def write_settings(path: Path, value: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"autoMemoryDirectory": value}), encoding="utf-8")


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("~/sync/claude-memory", "/home/dev/sync/claude-memory"),
        ("/srv/memory/", "/srv/memory"),
        ("relative/memory", None),
        ("/", None),
        ("//server/share/memory", None),
        ("/srv/me\0mory", None),
        (42, None),
        ("  ", None),
    ],
)
def test_a_setting_is_taken_as_claude_code_takes_it(raw: object, expected: str | None) -> None:
    found = memory_path(raw, home="/home/dev")
    assert (str(found) if found else None) == expected


def test_the_user_setting_moves_every_projects_auto_memory(
    machine: Machine, tmp_path: Path
) -> None:
    moved = tmp_path / "synced-memory"
    (moved / "testing.md").parent.mkdir(parents=True)
    (moved / "MEMORY.md").write_text("- [Testing](testing.md)\n", encoding="utf-8")
    (moved / "testing.md").write_text("---\ntype: feedback\n---\nUse pytest.\n", encoding="utf-8")
    write_settings(machine.claude / "settings.json", str(moved))
    # A repository's shared settings may not move it (they are committed).
    write_settings(machine.project / ".claude" / "settings.json", str(tmp_path / "elsewhere"))
    found = listings_by_id(machine)
    auto = found["claude-code:auto-memory"]
    assert auto.source.root == moved
    assert {f.relative: f.kind for f in auto.files} == {
        "MEMORY.md": FileKind.AUTO_MEMORY_INDEX,
        "testing.md": FileKind.AUTO_MEMORY_TOPIC,
    }
    assert str(machine.claude / "settings.json") in (auto.source.note or "")
    old = next(listing for key, listing in found.items() if key.startswith("claude-code:memory-"))
    assert f"reads auto memory from {moved}" in (old.source.note or "")
    assert not any(str(tmp_path / "elsewhere") in str(item.source.root) for item in found.values())


def test_managed_settings_come_before_the_users(machine: Machine, tmp_path: Path) -> None:
    managed = tmp_path / "etc" / "managed-settings.json"
    write_settings(managed, str(tmp_path / "policy"))
    write_settings(machine.claude / "settings.json", str(tmp_path / "mine"))
    chosen = user_auto_memory_directory(machine.claude, [managed])
    assert chosen is not None and chosen.path == tmp_path / "policy"
    managed.write_text("{not json", encoding="utf-8")  # unreadable: the next file decides
    chosen = user_auto_memory_directory(machine.claude, [managed])
    assert chosen is not None and chosen.path == tmp_path / "mine"


def test_a_projects_local_settings_move_its_auto_memory(machine: Machine, tmp_path: Path) -> None:
    moved = tmp_path / "acme-memory"
    moved.mkdir()
    (moved / "MEMORY.md").write_text("- acme notes\n", encoding="utf-8")
    write_settings(machine.project / ".claude" / "settings.local.json", str(moved))
    found = listings_by_id(machine)
    slug = project_dir_name(str(machine.project))
    local = found[f"claude-code:auto-memory-project-{slug}"]
    assert local.source.project == str(machine.project)
    assert [f.relative for f in local.files] == ["MEMORY.md"]


def test_the_consolidate_lock_says_when_it_was_last_consolidated(machine: Machine) -> None:
    lock = machine.claude_memory / CONSOLIDATE_LOCK
    lock.write_text("", encoding="utf-8")
    os.utime(lock, (LOCK_AT_MS / 1000, LOCK_AT_MS / 1000))
    found = listings_by_id(machine)
    auto = next(listing for key, listing in found.items() if key.startswith("claude-code:memory-"))
    assert auto.last_consolidated_ms == LOCK_AT_MS
    assert CONSOLIDATE_LOCK not in {f.name for f in auto.files}  # not a memory file
    assert found["claude-code:user"].last_consolidated_ms is None
    rows = [row for section in sections_of(machine) for row in section.children]
    row = next(r for r in rows if r.key == f"source:{auto.source.id}")
    assert row.description.startswith("Last consolidated ")
    assert row.subtitle == row.description.lower()  # drawn after the row's name
    assert source_row(auto).to_json()["lastConsolidatedAt"] == LOCK_AT_MS  # `memtab sources --json`


def test_subagent_memory_is_its_own_section(machine: Machine) -> None:
    reviewer = machine.claude / "agent-memory" / "code-reviewer"
    reviewer.mkdir(parents=True)
    (reviewer / "MEMORY.md").write_text("- [Style](style.md)\n", encoding="utf-8")
    (reviewer / "style.md").write_text("# House style\n", encoding="utf-8")
    (machine.claude / "agent-memory" / "stray.md").write_text("not a subagent's\n")
    project_agent = machine.project / ".claude" / "agent-memory-local" / "planner"
    project_agent.mkdir(parents=True)
    (project_agent / "MEMORY.md").write_text("- planning notes\n", encoding="utf-8")
    found = listings_by_id(machine)
    subagents = found["claude-code:agent-memory"]
    assert {f.relative: f.kind for f in subagents.files} == {
        "code-reviewer/MEMORY.md": FileKind.AUTO_MEMORY_INDEX,
        "code-reviewer/style.md": FileKind.AUTO_MEMORY_TOPIC,
    }
    slug = project_dir_name(str(machine.project))
    project_files = {f.relative for f in found[f"claude-code:project-{slug}"].files}
    assert ".claude/agent-memory-local/planner/MEMORY.md" in project_files
    section = next(s for s in sections_of(machine) if s.key == SUBAGENTS_GROUP_KEY)
    assert section.name == "Claude Code subagents"
    assert [row.key for row in section.children] == ["source:claude-code:agent-memory"]
