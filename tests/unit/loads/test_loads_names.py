"""Each file an agent loads is named as the agent names it (issue 81 point 7): its folder
as the agent's docs write it, the session's own files from `./` — never a long path whose
end a narrow column cuts (`…/other-agents/…` for every row of the demo). `memtab loads
--json` adds it as `name`; `id` and `physicalPath` stay as they were."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from memtab.cli.main import main
from memtab.demo import MAIN_ID
from memtab.humanize import display_path
from memtab.loads.engine import compute_loads
from memtab.store.home import Home
from support.agent_machine import Machine
from support.demo_homes import copied_demo_home


def names(home: Home, **options: object) -> dict[str, list[tuple[str | None, str | None]]]:
    loads = compute_loads(home, **options)  # type: ignore[arg-type]
    return {agent.agent: [(file.id, file.name) for file in agent.files] for agent in loads.agents}


def test_the_demo_names_each_agents_files_from_the_agents_own_folder(tmp_path: Path) -> None:
    home = copied_demo_home(tmp_path / "demo")
    found = names(home, workspace_id=MAIN_ID)
    assert found["claude"][0] == ("claude-code:user:CLAUDE.md", "~/.claude/CLAUDE.md")
    assert found["codex"] == [
        ("codex:user:AGENTS.md", "~/.codex/AGENTS.md"),
        ("codex:memories:memory_summary.md", "~/.codex/memories/memory_summary.md"),
        ("codex:memories:MEMORY.md", "~/.codex/memories/MEMORY.md"),
    ]
    gemini = dict(found["gemini"])
    assert gemini["gemini:user:GEMINI.md"] == "~/.gemini/GEMINI.md"
    memory = "~/.gemini/tmp/fix-token-refresh/memory/MEMORY.md"
    assert gemini["gemini:memory-fix-token-refresh:MEMORY.md"] == memory
    # The worktree's own GEMINI.md, in the session's directory.
    assert "./GEMINI.md" in gemini.values()
    assert all(name is None for _id, name in found["xum"])  # xum's are its virtual paths
    others = ("claude", "codex", "gemini")
    assert all(name is not None for agent in others for _id, name in found[agent])


def test_a_folder_outside_the_memory_home_is_named_where_it_is(machine: Machine) -> None:
    found = names(machine.home, directory=str(machine.project), context=machine.context())
    claude_root = os.path.realpath(machine.user / ".claude")
    assert ("claude-code:user:CLAUDE.md", f"{display_path(claude_root)}/CLAUDE.md") in found[
        "claude"
    ]
    assert any(name == "./CLAUDE.md" for _id, name in found["claude"])


def test_json_adds_the_name_and_keeps_id_and_physical_path(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home = copied_demo_home(tmp_path / "demo")
    assert main(["--home", str(home.root), "loads", "--workspace", MAIN_ID, "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    [claude] = [agent for agent in printed["agents"] if agent["agent"] == "claude"]
    first = claude["files"][0]
    assert first["id"] == "claude-code:user:CLAUDE.md"
    assert first["name"] == "~/.claude/CLAUDE.md"
    assert first["physicalPath"].endswith("other-agents/claude/CLAUDE.md")
