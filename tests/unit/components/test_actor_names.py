"""One vocabulary of actors: History, Blame, the tree's badges and the runs' events name
each actor the same way (memtab.store.actors)."""

from __future__ import annotations

from typing import get_args

import pytest

from memtab.blame.records import BlameLine
from memtab.components.activity.badges import Actor, Badge
from memtab.components.blame import describe
from memtab.components.history.history import actor_words
from memtab.store.actors import ACTORS, actor_name, actor_short
from memtab.store.history.versions import Actor as HistoryActor

NOW = 1_800_000_000_000


@pytest.mark.parametrize("actor", get_args(HistoryActor))
def test_history_and_blame_name_every_recorded_actor_alike(actor: str) -> None:
    line = BlameLine(line=1, text="- a", actor=actor, at=NOW - 60_000)
    assert actor in ACTORS
    assert actor_words(actor) == describe(line, NOW).title == actor_name(actor)
    assert describe(line, NOW).label.startswith(actor_short(actor) + " ")


def test_the_words_that_differed_are_one_now() -> None:
    assert actor_name("consolidator") == "Consolidator"  # blame said "dream"
    assert actor_name("external") == "Another program"  # history said "Outside Memtab"
    assert Badge(actor=Actor.OUTSIDE, at_ms=NOW).label == actor_name("external").lower()
    assert Badge(actor=Actor.CONSOLIDATOR, at_ms=NOW).label == "consolidator"
    assert actor_name("mcp:claude-code") == "Claude Code via Memtab MCP"
    assert all(len(name.short) <= 7 for name in ACTORS.values())


def test_a_line_there_before_memtab_is_not_dated_by_memtab_s_first_look() -> None:
    line = BlameLine(line=1, text="# Notes", actor="before-memtab", at=NOW - 4 * 60_000)
    entry = describe(line, NOW)
    assert entry.label == "before"  # not "before 4m": the line is older than that
    assert entry.details[0].startswith("In the file before Memtab saw it, written no later than ")


@pytest.mark.parametrize(
    ("client", "name", "short"),
    [
        ("claude-code", "Claude Code", "claude"),
        ("codex-mcp-client", "Codex", "codex"),
        ("Claude-Code", "Claude Code", "claude"),  # as a client may spell itself
        ("mux", "mux", "mux"),
        ("xum", "xum", "xum"),
        ("cursor-vscode", "cursor-vscode", "cursor-"),  # unknown: its own name
    ],
)
def test_an_mcp_client_is_named_as_its_agent_everywhere(client: str, name: str, short: str) -> None:
    """Codex's client calls itself codex-mcp-client: History, Blame (text and JSON), the
    badges and the Inbox say "Codex" — never "mcp" for every agent."""
    actor = f"mcp:{client}"
    assert actor_name(actor) == f"{name} via Memtab MCP"
    assert actor_name(actor, how=False) == name
    assert actor_short(actor) == short
    line = BlameLine(line=1, text="- a", actor=actor, at=NOW - 60_000)
    assert describe(line, NOW).label.startswith(short + " ")
    assert line.to_json()["actorName"] == f"{name} via Memtab MCP"
    badge = Badge(actor=Actor.AGENT, at_ms=NOW, agent=actor)
    assert badge.label == name.lower()
    assert badge.sentence(NOW).startswith(f"{name} via Memtab MCP changed it ")
    assert Badge.read(badge.to_json()) == badge  # kept in the UI state as it was
