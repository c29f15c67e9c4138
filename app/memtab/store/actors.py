"""Who changed a memory file, in one set of words for every view (docs/formats.md §14.7): each
actor's name for a sentence or a WHO column, and a short form of at most seven letters for the blame
gutter; a known MCP client is named as its agent."""

from memtab.fs.slotted import Slotted

MCP_PREFIX = "mcp:"  # an MCP client's actor is `mcp:<client>` (§22.4)

EXTERNAL = "external"  # a change another program made, as history records it (§14.2)

BEFORE_MEMTAB = "before-memtab"
"""Blame: the file held the line when Memtab first saw it (its time is that sight's)."""

UNSAVED = "unsaved"
"""A line of the editor's buffer that the file on disk does not hold yet (blame)."""


class ActorName(Slotted):
    """How one actor is named."""

    __slots__ = ("name", "short")

    name: str  # its name, as it starts a sentence or fills a WHO column
    short: str  # at most seven letters (the blame gutter)

    def __init__(self, name: str, short: str) -> None:
        self.name, self.short = name, short


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
"""The agents whose MCP clients Memtab knows, by the `clientInfo` name the client gives (any
case)."""

VIA_MCP = "via Memtab MCP"
"""How an MCP client's change came, after its name where the words say how."""


def mcp_agent(actor: str) -> ActorName | None:
    """The agent of an MCP client's actor (`mcp:codex-mcp-client`: Codex), if known."""
    return (
        MCP_CLIENTS.get(actor[len(MCP_PREFIX) :].casefold())
        if actor.startswith(MCP_PREFIX)
        else None
    )


def actor_name(actor: str, *, how: bool = True) -> str:
    """The name of `actor` ("Consolidator"; unknown: as recorded); an MCP client's followed by "via
    Memtab MCP" unless `how` is False."""
    if actor.startswith(MCP_PREFIX):
        agent = mcp_agent(actor)
        name = agent.name if agent is not None else actor.removeprefix(MCP_PREFIX)
        return f"{name} {VIA_MCP}" if how else name
    known = ACTORS.get(actor)
    return known.name if known is not None else actor


def actor_short(actor: str) -> str:
    """`actor` in at most seven letters."""
    if actor.startswith(MCP_PREFIX):
        agent = mcp_agent(actor)
        return agent.short if agent is not None else actor.removeprefix(MCP_PREFIX)[:7]
    known = ACTORS.get(actor)
    return known.short if known is not None else actor[:7]
