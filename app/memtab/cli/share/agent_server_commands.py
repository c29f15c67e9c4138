"""`memtab mcp`: serve the memory to agents over MCP (stdio), docs/formats.md §22; `install`,
`uninstall` and `host`. stdout is the protocol's: everything else goes to stderr and the log."""

from __future__ import annotations

import argparse

from memtab.agent_server.agents import AGENT_TITLES, AGENTS
from memtab.agent_server.pages.paging import (
    DEFAULT_ANSWER_BUDGET,
    MAX_ANSWER_BUDGET,
    MIN_ANSWER_BUDGET,
)
from memtab.agent_server.server_names import DEFAULT_WRITES, WRITE_MODES
from memtab.cli.common import Argument, Exclusive, command


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


@command(
    "mcp",
    Argument.workspace("the workspace whose scopes to serve (else global)"),
    Argument(
        "--writes",
        choices=WRITE_MODES,
        default=DEFAULT_WRITES,
        help="inbox (default): every change is a proposal in Memtab's Inbox, for you to "
        "accept, edit or reject; direct: written at once, recorded as the client's; "
        "off: read-only",
    ),
    Argument(
        "--answer-budget",
        type=_answer_budget,
        metavar="BYTES",
        help=f"the most an answer takes, as its frame carries it (default "
        f"{DEFAULT_ANSWER_BUDGET}, lowered to what the client shows whole: Codex "
        "12000 for a model outside its catalog); longer ones come in pages",
    ),
    writes_home=False,
    help="serve the memory to coding agents over MCP (stdio)",
    description="An MCP server over stdin/stdout: agents list, search and read every "
    "memory Memtab manages, and change it as --writes allows.",
    actions="mcp_action",
)
def run_session(args: argparse.Namespace) -> int:
    """`memtab mcp`: one session in this process (the bridge's fallback, or
    MEMTAB_MCP_SHARED=off)."""
    return _served(args)


@command(
    "install",
    *(
        Argument(f"--{agent}", action="store_true", help=f"register with {AGENT_TITLES[agent]}")
        for agent in AGENTS
    ),
    Argument("--print", action="store_true", help="show what to add, change nothing"),
    Argument.workspace("serve this workspace", default=argparse.SUPPRESS),
    Argument(
        "--writes",
        choices=WRITE_MODES,
        default=argparse.SUPPRESS,
        help="the agents' write mode (default: inbox)",
    ),
    Argument(
        "--answer-budget",
        type=_answer_budget,
        metavar="BYTES",
        help="the most an answer of this install's sessions takes, whatever the client "
        "(default: the client's own limit, at most 24000)",
    ),
    Argument(
        "--project",
        metavar="DIR",
        help="for the checkout DIR only: Claude Code's local scope, Codex's project config, "
        "Gemini CLI's workspace settings (xum has no per-project configuration)",
    ),
    Exclusive(
        Argument(
            "--login-service",
            dest="login_service",
            action="store_true",
            default=None,
            help="keep Memtab warm from login (`memtab watch --install`): the first session "
            "of the day starts at once (default: asked once in a terminal)",
        ),
        Argument(
            "--no-login-service",
            dest="login_service",
            action="store_false",
            help="do not, and do not ask again",
        ),
    ),
    help="register `memtab mcp` with Claude Code, Codex, Gemini CLI and xum",
    description="Add the memtab server to each agent's MCP configuration (Claude Code's "
    "~/.claude.json, Codex's ~/.codex/config.toml, Gemini CLI's ~/.gemini/settings.json, "
    "xum's mcp.jsonc), keeping everything else. Without an agent flag: every agent found "
    "on this machine.",
    under=run_session,
)
def run_install(args: argparse.Namespace) -> int:
    return _agent_configs(args)


@command(
    "uninstall",
    *(
        Argument(f"--{agent}", action="store_true", help=f"take it out of {AGENT_TITLES[agent]}")
        for agent in AGENTS
    ),
    Argument(
        "--project", metavar="DIR", default=None, help="take out DIR's per-project entry alone"
    ),
    help="take `memtab mcp` out of Claude Code, Codex, Gemini CLI and xum again",
    description="Remove the memtab server (and, for Claude Code and Gemini CLI, the "
    "permission for its read-only tools) from each agent's configuration, keeping "
    "everything else. Without an agent flag: every agent that has it.",
    under=run_session,
)
def run_uninstall(args: argparse.Namespace) -> int:
    return _agent_configs(args)


@command(
    "host",
    Argument(
        "--idle-exit",
        type=float,
        default=0,
        metavar="SECONDS",
        help="exit after this long without a session (default: never)",
    ),
    Argument("--ready-fd", type=int, default=None, help=argparse.SUPPRESS),
    help="keep one warm server for every agent session of this home",
    description="Serve every agent session of this home from this process (each "
    "session's `memtab mcp` becomes a thin bridge to it) until stopped. Agents start one "
    "by themselves when none runs, and `memtab watch` hosts them too.",
    under=run_session,
)
def run_host(args: argparse.Namespace) -> int:
    """`memtab mcp host`: every agent session of the home."""
    return _served(args)


def _agent_configs(args: argparse.Namespace) -> int:
    """`memtab mcp install` and `memtab mcp uninstall`."""
    # lazy: install and uninstall only (~10-30 ms of CPU, 9 modules: the agents' file
    # editors) kept off every other command's start (each builds this parser), and off
    # `memtab mcp`'s, which an agent waits for
    from memtab.cli.share import agent_install_commands

    if args.mcp_action == "install":
        return agent_install_commands.install(args)
    return agent_install_commands.uninstall(args)


def _served(args: argparse.Namespace) -> int:
    """`memtab mcp` and `memtab mcp host`."""
    # lazy: the MCP SDK and the host's anyio (0.50 s of CPU to import `mcp_sessions`) load
    # when a server runs, not with every parser (`memtab --help` builds each command's)
    from memtab.cli.share import mcp_sessions

    if args.mcp_action == "host":
        return mcp_sessions.run_host(args)
    return mcp_sessions.run_session(args)
