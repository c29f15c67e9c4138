"""`memtab loads` answers at once whatever another program put where an agent's files
are: a FIFO named MEMORY.md, memory_summary.md or AGENTS.md is not waited for (an
ordinary open would wait for a writer for ever), and the answer says why it was not read
(docs/formats.md §16.1, §17.6)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from memtab.loads.engine import compute_loads
from memtab.loads.records import Loads
from support.agent_machine import WORKSPACE_ID, Machine
from support.gemini_home import build_gemini_home
from support.hostile_files import answers_within, fifo_at

PLACES: dict[str, Callable[[Machine], Path]] = {
    "claude-memory-index": lambda m: m.claude_memory / "MEMORY.md",
    "codex-summary": lambda m: m.codex / "memories" / "memory_summary.md",
    "codex-project-agents": lambda m: m.project / "AGENTS.md",
    "codex-user-agents": lambda m: m.codex / "AGENTS.md",
}


@pytest.mark.parametrize("place", PLACES)
def test_a_fifo_where_an_agent_reads_is_answered_at_once_and_said(
    machine: Machine, place: str
) -> None:
    path = PLACES[place](machine)
    path.unlink(missing_ok=True)
    fifo = fifo_at(path)

    def loads() -> Loads:
        return compute_loads(machine.home, workspace_id=WORKSPACE_ID, context=machine.context())

    found = answers_within(20, loads, fifo)

    notes = [note for agent in found.agents for note in agent.notes]
    assert f"{path} is not read: it is a FIFO (named pipe), not a regular file" in notes
    shown = [f.physical_path for agent in found.agents for f in agent.files]
    assert str(path) not in shown


def test_a_fifo_among_claude_code_s_rules_is_not_waited_for(machine: Machine) -> None:
    rules = machine.project / ".claude" / "rules"
    fifo = fifo_at(rules / "pipe.md")
    (rules / "style.md").write_text("Use tabs.\n")

    def loads() -> Loads:
        return compute_loads(
            machine.home, workspace_id=WORKSPACE_ID, agents=("claude",), context=machine.context()
        )

    found = answers_within(20, loads, fifo)

    shown = [f.physical_path for f in found.agents[0].files]
    assert str(rules / "style.md") in shown and str(fifo) not in shown


@pytest.mark.slow  # slow: a thousand folders made and removed (~5 s)
def test_claude_code_s_rules_a_thousand_folders_deep_are_read_to_the_depth(
    machine: Machine, deep_tree: Callable[..., None]
) -> None:
    rules = machine.project / ".claude" / "rules"
    deep_tree(rules, "deep", file="bottom.md")
    (rules / "style.md").write_text("Use tabs.\n")

    found = compute_loads(
        machine.home, workspace_id=WORKSPACE_ID, agents=("claude",), context=machine.context()
    )

    shown = [f.physical_path for f in found.agents[0].files]
    assert str(rules / "style.md") in shown
    assert not any(path.endswith("bottom.md") for path in shown)


def test_fifos_for_the_agents_settings_are_not_waited_for(machine: Machine) -> None:
    gemini = build_gemini_home(machine.user, machine.project).gemini_dir
    fifos = []
    for path in (
        machine.claude / "settings.json",
        machine.codex / "config.toml",
        gemini / "settings.json",
        gemini / "projects.json",
        machine.project / "GEMINI.md",
    ):
        path.unlink(missing_ok=True)
        fifos.append(fifo_at(path))

    def loads() -> Loads:
        return compute_loads(machine.home, workspace_id=WORKSPACE_ID, context=machine.context())

    found = answers_within(20, loads, *fifos)

    assert [agent.agent for agent in found.agents] == ["claude", "codex", "xum", "gemini"]
    assert not any(
        f.physical_path == str(machine.project / "GEMINI.md") for f in found.agents[3].files
    )
