"""What decides, before any setting, whether and from where a Claude Code session has auto
memory — read in Claude Code 2.1.332's bundle (docs/formats.md §17.6):

- its switch `CLAUDE_CODE_DISABLE_AUTO_MEMORY` (`if(De(e))return"off";if(pi(e))return
  "forced_on"`: "1"/"true"/"yes"/"on" off, "0"/"false"/"no"/"off" on whatever
  `autoMemoryEnabled` says), from the user's settings' `env` or the environment;
- its local settings at the canonical git root ("not canonicalizing the consent store to …
  the store stays at the session cwd" when the root is not the user's), so a linked
  worktree's session reads its main checkout's `.claude/settings.local.json`;
- a team memory store's prompt index (`CLAUDE_MEMORY_STORES` `promptIndex`,
  `promptIndexMaxBytes`: `team/<mount>/<promptIndex>`, "memory index") at the start.

Before, the variable was not seen, a worktree's own local settings were read, and no team
index was listed."""

from __future__ import annotations

import json
from pathlib import Path

from memtab.loads.engine import compute_loads
from memtab.loads.records import AgentLoads
from memtab.sources.discovery import discover
from support.agent_machine import WORKSPACE_ID, Machine


def claude(machine: Machine, directory: Path | None = None, **env: str) -> AgentLoads:
    loads = compute_loads(
        machine.home,
        workspace_id=None if directory else WORKSPACE_ID,
        directory=str(directory) if directory else None,
        agents=("claude",),
        context=machine.context(**env),
    )
    return loads.agents[0]


def kinds(agent: AgentLoads) -> list[str]:
    return [f.kind for f in agent.files if f.kind in ("memory", "team", "topic")]


def test_the_variable_turns_auto_memory_off_and_on(machine: Machine) -> None:
    assert "memory" in kinds(claude(machine))
    loads = claude(machine, CLAUDE_CODE_DISABLE_AUTO_MEMORY=" Yes ")
    assert kinds(loads) == []
    assert (
        "Claude Code neither reads nor writes auto memory: CLAUDE_CODE_DISABLE_AUTO_MEMORY= Yes  "
        "(in the environment): no auto memory is read"
    ) in loads.notes
    # "0" in the user's settings' env turns it on over autoMemoryEnabled: false, and over
    # the environment's "1".
    user_settings = machine.claude / "settings.json"
    user_settings.write_text(
        json.dumps({"autoMemoryEnabled": False, "env": {"CLAUDE_CODE_DISABLE_AUTO_MEMORY": "0"}}),
        encoding="utf-8",
    )
    loads = claude(machine, CLAUDE_CODE_DISABLE_AUTO_MEMORY="1")
    assert kinds(loads)[0] == "memory"
    assert (
        f"autoMemoryEnabled is false in {user_settings}, but CLAUDE_CODE_DISABLE_AUTO_MEMORY=0 "
        f"(env of {user_settings}) turns it on"
    ) in loads.notes
    # A value that is neither leaves it to the settings.
    user_settings.write_text(
        json.dumps({"autoMemoryEnabled": False, "env": {"CLAUDE_CODE_DISABLE_AUTO_MEMORY": "2"}}),
        encoding="utf-8",
    )
    assert kinds(claude(machine)) == []


def test_the_sources_say_auto_memory_is_off(machine: Machine) -> None:
    sources = discover(machine.context(CLAUDE_CODE_DISABLE_AUTO_MEMORY="true")).sources
    memory = next(s for s in sources if s.id.startswith("claude-code:memory-"))
    said = (
        "Claude Code neither reads nor writes auto memory: "
        "CLAUDE_CODE_DISABLE_AUTO_MEMORY=true (in the environment)"
    )
    assert memory.note is not None and said in memory.note
    sources = discover(machine.context()).sources
    memory = next(s for s in sources if s.id.startswith("claude-code:memory-"))
    assert "neither reads nor writes" not in (memory.note or "")


def _worktree(machine: Machine, tmp_path: Path) -> Path:
    git_dir = machine.project / ".git" / "worktrees" / "feature"
    git_dir.mkdir(parents=True)
    (git_dir / "commondir").write_text("../..\n", encoding="utf-8")
    worktree = tmp_path / "worktrees" / "feature"
    (worktree / ".claude").mkdir(parents=True)
    (worktree / ".git").write_text(f"gitdir: {git_dir}\n", encoding="utf-8")
    return worktree


def test_a_worktrees_local_settings_are_its_main_checkouts(
    machine: Machine, tmp_path: Path
) -> None:
    worktree = _worktree(machine, tmp_path)
    main_local = machine.project / ".claude" / "settings.local.json"
    main_local.write_text(json.dumps({"autoMemoryEnabled": False}), encoding="utf-8")
    # The worktree's own file is not the one Claude Code reads.
    (worktree / ".claude" / "settings.local.json").write_text(
        json.dumps({"autoMemoryEnabled": True}), encoding="utf-8"
    )
    loads = claude(machine, worktree)
    assert kinds(loads) == []
    assert f"autoMemoryEnabled is false in {main_local}: no auto memory is read" in loads.notes
    assert loads.notes[1] == (
        f"Local settings: {main_local} (the checkout's canonical git root holds them for every "
        "session under it, its worktrees' too)"
    )


def test_a_team_stores_prompt_index_is_read_at_the_start(machine: Machine) -> None:
    mount = machine.claude_memory / "team" / "platform"
    mount.mkdir(parents=True)
    lines = [f"- [Topic {n}](topic-{n}.md) — what topic {n} answers\n" for n in range(40)]
    (mount / "MEMORY.md").write_text("".join(lines), encoding="utf-8")
    stores = [{"path": "/srv/memory/platform", "mount": "platform", "promptIndex": "MEMORY.md"}]
    loads = claude(machine, CLAUDE_MEMORY_STORES=json.dumps(stores))
    (team,) = [f for f in loads.files if f.kind == "team"]
    assert team.id == f"claude-code:team-{machine.claude_memory.parent.name}:platform/MEMORY.md"
    assert (team.lines, team.loaded_lines, team.cut_at_line) == (40, 40, None)
    # promptIndexMaxBytes: the lines that fit.
    stores[0]["promptIndexMaxBytes"] = len(lines[0].encode()) * 10 + 5
    loads = claude(machine, CLAUDE_MEMORY_STORES=json.dumps(stores))
    (team,) = [f for f in loads.files if f.kind == "team"]
    assert (team.loaded_lines, team.cut_at_line) == (10, 11)
    assert team.cut_reason == (
        "Claude Code reads only the lines of MEMORY.md within its store's promptIndexMaxBytes "
        f"is {stores[0]['promptIndexMaxBytes']:,}"
    )
    # A store without promptIndex puts no index of its own in the prompt.
    del stores[0]["promptIndex"], stores[0]["promptIndexMaxBytes"]
    assert [f for f in claude(machine, CLAUDE_MEMORY_STORES=json.dumps(stores)).files
            if f.kind == "team"] == []  # fmt: skip
