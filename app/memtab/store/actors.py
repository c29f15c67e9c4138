"""Who changed a memory file, in one set of words: History, Blame, the tree's badges,
Recently deleted, the runs and the CLI all name an actor through this module
(docs/formats.md §14.7).

An actor is what history records (`Version.actor`, §14.2: `user`, `consolidator`,
`writer`, `agent-tool`, `external`, `sync`, `mcp:<client>`), what blame adds
(`before-memtab`, `unknown`, `mux`, `xum`) or an agent that owns a file (`claude-code`, `codex`,
`loki`). Each has a name, which starts a sentence or fills a WHO column ("Consolidator",
"Another program"), and a short form of at most seven letters for the blame gutter
("consol", "other"). A new source of changes (xum's journal, an MCP client) adds its
actor here, and every view names it the same way.
"""

from __future__ import annotations

from typing import NamedTuple

MCP_PREFIX = "mcp:"
"""An MCP client's actor is `mcp:<client>` (§22.4)."""

EXTERNAL = "external"
"""A change another program made, as history records it (§14.2)."""

BEFORE_MEMTAB = "before-memtab"
"""Blame: the file held the line when Memtab first saw it (its time is that sight's)."""

UNSAVED = "unsaved"
"""A line of the editor's buffer that the file on disk does not hold yet (blame)."""


class ActorName(NamedTuple):
    """How one actor is named."""

    name: str
    """Its name, as it starts a sentence or fills a WHO column."""
    short: str
    """At most seven letters (the blame gutter)."""


ACTORS: dict[str, ActorName] = {
    "user": ActorName("You", "you"),
    "consolidator": ActorName("Consolidator", "consol"),
    "writer": ActorName("Memory writer", "writer"),
    "agent-tool": ActorName("Agent's memory tool", "agent"),
    "sync": ActorName("Sync (another machine)", "sync"),
    "external": ActorName("Another program", "other"),
    "mux": ActorName("mux", "mux"),
    "xum": ActorName("xum's memory tool", "xum"),
    "claude-code": ActorName("Claude Code", "claude"),
    "codex": ActorName("Codex", "codex"),
    "loki": ActorName("loki-mode", "loki"),
    BEFORE_MEMTAB: ActorName("There before Memtab", "before"),
    "unknown": ActorName("Older than the history kept", "old"),
    UNSAVED: ActorName("Not saved yet", "unsaved"),
}
"""Every actor Memtab knows, by the id history, blame and the runs record."""


def actor_name(actor: str) -> str:
    """The name of `actor` ("Consolidator"; an MCP client: "Claude Code through MCP"; an
    actor this module does not know: as it is recorded)."""
    if actor.startswith(MCP_PREFIX):
        client = actor.removeprefix(MCP_PREFIX)
        return f"{ACTORS[client].name if client in ACTORS else client} through MCP"
    known = ACTORS.get(actor)
    return known.name if known is not None else actor


def actor_short(actor: str) -> str:
    """`actor` in at most seven letters (an MCP client: "mcp")."""
    if actor.startswith(MCP_PREFIX):
        return "mcp"
    known = ACTORS.get(actor)
    return known.short if known is not None else actor[:7]
