"""What every `memtab` sub-command shares: the home, errors, JSON and aligned tables."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import platformdirs

from memtab.fs.atomic import encode_utf8
from memtab.store.home import Home, HomeLocation, resolve_home
from memtab.store.memory import MemoryStore
from memtab.store.registry import Registry, load_registry


class CliError(Exception):
    """A user mistake or an unusable home: printed as one line, exit status 1."""


def add_home_option(parser: argparse.ArgumentParser, *, top_level: bool = False) -> None:
    """`--home DIR`, accepted before or after the sub-command."""
    parser.add_argument(
        "--home",
        metavar="DIR",
        default=None if top_level else argparse.SUPPRESS,
        help="memory home (default: MEMTAB_HOME, XUM_ROOT, MUX_ROOT, then mux's own choice "
        "among ~/.xum, ~/.mux and ~/.cmux, else Memtab's own)",
    )


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


class CommandParser(argparse.ArgumentParser):
    """A sub-command's parser: it takes the options every command shares after its name.

    argparse parses a sub-command's words with the sub-command's parser alone, so an
    option of the top-level parser is refused after the command unless repeated here.
    Nested sub-commands (`project add`) get the same class from argparse.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        add_verbose_option(self)


def default_demo_home() -> Path:
    """Where `--demo` keeps its demo home: never the user's real home."""
    override = os.environ.get("MEMTAB_DEMO_HOME", "").strip()
    if override:
        return Path(os.path.abspath(os.path.expanduser(override)))
    return Path(platformdirs.user_data_dir("memtab-demo", appauthor=False))


def home_location(args: argparse.Namespace) -> HomeLocation:
    """The home this invocation works on; CliError when it is not a usable directory."""
    location = resolve_home(getattr(args, "home", None))
    if location.path.exists() and not location.path.is_dir():
        raise CliError(f"The memory home {location.path} is not a directory")
    if location.path.is_dir() and not os.access(location.path, os.R_OK | os.X_OK):
        raise CliError(f"The memory home {location.path} is not readable")
    return location


def open_home(args: argparse.Namespace) -> Home:
    return Home(home_location(args).path)


def open_store(
    home: Home, workspace_id: str | None, *, actor: str = "user"
) -> tuple[MemoryStore, Registry]:
    """The store for `--workspace` (global scope only without one); its changes are
    recorded in history as `actor`'s."""
    registry = load_registry(home)
    return MemoryStore.open(home, workspace_id, registry, actor=actor), registry


def print_json(value: Any) -> None:
    """`value` as UTF-8 JSON on stdout, whatever the locale: text that cannot be encoded
    (a lone surrogate from a model or a file name) is written as U+FFFD."""
    data = encode_utf8(json.dumps(value, indent=2, ensure_ascii=False) + "\n")
    binary = getattr(sys.stdout, "buffer", None)
    if binary is None:  # stdout replaced by a text-only stream (tests, embedding)
        sys.stdout.write(data.decode("utf-8"))
        return
    sys.stdout.flush()
    binary.write(data)
    binary.flush()


def format_table(rows: Sequence[Sequence[str]], *, right_aligned: Sequence[int] = ()) -> str:
    """Rows as aligned columns (the last column is never padded)."""
    if not rows:
        return ""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = []
        for index, cell in enumerate(row):
            if index == len(row) - 1:
                cells.append(cell)
            elif index in right_aligned:
                cells.append(cell.rjust(widths[index]))
            else:
                cells.append(cell.ljust(widths[index]))
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


def elide(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"
