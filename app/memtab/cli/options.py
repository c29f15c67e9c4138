"""What the `memtab` parser needs before it knows the sub-command: the shared options, the home they
name, and the error a user's mistake raises (the window's start imports this, not `cli.common`)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any, NoReturn

import platformdirs

from memtab.store.home import HomeLocation, resolve_home


class CliError(Exception):
    """A user mistake or an unusable home: printed as one line, exit status 1. `output`:
    the JSON of what the command did before it failed (a run's record), which `--json`
    prints inside the failure rather than as a second object."""

    def __init__(self, message: str, *, output: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.output = output


HOME_HELP = (
    "memory home (default: MEMTAB_HOME, XUM_ROOT, MUX_ROOT, then mux's own choice among "
    "~/.xum, ~/.mux and ~/.cmux, else Memtab's own)"
)
"""`--home`'s words, before the sub-command (`add_home_option`) and after it
(`--home`, `cli.common.Command`)."""


def add_home_option(parser: argparse.ArgumentParser) -> None:
    """`--home DIR` before the sub-command (a sub-command takes it too: `cli.common.HOME`)."""
    parser.add_argument("--home", metavar="DIR", default=None, help=HOME_HELP)


def add_verbose_option(parser: argparse.ArgumentParser, *, top_level: bool = False) -> None:
    """`-v/--verbose`, counted; the sub-command's count adds to the one before it."""
    parser.add_argument(
        "-v",
        "--verbose",
        action="count",
        dest="verbose" if top_level else "verbose_after_command",
        default=0 if top_level else argparse.SUPPRESS,
        help="also log to stderr (the log file: Help → About); -vv adds library details",
    )


def verbosity(args: argparse.Namespace) -> int:
    """How many -v were given, before and after the sub-command together."""
    return int(getattr(args, "verbose", 0)) + int(getattr(args, "verbose_after_command", 0))


class UsageError(SystemExit):
    """Words a parser cannot read: argparse has said so on stderr, with the usage, and the
    command exits 2, as ever; `words` is what it said (for `--json`)."""

    def __init__(self, words: str) -> None:
        super().__init__(2)
        self.words = words


class UsageParser(argparse.ArgumentParser):
    """argparse's parser, keeping what it says of words it cannot read (`UsageError`)."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        words = f"{self.prog}: error: {message}"
        print(words, file=sys.stderr)
        raise UsageError(words)


class CommandParser(UsageParser):
    """A sub-command's parser: it takes the shared options after its name too (argparse parses a
    sub-command's words with its parser alone); `writes_home` commands first clear what a killed
    Memtab left in the home."""

    def __init__(self, *args: Any, writes_home: bool | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        add_verbose_option(self)
        if writes_home is not None:
            self.set_defaults(writes_home=writes_home)


def default_demo_home() -> Path:
    """Where `--demo` keeps its demo home: never the user's real home."""
    override = os.environ.get("MEMTAB_DEMO_HOME", "").strip()
    if override:
        return Path(os.path.abspath(os.path.expanduser(override)))
    return Path(platformdirs.user_data_dir("memtab-demo", appauthor=False))


def home_location(
    given: str | None, *, env: Mapping[str, str] | None = None, cwd: str | None = None
) -> HomeLocation:
    """The home this invocation works on, `--home` `given` or not (or the one whose environment
    `env` and directory `cwd` are given: a hosted MCP session's); CliError when it is not a usable
    directory."""
    user_home = env.get("HOME") if env is not None else None
    location = resolve_home(
        given,
        env,
        user_home=Path(user_home) if user_home else None,
        cwd=cwd or None,
    )
    if location.path.exists() and not location.path.is_dir():
        raise CliError(f"The memory home {location.path} is not a directory")
    if location.path.is_dir() and not os.access(location.path, os.R_OK | os.X_OK):
        raise CliError(f"The memory home {location.path} is not readable")
    return location
