"""What a `memtab` command line asks for, read from its words alone: `memtab.launch` reads
it before anything else is imported, `memtab.cli.main` to load only the command asked for.
Imports nothing."""

from __future__ import annotations

from collections.abc import Sequence

# The top-level options that take a value: their value is not the sub-command.
OPTIONS_WITH_VALUES = ("--home", "--workspace", "--screenshot")


def requested_command(
    argv: Sequence[str], options_with_values: Sequence[str] = OPTIONS_WITH_VALUES
) -> str | None:
    """The sub-command named in `argv`, or None."""
    skip_value = False
    for word in argv:
        if skip_value:
            skip_value = False
        elif word in options_with_values:
            skip_value = True
        elif not word.startswith("-"):
            return word
    return None


# `memtab mcp`'s own options that take a value.
MCP_OPTIONS_WITH_VALUES = ("--home", "--workspace", "--writes", "--answer-budget")
# `memtab mcp`'s actions: a person's commands, not an agent's session.
MCP_ACTIONS = ("install", "uninstall", "host")


def mcp_session(argv: Sequence[str]) -> bool:
    """Whether `argv` asks for `memtab mcp` serving a session (`mcp` and no action), whatever
    else its words say."""
    words = list(argv)
    if requested_command(words) != "mcp":
        return False
    after = words[words.index("mcp") + 1 :]
    return requested_command(after, MCP_OPTIONS_WITH_VALUES) not in MCP_ACTIONS


def bridged_mcp(argv: Sequence[str]) -> bool:
    """Whether `argv` asks for `memtab mcp` serving a session with only what the thin bridge
    understands (`--home`, `--workspace`, `--writes`, `--answer-budget`); else the full CLI."""
    words = list(argv)
    index = _past_options(words, 0, ("--home",))
    at_mcp = index < len(words) and words[index] == "mcp"
    return at_mcp and _past_options(words, index + 1, MCP_OPTIONS_WITH_VALUES) == len(words)


def _past_options(words: list[str], index: int, options: Sequence[str]) -> int:
    """The index of the first word from `index` on that is none of `options` (with its value)."""
    while index < len(words):
        word = words[index]
        if word in options and index + 1 < len(words):
            index += 2
        elif word not in options and any(word.startswith(option + "=") for option in options):
            index += 1
        else:
            return index
    return index
