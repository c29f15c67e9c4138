"""`memtab mcp install` and `memtab mcp uninstall` (docs/formats.md §22.6): register Memtab's
server with each agent, or take it out again, and say what was written and why (the parser
is `agent_server_commands`; this module loads only for these two)."""

from __future__ import annotations

import argparse
import sys

from memtab.agent_server.agents import (
    AGENT_TITLES,
    AGENTS,
    agent_found,
    claude_settings_path,
    config_path,
)
from memtab.agent_server.install import (
    Outcome,
    install_agent,
    permissions_snippet,
    server_command,
    snippet,
)
from memtab.agent_server.registrations import registration
from memtab.agent_server.server_names import DEFAULT_WRITES
from memtab.agent_server.uninstall import uninstall_agent
from memtab.cli.common import CliError, open_home


def install(args: argparse.Namespace) -> int:
    home = open_home(args)
    chosen = [agent for agent in AGENTS if getattr(args, agent)]
    agents = chosen or [agent for agent in AGENTS if agent_found(agent, home)]
    if not agents:
        raise CliError(
            "No agent found (Claude Code, Codex, xum): name one, e.g. memtab mcp install --claude"
        )
    writes = getattr(args, "writes", None)  # the server's own default needs no option
    command = server_command(
        home, getattr(args, "workspace", None), None if writes == DEFAULT_WRITES else writes
    )
    if args.print:
        for agent in agents:
            print(
                f"# {AGENT_TITLES[agent]}: {config_path(agent, home)}\n{snippet(agent, command)}\n"
            )
            if agent == "claude":
                print(
                    f"# {AGENT_TITLES[agent]}: {claude_settings_path()}\n{permissions_snippet()}\n"
                )
        return 0
    outcomes = [outcome for agent in agents for outcome in install_agent(agent, home, command)]
    return _report(outcomes)


def uninstall(args: argparse.Namespace) -> int:
    home = open_home(args)
    chosen = [agent for agent in AGENTS if getattr(args, agent)]
    agents = chosen or [
        agent for agent in AGENTS if registration(agent, config_path(agent, home)).registered
    ]
    if not agents:
        raise CliError(
            "No agent has the memtab server (Claude Code, Codex, xum): nothing to take out"
        )
    return _report([outcome for agent in agents for outcome in uninstall_agent(agent, home)])


def _report(outcomes: list[Outcome]) -> int:
    """Each outcome's line (a refusal's and the warnings on stderr); 1 if one was refused."""
    for outcome in outcomes:
        refused = outcome.status == "refused"
        print(outcome.message, file=sys.stderr if refused else sys.stdout)
        for warning in outcome.warnings:
            print(warning, file=sys.stderr)
    return 1 if any(outcome.status == "refused" for outcome in outcomes) else 0
