"""What Claude Code reads at a session's start, by its documented rules (docs/formats.md
§17.6): the CLAUDE.md chain, `@`-imports, AGENTS.md per `instructionFiles` (the
agents-md plugin's README, v2.1.277) and auto memory's MEMORY.md up to its cut."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from memtab.loads.engine import compute_loads
from memtab.loads.records import AgentLoads
from support.agent_machine import WORKSPACE_ID, Machine


def claude(machine: Machine, directory: Path | None = None) -> AgentLoads:
    loads = compute_loads(
        machine.home,
        workspace_id=None if directory else WORKSPACE_ID,
        directory=str(directory) if directory else None,
        agents=("claude",),
        context=machine.context(),
    )
    return loads.agents[0]


def paths(agent: AgentLoads, machine: Machine) -> list[str]:
    """What is read at the start, in order (not the topic files recalled later)."""
    shown = []
    for file in agent.files:
        if file.when != "start":
            continue
        path = Path(file.physical_path or "")
        for base, label in ((machine.project, "<project>"), (machine.claude, "<config>")):
            if path == base or base in path.parents:
                shown.append(f"{label}/{path.relative_to(base).as_posix()}")
                break
        else:
            shown.append(str(path))
    return shown


def set_mode(machine: Machine, mode: str) -> None:
    settings = {"pluginConfigs": {"agents-md@builtin": {"options": {"instructionFiles": mode}}}}
    (machine.claude / "settings.json").write_text(json.dumps(settings), encoding="utf-8")


def memory_index(machine: Machine) -> str:
    return f"<config>/projects/{machine.claude_memory.parent.name}/memory/MEMORY.md"


def test_user_then_project_files_then_memory_md_cut_at_line_201(machine: Machine) -> None:
    agent = claude(machine)
    assert paths(agent, machine) == [
        "<config>/CLAUDE.md",
        "<config>/rules/testing.md",
        "<project>/CLAUDE.md",
        "<project>/.claude/rules/api.md",
        memory_index(machine),
    ]
    index = next(file for file in agent.files if file.kind == "memory")
    assert (index.lines, index.loaded_lines, index.cut_at_line) == (249, 200, 201)
    assert index.id is not None and index.id.endswith(":memory/MEMORY.md")
    assert agent.total_tokens == sum(f.loaded_tokens for f in agent.files)
    assert agent.notes[0] == "instructionFiles: claude-md-or-agents-md (default)"


def test_by_default_agents_md_is_read_only_without_a_claude_md(machine: Machine) -> None:
    assert "<project>/AGENTS.md" not in paths(claude(machine), machine)
    (machine.project / "CLAUDE.md").unlink()
    shown = paths(claude(machine), machine)
    assert "<project>/AGENTS.md" in shown
    assert shown.index("<project>/.claude/rules/api.md") < shown.index("<project>/AGENTS.md")


def test_a_claude_local_md_alone_still_keeps_agents_md_out(machine: Machine) -> None:
    (machine.project / "CLAUDE.md").unlink()
    (machine.project / "CLAUDE.local.md").write_text("mine\n", encoding="utf-8")
    assert "<project>/AGENTS.md" not in paths(claude(machine), machine)


def test_claude_md_mode_never_reads_agents_md(machine: Machine) -> None:
    (machine.project / "CLAUDE.md").unlink()
    set_mode(machine, "claude-md")
    agent = claude(machine)
    assert "<project>/AGENTS.md" not in paths(agent, machine)
    assert agent.notes[0].startswith("instructionFiles: claude-md (set in ")


def test_both_mode_reads_agents_md_beside_claude_md_but_not_twice(machine: Machine) -> None:
    set_mode(machine, "claude-md-and-agents-md")
    assert "<project>/AGENTS.md" in paths(claude(machine), machine)
    (machine.project / "CLAUDE.md").write_text("# acme\n\n@AGENTS.md\n", encoding="utf-8")
    agent = claude(machine)
    shown = paths(agent, machine)
    assert shown.count("<project>/AGENTS.md") == 1
    imported = agent.files[shown.index("<project>/AGENTS.md")]
    assert imported.imported_by == str(machine.project / "CLAUDE.md")
    assert imported.imported_at_line == 3  # the line that imports it
    assert imported.to_json()["importedAtLine"] == 3


def test_managed_only_keeps_the_managed_file_and_auto_memory(machine: Machine) -> None:
    set_mode(machine, "managed-only")
    assert paths(claude(machine), machine) == [memory_index(machine)]


def test_an_unknown_mode_reads_as_the_default(machine: Machine) -> None:
    set_mode(machine, "sometimes")
    assert claude(machine).notes[0].startswith("instructionFiles: claude-md-or-agents-md")


def test_imports_follow_each_file_up_to_five_hops_never_inside_code(machine: Machine) -> None:
    docs = machine.project / "docs"
    docs.mkdir()
    (machine.project / "CLAUDE.md").write_text(
        "See @docs/a.md and `@docs/not.md`.\n```\n@docs/fenced.md\n```\n", encoding="utf-8"
    )
    for name in ("not", "fenced"):
        (docs / f"{name}.md").write_text("never\n", encoding="utf-8")
    chain = "abcdefg"
    for this, following in itertools.pairwise(chain):
        (docs / f"{this}.md").write_text(f"{this}: @./{following}.md\n", encoding="utf-8")
    (docs / "g.md").write_text("the end\n", encoding="utf-8")
    shown = paths(claude(machine), machine)
    start = shown.index("<project>/CLAUDE.md")
    assert shown[start : start + 7] == [
        "<project>/CLAUDE.md",
        *(f"<project>/docs/{name}.md" for name in "abcde"),
        "<project>/.claude/rules/api.md",
    ]
    assert "<project>/docs/not.md" not in shown and "<project>/docs/fenced.md" not in shown


def test_a_rule_with_paths_waits_for_a_matching_file(machine: Machine) -> None:
    rule = machine.project / ".claude" / "rules" / "api.md"
    rule.write_text("---\npaths:\n  - src/api/**\n---\n# API rules\n", encoding="utf-8")
    assert "<project>/.claude/rules/api.md" not in paths(claude(machine), machine)


def test_every_directory_from_the_root_down_is_read_in_order(machine: Machine) -> None:
    inner = machine.project / "services" / "billing"
    inner.mkdir(parents=True)
    (inner / "CLAUDE.md").write_text("# billing\n", encoding="utf-8")
    (inner / "CLAUDE.local.md").write_text("# mine\n", encoding="utf-8")
    project_files = [
        "<project>/CLAUDE.md",
        "<project>/.claude/rules/api.md",
        "<project>/services/billing/CLAUDE.md",
        "<project>/services/billing/CLAUDE.local.md",
    ]
    # Not a git checkout: auto memory is keyed by the directory itself (none there).
    assert paths(claude(machine, inner), machine)[2:] == project_files
    # In a checkout, by its root: the project's MEMORY.md.
    (machine.project / ".git").mkdir()
    assert paths(claude(machine, inner), machine)[2:] == [*project_files, memory_index(machine)]


def test_a_linked_worktree_shares_its_main_checkouts_auto_memory(
    machine: Machine, tmp_path: Path
) -> None:
    git_dir = machine.project / ".git" / "worktrees" / "feature"
    git_dir.mkdir(parents=True)
    (git_dir / "commondir").write_text("../..\n", encoding="utf-8")
    worktree = tmp_path / "worktrees" / "feature"
    worktree.mkdir(parents=True)
    (worktree / ".git").write_text(f"gitdir: {git_dir}\n", encoding="utf-8")
    assert paths(claude(machine, worktree), machine)[-1] == memory_index(machine)


@pytest.mark.parametrize("where", ["settings.local.json", "settings.json"])
def test_auto_memory_turned_off_is_not_read(machine: Machine, where: str) -> None:
    """`autoMemoryEnabled: false` (the project's settings, local or shared, or the user's)
    turns auto memory off: no MEMORY.md, no topic file to recall."""
    settings = machine.project / ".claude" / where
    settings.write_text(json.dumps({"autoMemoryEnabled": False}), encoding="utf-8")
    loads = claude(machine)
    assert [f for f in loads.files if f.kind in ("memory", "topic")] == []
    assert f"autoMemoryEnabled is false in {settings}: no auto memory is read" in loads.notes
    # The user's `true` does not win over the project's `false`; the project's `true` does.
    (machine.claude / "settings.json").write_text(
        json.dumps({"autoMemoryEnabled": True}), encoding="utf-8"
    )
    assert not [f for f in claude(machine).files if f.kind == "memory"]
    settings.write_text(json.dumps({"autoMemoryEnabled": True}), encoding="utf-8")
    assert [f.kind for f in claude(machine).files if f.kind == "memory"] == ["memory"]
