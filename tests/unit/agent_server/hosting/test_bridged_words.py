"""Which `memtab` command lines run the thin bridge (`invocation.bridged_mcp`): a session of
`memtab mcp` with its own options only; anything else is the full CLI's."""

from __future__ import annotations

import pytest

from memtab.invocation import bridged_mcp

BRIDGED = [
    ["mcp"],
    ["mcp", "--home", "/h"],
    ["--home", "/h", "mcp", "--writes", "direct"],
    ["mcp", "--home=/h", "--workspace", "w1", "--writes=off"],
    ["mcp", "--home", "install"],  # a home named install
]
NOT_BRIDGED = [
    [],
    ["list"],
    ["mcp", "install"],
    ["mcp", "host"],
    ["mcp", "--help"],
    ["mcp", "-v"],
    ["-v", "mcp"],
    ["mcp", "--wri", "off"],  # an abbreviation argparse takes: its business
    ["mcp", "--home"],
    ["--workspace", "w", "mcp"],  # the window's option before the command
]


@pytest.mark.parametrize("words", BRIDGED)
def test_sessions_of_memtab_mcp_are_bridged(words: list[str]) -> None:
    assert bridged_mcp(words)


@pytest.mark.parametrize("words", NOT_BRIDGED)
def test_everything_else_is_the_full_clis(words: list[str]) -> None:
    assert not bridged_mcp(words)
