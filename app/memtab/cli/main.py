"""Argument parsing and dispatch for `memtab`: the GUI by default, sub-commands headless."""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
from collections.abc import Sequence

from memtab import __version__
from memtab.cli import consolidation_commands, store_commands, traces_commands, writer_commands
from memtab.cli.common import CliError, add_home_option, default_demo_home, home_location
from memtab.demo import DemoError, create_demo_home
from memtab.store.home import HomeError
from memtab.store.memory import MemoryStoreError
from memtab.store.paths import PathError

logger = logging.getLogger(__name__)

# Each module adds its sub-commands with `register(subparsers)`.
COMMAND_MODULES = (store_commands, consolidation_commands, traces_commands, writer_commands)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="memtab",
        description="Browse, edit and consolidate the memories your coding agents keep. "
        "Without a command, opens the Memtab window.",
    )
    parser.add_argument("--version", action="version", version=f"memtab {__version__}")
    add_home_option(parser, top_level=True)
    parser.add_argument("--workspace", metavar="ID", help="workspace to show in the window")
    parser.add_argument(
        "--demo", action="store_true", help="open the demo home (created on first use)"
    )
    parser.add_argument(
        "--screenshot", metavar="FILE", help="render the window to a PNG once loaded, then exit"
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log to stderr")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in COMMAND_MODULES:
        module.register(commands)
    return parser


def run_window(args: argparse.Namespace) -> int:
    """Open the GUI. Imported lazily so headless commands never load Qt."""
    if args.demo:
        if args.home:
            raise CliError("--demo and --home cannot be combined")
        demo_home = default_demo_home()
        if not demo_home.exists() or not any(demo_home.iterdir()):
            create_demo_home(demo_home)
        args.home = str(demo_home)
    location = home_location(args)
    gui = importlib.import_module("memtab.gui.app")
    status: int = gui.run_app(location, args.workspace, screenshot=args.screenshot)
    return status


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `memtab` command; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    try:
        if args.command is None:
            return run_window(args)
        status: int = args.handler(args)
        return status
    except (CliError, HomeError, DemoError, MemoryStoreError, PathError) as error:
        print(f"memtab: {error}", file=sys.stderr)
        return 1
    except OSError as error:
        where = f" ({error.filename})" if error.filename else ""
        print(f"memtab: {error.strerror or error}{where}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
