"""`memtab loads`: what each agent reads at the start of a session (docs/formats.md §17.6)."""

from __future__ import annotations

from memtab.cli.common import command, format_table
from memtab.loads.engine import compute_loads
from memtab.loads.records import AGENT_LABELS, AGENTS, AgentLoads, AgentName, Loads
from memtab.store.home import Home


@command("loads", writes_home=False)
def loads(
    home: Home,
    *,
    workspace: str | None = None,
    directory: str | None = None,
    agent: tuple[AgentName, ...] = (),
    subagent: str | None = None,
) -> Loads:
    """what each agent reads at a session's start, and where it stops

    Args:
        workspace (ID): a workspace (its checkout and scopes)
        directory (DIR): the directory Claude Code, Codex and Gemini CLI start in (default: the
            workspace's)
        agent: only this agent
        subagent (NAME): Claude Code: what this subagent (Explore, a .claude/agents/ one) loads
            instead
    """
    return compute_loads(
        home,
        workspace_id=workspace,
        directory=directory,
        agents=tuple(dict.fromkeys(agent)) or AGENTS,
        subagent=subagent,
    )


@loads.text
def _print_loads(result: Loads) -> None:
    if result.directory:
        print(f"Session start in {result.directory}\n")
    for agent in result.agents:
        _print_agent(agent)


def _print_agent(agent: AgentLoads) -> None:
    # lazy: the window's words for where an agent stops (What each agent loads), not `--help`'s
    from memtab.components.loads.loads import where_it_stops

    label = AGENT_LABELS[agent.agent] + (f" (subagent {agent.subagent})" if agent.subagent else "")
    print(f"{label} — about {agent.total_tokens:,} tokens at the start")
    for note in agent.notes:
        print(f"  ({note})")
    rows = [["", "FILE", "LINES", "READ", "TOKENS", "WHERE IT STOPS"]]
    for index, file in enumerate(agent.files, start=1):
        order, name = str(index) if file.when == "start" else "-", file.id or file.name or file.path
        counts = [str(file.lines), str(file.loaded_lines), str(file.loaded_tokens)]
        rows.append([order, name or "", *counts, where_it_stops(file)])
    if len(rows) > 1:
        print(format_table(rows, right_aligned=(2, 3, 4)))
    else:
        print("  nothing")
    print()
