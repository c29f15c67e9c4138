"""Who changed a memory file, in one set of words: History, Blame, the tree's badges,
Recently deleted, the Inbox, the runs and the CLI all name an actor through this module
(docs/formats.md §14.7).

An actor is what history records (`Version.actor`, §14.2: `user`, `consolidator`,
`writer`, `agent-tool`, `external`, `sync`, `mcp:<client>`), what blame adds
(`before-memtab`, `unknown`, `mux`, `xum`) or an agent that owns a file (`claude-code`, `codex`,
`loki`). Each has a name, which starts a sentence or fills a WHO column ("Consolidator",
"Another program"), and a short form of at most seven letters for the blame gutter
("consol", "other"). A new source of changes (xum's journal, an MCP client) adds its
actor here, and every view names it the same way.

An MCP client is recorded as it named itself (`mcp:<its clientInfo name>`, §22.1: Codex's
is `codex-mcp-client`); `MCP_CLIENTS` is the one table of the names agents' clients give,
so a known client is named as its agent everywhere ("Codex", "codex"; "Codex via Memtab
MCP" where the words say how), and any other keeps the name it gave.
"""

from memtab.fs.slotted import Slotted

MCP_PREFIX = "mcp:"
"""An MCP client's actor is `mcp:<client>` (§22.4)."""

EXTERNAL = "external"
"""A change another program made, as history records it (§14.2)."""

BEFORE_MEMTAB = "before-memtab"
"""Blame: the file held the line when Memtab first saw it (its time is that sight's)."""

UNSAVED = "unsaved"
"""A line of the editor's buffer that the file on disk does not hold yet (blame)."""


class ActorName(Slotted):
    """How one actor is named."""

    __slots__ = ("name", "short")

    name: str
    """Its name, as it starts a sentence or fills a WHO column."""
    short: str
    """At most seven letters (the blame gutter)."""

    def __init__(self, name: str, short: str) -> None:
        self.name = name
        self.short = short


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
    "gemini": ActorName("Gemini CLI", "gemini"),
    BEFORE_MEMTAB: ActorName("There before Memtab", "before"),
    "unknown": ActorName("Older than the history kept", "old"),
    UNSAVED: ActorName("Not saved yet", "unsaved"),
}
"""Every actor Memtab knows, by the id history, blame and the runs record."""


MCP_CLIENTS: dict[str, ActorName] = {
    "claude-code": ACTORS["claude-code"],
    "codex-mcp-client": ACTORS["codex"],
    "codex": ACTORS["codex"],
    "gemini-cli-mcp-client": ACTORS["gemini"],
    "mux": ACTORS["mux"],
    "xum": ActorName("xum", "xum"),
}
"""The agents whose MCP clients Memtab knows, by the name the client gives (its
`clientInfo`, as the server records it, in any case): Claude Code's, Codex's, Gemini
CLI's (`gemini-cli-mcp-client`), mux's and xum's when they name themselves so."""

VIA_MCP = "via Memtab MCP"
"""How an MCP client's change came, after its name where the words say how."""


def mcp_agent(actor: str) -> ActorName | None:
    """The agent of an MCP client's actor (`mcp:codex-mcp-client`: Codex), if Memtab
    knows the client."""
    if not actor.startswith(MCP_PREFIX):
        return None
    return MCP_CLIENTS.get(actor.removeprefix(MCP_PREFIX).casefold())


def actor_name(actor: str, *, how: bool = True) -> str:
    """The name of `actor` ("Consolidator"; an actor this module does not know: as it is
    recorded). An MCP client is its agent's name ("Codex") or the name it gave, followed
    by "via Memtab MCP" unless `how` is False (where the view says it: the Inbox, a badge)."""
    if actor.startswith(MCP_PREFIX):
        agent = mcp_agent(actor)
        name = agent.name if agent is not None else actor.removeprefix(MCP_PREFIX)
        return f"{name} {VIA_MCP}" if how else name
    known = ACTORS.get(actor)
    return known.name if known is not None else actor


def actor_short(actor: str) -> str:
    """`actor` in at most seven letters (an MCP client: its agent's, "codex", or the
    first letters of the name it gave)."""
    if actor.startswith(MCP_PREFIX):
        agent = mcp_agent(actor)
        return agent.short if agent is not None else actor.removeprefix(MCP_PREFIX)[:7]
    known = ACTORS.get(actor)
    return known.short if known is not None else actor[:7]
