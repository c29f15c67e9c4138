"""What every `memtab` sub-command shares: the home, errors, JSON and aligned tables.

The options and errors the top-level parser needs too live in `memtab.cli.options` (the
window's start imports that, never this module) and are shared from here.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from memtab.cli.options import (
    CliError,
    CommandParser,
    add_home_option,
    add_verbose_option,
    default_demo_home,
    home_location,
    verbosity,
)
from memtab.fs.atomic import encode_utf8
from memtab.store.home import Home
from memtab.store.memory import MemoryStore
from memtab.store.registry import Registry, load_registry

__all__ = [
    "CliError",
    "CommandParser",
    "add_home_option",
    "add_verbose_option",
    "default_demo_home",
    "elide",
    "format_table",
    "home_location",
    "open_home",
    "open_store",
    "print_json",
    "verbosity",
]


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
