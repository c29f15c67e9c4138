"""Which `memtab` command lines run the thin bridge (`invocation.bridged_mcp`): a session of
`memtab mcp` with its own options only; anything else is the full CLI's. Which are an
agent's session at all (`invocation.mcp_session`), answered even when refused."""

from __future__ import annotations

import pytest

from memtab.cli.main import build_parser
from memtab.invocation import MCP_ACTIONS, bridged_mcp, mcp_session

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


@pytest.mark.parametrize(
    "words",
    [
        *BRIDGED,
        ["mcp", "--bogus-flag"],  # an option of a newer Memtab's install
        ["mcp", "--answer-budget"],  # its value missing
        ["mcp", "extra-word"],
        ["mcp", "--help"],
        ["mcp", "--wri", "off"],
    ],
)
def test_sessions_of_memtab_mcp_are_whatever_names_no_action(words: list[str]) -> None:
    assert mcp_session(words)


@pytest.mark.parametrize(
    "words", [[], ["list"], ["mcp", "install", "--bogus"], ["mcp", "host"], ["--home", "mcp"]]
)
def test_an_action_or_another_command_is_no_session(words: list[str]) -> None:
    assert not mcp_session(words)


def test_the_actions_are_the_parsers() -> None:
    mcp = next(
        action.choices["mcp"]
        for action in build_parser(["mcp"])._subparsers._group_actions  # type: ignore[union-attr]
        if action.choices and "mcp" in action.choices
    )
    actions = next(action for action in mcp._actions if action.dest == "mcp_action")
    assert set(actions.choices or ()) == set(MCP_ACTIONS)
