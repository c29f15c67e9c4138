"""`memtab mcp`: serve the memory to agents over MCP (stdio), docs/formats.md §22; `install`,
`uninstall` and `host`. stdout is the protocol's: everything else goes to stderr and the log."""

from __future__ import annotations

import argparse
from types import ModuleType
from typing import Annotated

from memtab.agent_server.agents import AGENT_TITLES, AGENTS
from memtab.agent_server.pages.paging import (
    DEFAULT_ANSWER_BUDGET,
    MAX_ANSWER_BUDGET,
    MIN_ANSWER_BUDGET,
)
from memtab.agent_server.server_names import DEFAULT_WRITES, WriteMode
from memtab.cli.common import command


def _answer_budget(text: str) -> int:
    """`--answer-budget`: whole bytes from MIN_ANSWER_BUDGET to MAX_ANSWER_BUDGET."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not MIN_ANSWER_BUDGET <= value <= MAX_ANSWER_BUDGET:
        raise argparse.ArgumentTypeError(
            f"must be a whole number of bytes from {MIN_ANSWER_BUDGET} to {MAX_ANSWER_BUDGET}"
        )
    return value


_ANSWER_BUDGET_HELP = (
    f"the most an answer takes, as its frame carries it (default {DEFAULT_ANSWER_BUDGET}, lowered "
    "to what the client shows whole: Codex 12000 for a model outside its catalog); longer ones "
    "come in pages"
)
AnswerBudget = Annotated[int | None, _answer_budget]


@command("mcp", writes_home=False, actions="mcp_action")
def run_session(
    home: str | None = None,
    *,
    workspace: str | None = None,
    writes: WriteMode = DEFAULT_WRITES,
    answer_budget: Annotated[AnswerBudget, _ANSWER_BUDGET_HELP] = None,
) -> int:
    """serve the memory to coding agents over MCP (stdio)

    An MCP server over stdin/stdout: agents list, search and read every memory Memtab manages,
    and change it as --writes allows.

    Args:
        workspace (ID): the workspace whose scopes to serve (else global)
        writes: inbox (default): every change is a proposal in Memtab's Inbox, for you to accept,
            edit or reject; direct: written at once, recorded as the client's; off: read-only
        answer_budget (BYTES):
    """
    # One session in this process: the bridge's fallback, or MEMTAB_MCP_SHARED=off.
    return _sessions().run_session(home, workspace, writes, answer_budget)


@command("install", under=run_session)
def run_install(
    home: str | None = None,
    *,
    claude: Annotated[bool, f"register with {AGENT_TITLES['claude']}"] = False,
    codex: Annotated[bool, f"register with {AGENT_TITLES['codex']}"] = False,
    gemini: Annotated[bool, f"register with {AGENT_TITLES['gemini']}"] = False,
    xum: Annotated[bool, f"register with {AGENT_TITLES['xum']}"] = False,
    print_: bool = False,
    workspace: str | None = None,
    writes: WriteMode = DEFAULT_WRITES,
    answer_budget: AnswerBudget = None,
    project: str | None = None,
    login_service: bool | None = None,
) -> int:
    """register `memtab mcp` with Claude Code, Codex, Gemini CLI and xum

    Add the memtab server to each agent's MCP configuration (Claude Code's ~/.claude.json,
    Codex's ~/.codex/config.toml, Gemini CLI's ~/.gemini/settings.json, xum's mcp.jsonc),
    keeping everything else. Without an agent flag: every agent found on this machine.

    Args:
        print_: show what to add, change nothing
        workspace (ID): serve this workspace
        writes: the agents' write mode (default: inbox)
        answer_budget (BYTES): the most an answer of this install's sessions takes, whatever
            the client (default: the client's own limit, at most 24000)
        project (DIR): for the checkout DIR only: Claude Code's local scope, Codex's project
            config, Gemini CLI's workspace settings (xum has no per-project configuration)
        login_service: keep Memtab warm from login (`memtab watch --install`): the first
            session of the day starts at once (default: asked once in a terminal)
        no_login_service: do not, and do not ask again
    """
    chosen = [agent for agent, on in zip(AGENTS, (claude, codex, gemini, xum), strict=True) if on]
    options = (workspace, writes, answer_budget, login_service)
    return _installs().install(home, chosen, project, print_, *options)


@command("uninstall", under=run_session)
def run_uninstall(
    home: str | None = None,
    *,
    claude: Annotated[bool, f"take it out of {AGENT_TITLES['claude']}"] = False,
    codex: Annotated[bool, f"take it out of {AGENT_TITLES['codex']}"] = False,
    gemini: Annotated[bool, f"take it out of {AGENT_TITLES['gemini']}"] = False,
    xum: Annotated[bool, f"take it out of {AGENT_TITLES['xum']}"] = False,
    project: str | None = None,
) -> int:
    """take `memtab mcp` out of Claude Code, Codex, Gemini CLI and xum again

    Remove the memtab server (and, for Claude Code and Gemini CLI, the permission for its
    read-only tools) from each agent's configuration, keeping everything else. Without an
    agent flag: every agent that has it.

    Args:
        project (DIR): take out DIR's per-project entry alone
    """
    chosen = [agent for agent, on in zip(AGENTS, (claude, codex, gemini, xum), strict=True) if on]
    return _installs().uninstall(home, chosen, project)


@command("host", under=run_session)
def run_host(
    home: str | None = None,
    *,
    idle_exit: float = 0,
    ready_fd: Annotated[int | None, argparse.SUPPRESS] = None,
) -> int:
    """keep one warm server for every agent session of this home

    Serve every agent session of this home from this process (each session's `memtab mcp`
    becomes a thin bridge to it) until stopped. Agents start one by themselves when none runs,
    and `memtab watch` hosts them too.

    Args:
        idle_exit (SECONDS): exit after this long without a session (default: never)
    """
    return _sessions().run_host(home, idle_exit, ready_fd)


def _installs() -> ModuleType:
    """`agent_install_commands`, for install and uninstall only."""
    # lazy: ~10-30 ms of CPU, 9 modules (the agents' file editors) kept off every other
    # command's start (each builds this parser), and off `memtab mcp`'s, which an agent waits for
    from memtab.cli.share import agent_install_commands

    return agent_install_commands


def _sessions() -> ModuleType:
    """`mcp_sessions`, for `memtab mcp` and `memtab mcp host`."""
    # lazy: the MCP SDK and the host's anyio (0.50 s of CPU to import `mcp_sessions`) load
    # when a server runs, not with every parser (`memtab --help` builds each command's)
    from memtab.cli.share import mcp_sessions

    return mcp_sessions
