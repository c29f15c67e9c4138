"""What a `memtab` command line asks for, read from its words alone: `memtab.launch` reads
it before anything else is imported, `memtab.cli.main` to load only the command asked for.
Imports nothing."""

from __future__ import annotations

from collections.abc import Sequence

# The top-level options that take a value: their value is not the sub-command.
OPTIONS_WITH_VALUES = ("--home", "--workspace", "--screenshot")


def requested_command(argv: Sequence[str]) -> str | None:
    """The sub-command named in `argv` (its first non-option word), or None."""
    skip_value = False
    for word in argv:
        if skip_value:
            skip_value = False
        elif word in OPTIONS_WITH_VALUES:
            skip_value = True
        elif not word.startswith("-"):
            return word
    return None
