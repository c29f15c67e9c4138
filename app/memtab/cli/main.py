"""Argument parsing and dispatch for `memtab`: the GUI by default, sub-commands headless. Imports
`cli.options`, not `cli.common`, and each sub-command's module only when asked for, so the window's
first paint stays light."""

from __future__ import annotations

import argparse
import contextlib
import gc
import importlib
import logging
import os
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from memtab import __version__
from memtab.cli.options import (
    CliError,
    CommandParser,
    UsageError,
    UsageParser,
    add_home_option,
    add_verbose_option,
    default_demo_home,
    home_location,
    verbosity,
)
from memtab.fs.config.config_dir import config_dir_at
from memtab.fs.terminal_text import printable
from memtab.invocation import requested_command
from memtab.logs import log_file, setup_logging
from memtab.store.errors import MemoryStoreError
from memtab.store.home import HomeError, HomeLocation
from memtab.store.paths import PathError

if TYPE_CHECKING:  # lazy: only --demo makes a demo home (~20 ms); a failure, cli.common
    from memtab.cli.failure import Kind
    from memtab.demo import DemoSession

logger = logging.getLogger(__name__)

# Which module declares each command (`@command`, where it also says whether it writes the
# home), in `--help`'s order. A module is imported only when one of its commands is named:
# the engines they pull in (httpx2, the consolidator) would slow the window's start.
COMMAND_MODULES = {
    module: commands.split()
    for module, commands in {
        "memtab.cli.memory.store_commands": "list tool status workspaces project workspace demo",
        "memtab.cli.background.consolidation_commands": "consolidate declined sweep",
        "memtab.cli.background.writer_commands": "write",
        "memtab.cli.memory.inbox_commands": "inbox suggestions",
        "memtab.cli.background.traces_commands": "traces",
        "memtab.cli.memory.source_commands": "sources show copy source-log codex-note",
        "memtab.cli.memory.history_commands": "history blame restore runs revert-run trash",
        "memtab.cli.health.doctor_commands": "doctor",
        "memtab.cli.background.model_commands": "models settings",
        "memtab.cli.share.sync_commands": "sync conflicts",
        "memtab.cli.health.check_commands": "check",
        "memtab.cli.health.duplicates_commands": "duplicates",
        "memtab.cli.health.contradictions_commands": "contradictions",
        "memtab.cli.health.leaks_commands": "leaks",
        "memtab.cli.memory.loads_commands": "loads",
        "memtab.cli.memory.recall_commands": "recall",
        "memtab.cli.memory.search_commands": "search",
        "memtab.cli.background.watch_commands": "watch events",
        "memtab.cli.share.agent_server_commands": "mcp",
    }.items()
}


def modules_for(argv: Sequence[str]) -> list[str]:
    """Which command modules the parser needs for `argv`: none to open the window, one for a
    known command, all for help or an unknown word (so argparse can list the choices)."""
    command = requested_command(argv)
    if command is None:
        return list(COMMAND_MODULES) if {"-h", "--help"} & set(argv) else []
    for module, commands in COMMAND_MODULES.items():
        if command in commands:
            return [module]
    return list(COMMAND_MODULES)


def build_parser(argv: Sequence[str] = ("--help",)) -> argparse.ArgumentParser:
    parser = UsageParser(
        prog="memtab",
        description="Browse, edit and consolidate the memories your coding agents keep. "
        "Without a command, opens the Memtab window.",
    )
    parser.add_argument("--version", action="version", version=f"memtab {__version__}")
    add_home_option(parser)
    parser.add_argument("--workspace", metavar="ID", help="workspace to show in the window")
    parser.add_argument(
        "--demo",
        action="store_true",
        help="open a fresh demo home (recreated at every start; never your real home)",
    )
    parser.add_argument(
        "--screenshot", metavar="FILE", help="render the window to a PNG once loaded, then exit"
    )
    parser.add_argument(
        "--install-desktop",
        action="store_true",
        help="install the desktop entry, icon and AppStream file for this user (Linux)",
    )
    parser.add_argument(
        "--self-test",
        action="store_true",
        help="check this installation: list a scratch demo home and consolidate it offline "
        "in a child process, as the window does; prints JSON",
    )
    add_verbose_option(parser, top_level=True)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=CommandParser)
    modules = modules_for(argv)
    if modules:
        # lazy: the commands' machinery (cli.common: the store, the registry; ~40 ms quiet),
        # which each command's module imports anyway, and the window's start never
        from memtab.cli.common import add_commands

        for module in modules:
            add_commands(commands, module)
    return parser


def choose_qt_platform(*, screenshot: bool, env: dict[str, str] | None = None) -> None:
    """Render `--screenshot` offscreen; refuse clearly (not a Qt abort) without a display."""
    environ = os.environ if env is None else env
    if environ.get("QT_QPA_PLATFORM"):
        return
    if screenshot:
        environ["QT_QPA_PLATFORM"] = "offscreen"
        return
    if sys.platform.startswith("linux") and not (
        environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY")
    ):
        raise CliError(
            "No display found (DISPLAY and WAYLAND_DISPLAY are unset). Run Memtab in a "
            "desktop session, use --screenshot FILE to render offscreen, or use the "
            "headless commands (memtab --help)."
        )


