"""What a Claude Code subagent loads at its start (docs/formats.md §17.6): one with
`omitClaudeMd` — "without the user, project and local CLAUDE.md instruction files when it
runs as a subagent; managed policy files are kept" (Claude Code 2.1.331's settings
schema) — loads none of them nor MEMORY.md, a built-in one (Explore, Plan, web-fetch) not
even the managed file; one without it loads what the session loads; one with a memory
scope also its own MEMORY.md. `memtab loads --agent claude --subagent NAME`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memtab.cli.main import main
from memtab.loads.engine import compute_loads
from memtab.loads.records import AgentLoads
from support.agent_machine import WORKSPACE_ID, Machine
from support.hostile_files import answers_within, fifo_at


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def loads_of(machine: Machine, subagent: str | None) -> AgentLoads:
    return compute_loads(
        machine.home,
        workspace_id=WORKSPACE_ID,
        agents=("claude",),
        context=machine.context(),
        subagent=subagent,
    ).agents[0]


def names(loads: AgentLoads) -> list[str]:
    return [Path(file.physical_path or "").name for file in loads.files if file.when == "start"]


def test_a_subagent_with_omit_claude_md_loads_none_of_the_sessions_files(
    machine: Machine,
) -> None:
    write(
        machine.project / ".claude" / "agents" / "reviewer.md",
        "---\nname: reviewer\ndescription: Reviews a diff\nomitClaudeMd: true\n---\n\nReview.\n",
    )
    session = loads_of(machine, None)
    assert names(session) == ["CLAUDE.md", "testing.md", "CLAUDE.md", "api.md", "MEMORY.md"]
    reviewer = loads_of(machine, "reviewer")
    assert (reviewer.subagent, reviewer.files, reviewer.total_tokens) == ("reviewer", (), 0)
    assert reviewer.notes[0].startswith("Subagent reviewer (defined in ") and reviewer.notes[
        0
    ].endswith(
        ": omitClaudeMd, so it loads no CLAUDE.md, rules or MEMORY.md of the session — only "
        "the managed ones"
    )
    explore = loads_of(machine, "Explore")
    assert explore.files == () and explore.notes[0] == (
        "Subagent Explore (built in): omitClaudeMd, so it loads no CLAUDE.md, rules or "
        "MEMORY.md of the session — none of them"
    )


def test_a_subagent_without_it_loads_the_sessions_and_its_own_memory(machine: Machine) -> None:
    write(
        machine.claude / "agents" / "planner.md",
        "---\nname: planner\ndescription: Plans\nmemory: user\n---\n\nPlan.\n",
    )
    own = write(machine.claude / "agent-memory" / "planner" / "MEMORY.md", "- [Habits](h.md)\n")
    planner = loads_of(machine, "planner")
    assert names(planner) == [*names(loads_of(machine, None)), "MEMORY.md"]
    assert planner.files[-1].physical_path == str(own)
    assert planner.notes[0].endswith(": no omitClaudeMd, so it loads what the session loads")
    assert f"Its own memory (user scope): {own}" in planner.notes

    unknown = loads_of(machine, "nobody")
    assert names(unknown) == names(loads_of(machine, None))
    assert unknown.notes[0].startswith("No subagent 'nobody' found in .claude/agents/")


def test_memtab_loads_shows_a_subagents_loads_when_asked(
    machine: Machine, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(machine.user))  # the CLI's `~`
    monkeypatch.setenv("MEMTAB_HOME", str(machine.home.root))
    command = ["loads", "--workspace", WORKSPACE_ID, "--agent", "claude"]
    assert main([*command, "--subagent", "Plan", "--json"]) == 0
    claude = json.loads(capsys.readouterr().out)["agents"][0]
    assert (claude["subagent"], claude["files"], claude["totalTokens"]) == ("Plan", [], 0)
    assert main(command) == 0
    assert "subagent" not in capsys.readouterr().out  # only when asked
    assert main([*command, "--subagent", "Plan"]) == 0
    assert (
        capsys.readouterr()
        .out.splitlines()[2]
        .startswith("Claude Code (subagent Plan) — about 0 tokens at the start")
    )


def test_a_fifo_among_the_definitions_does_not_hang_the_search(machine: Machine) -> None:
    """Another program's FIFO named like a definition (`.claude/agents/a-stuck.md`, read
    before `reviewer.md`) is passed over by the readability rule, never waited on."""
    agents = machine.project / ".claude" / "agents"
    stuck = fifo_at(agents / "a-stuck.md")
    write(agents / "reviewer.md", "---\nname: reviewer\nomitClaudeMd: true\n---\n")
    reviewer = answers_within(5, lambda: loads_of(machine, "reviewer"), stuck)
    assert reviewer.notes[0].startswith("Subagent reviewer (defined in ")
