"""`memtab mcp`: serve the memory to agents over MCP (stdio), docs/formats.md §22.

    memtab mcp [--home DIR] [--workspace ID] [--writes inbox|direct|off]

stdout is the protocol's: everything else goes to stderr and the log.
"""

from __future__ import annotations

import argparse

from memtab.agent_server.server import serve_stdio
from memtab.agent_server.service import WRITE_MODES, MemoryService
from memtab.cli.common import CliError, add_home_option, open_home
from memtab.store.home import HomeError
from memtab.store.registry import load_registry


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `memtab mcp` to the `memtab` parser."""
    parser = commands.add_parser(
        "mcp",
        help="serve the memory to coding agents over MCP (stdio)",
        description="An MCP server over stdin/stdout: agents list, search and read every "
        "memory Memtab manages, and change it as --writes allows.",
    )
    add_home_option(parser)
    parser.add_argument(
        "--workspace", metavar="ID", help="the workspace whose scopes to serve (else global)"
    )
    parser.add_argument(
        "--writes",
        choices=WRITE_MODES,
        default="inbox",
        help="inbox (default): every change is a proposal in Memtab's Inbox, for you to "
        "accept, edit or reject; direct: written at once, recorded as the client's; "
        "off: read-only",
    )
    parser.set_defaults(handler=run_mcp)


def run_mcp(args: argparse.Namespace) -> int:
    home = open_home(args)
    workspace = None
    if args.workspace is not None:
        try:
            workspace = load_registry(home).require_workspace(args.workspace)
        except HomeError as error:
            raise CliError(str(error)) from None
    serve_stdio(MemoryService(home, workspace, writes=args.writes))
    return 0