def run_window(args: argparse.Namespace) -> int:
    """Open the GUI. Imported lazily so headless commands never load Qt."""
    choose_qt_platform(screenshot=bool(args.screenshot))
    with contextlib.ExitStack() as cleanup:
        if args.demo:
            if args.home:
                raise CliError("--demo and --home cannot be combined")
            args.home = str(_demo_home(args, cleanup))
        location = home_location(args.home)
        if args.demo:
            location = HomeLocation(location.path, "demo")
        # Start-up makes objects that live as long as the window (modules, widgets): the
        # cycle collector would walk them again and again for nothing. It is held off until
        # the window has loaded (`gui.first_paint.app.tune_garbage_collection`).
        gc.disable()
        gui = importlib.import_module("memtab.gui.first_paint.app")
        status: int = gui.run_app(location, args.workspace, screenshot=args.screenshot)
        return status


def _demo_home(args: argparse.Namespace, cleanup: contextlib.ExitStack) -> Path:
    """A fresh demo home for this run (`--demo`) with its own config dir inside it, until `cleanup`;
    a screenshot renders a pristine one of its own, and a demo another Memtab has open is shown as
    it is."""
    # lazy: only `--demo` writes a demo home (~20 ms the window's start saves)
    from memtab.demo import create_demo_home, demo_config_dir, open_fresh_demo

    if args.screenshot:
        scratch = Path(cleanup.enter_context(tempfile.TemporaryDirectory(prefix="memtab-demo-")))
        home = create_demo_home(scratch / "demo")
    else:
        target = default_demo_home()
        override = os.environ.get("MEMTAB_DEMO_HOME", "").strip()
        session: DemoSession = open_fresh_demo(target, replace_unmarked=not override)
        cleanup.callback(session.release)
        if not session.fresh:
            print(
                "memtab: another Memtab has the demo home open; showing it as it is",
                file=sys.stderr,
            )
        home = session.home
    cleanup.enter_context(config_dir_at(demo_config_dir(home)))
    return home.root


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `memtab` command; returns the exit status."""
    words = sys.argv[1:] if argv is None else list(argv)
    try:
        args = build_parser(words).parse_args(words)
    except UsageError as error:  # argparse has said it on stderr
        if "--json" in words:
            _failed(error.words, "usage", json=True, command=requested_command(words), quiet=True)
        raise
    setup_logging(verbosity=verbosity(args))
    json = bool(getattr(args, "json", False)) and args.command is not None
    try:
        if args.command is None and not args.install_desktop and not args.self_test:
            return run_window(args)
        # lazy: a run without the window (a command, --install-desktop, --self-test) and its
        # steps — the log's rotation, what a killed Memtab left — which the contract
        # "first-paint" forbids the window's start (3 modules, ~34 KiB traced, ~1 ms)
        from memtab.cli import headless

        return headless.run(args)
    except (CliError, HomeError, MemoryStoreError, PathError) as error:  # DemoError too
        return _failed(str(error), "refused", json=json, command=args.command, error=error)
    except BrokenPipeError:
        _print_nowhere()
        return 0
    except OSError as error:
        where = f" ({error.filename})" if error.filename else ""
        said = f"{error.strerror or error}{where}"
        return _failed(said, "system", json=json, command=args.command, error=error)
    except KeyboardInterrupt:
        return 130
    except Exception as error:
        if not json:
            raise  # a fault of Memtab's: its traceback, as Python prints it
        logger.exception("memtab %s failed", args.command)
        log = log_file()
        kept = f"; its traceback is in {log}" if log is not None else ""
        said = f"an unexpected error: {type(error).__name__}: {error}{kept}"
        return _failed(said, "internal", json=True, command=args.command)


def _failed(
    words: str,
    kind: Kind,
    *,
    json: bool,
    command: str | None,
    error: Exception | None = None,
    quiet: bool = False,
) -> int:
    """A command's failure said: its words on stderr (unless `quiet`: said already), and
    under `--json` the JSON on stdout too (`cli.failure`); the exit status."""
    if not json:
        print(f"memtab: {printable(words, multiline=True)}", file=sys.stderr)
        return 1
    # lazy: cli.common's store machinery (~40 ms quiet, ~400 ms at load 10) stays out of the
    # window's start; a command that fails has it loaded already
    from memtab.cli.failure import failed

    return failed(words, kind, json=True, command=command, error=error, quiet=quiet)


def _print_nowhere() -> None:
    """The reader of our output went away (`memtab list | head`): as `cat` does, stop
    quietly — what is still buffered goes nowhere instead of failing at exit."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
