"""Argument parsing and dispatch for `memtab`."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    print("memtab: not yet", args, file=sys.stderr)
    return 2
