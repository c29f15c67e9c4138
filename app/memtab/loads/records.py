"""The loads view's records: `memtab loads --json` (docs/formats.md §17.6), stable, fields only
added."""

from __future__ import annotations

from typing import Annotated, Literal

from memtab.fs.records import OmitNone, Record

AgentName = Literal["claude", "codex", "xum", "gemini"]
AGENTS: tuple[AgentName, ...] = ("claude", "codex", "xum", "gemini")
AGENT_LABELS: dict[AgentName, str] = {
    "claude": "Claude Code",
    "codex": "Codex",
    "xum": "xum",
    "gemini": "Gemini CLI",
}
"""How each agent is named to a person (`memtab loads`, `memtab recall`, the window)."""


class LoadedFile(Record):
    """One file an agent reads at a session's start (or, `on demand`, one it is pointed to):
    `lines`, `bytes`, `tokens` the whole file's, `loaded…` what the agent reads."""

    path: Annotated[str | None, OmitNone] = None
    """A xum file's virtual path, or the file's path on disk when no source holds it."""
    id: Annotated[str | None, OmitNone] = None
    """Another agent's file id (`claude-code:user:CLAUDE.md`), when a source holds it."""
    lines: int = 0
    bytes: int = 0
    tokens: int = 0
    """Estimated: UTF-8 bytes / 4, rounded up (no agent's tokenizer is at hand)."""
    loaded_lines: int = 0
    """Whole lines read (a line cut in its middle is not counted)."""
    cut_at_line: Annotated[int | None, OmitNone] = None
    """The first line not read whole (1-based), when the agent does not read it all."""
    resumes_at_line: Annotated[int | None, OmitNone] = None
    """Codex keeps the head and the tail of a long summary: the first line read again."""
    loaded_bytes: int = 0
    loaded_tokens: int = 0
    kind: str = ""
    """What it is to the agent (`managed`, `user`, `topic`, `summary`, `pinned`, `note`…)."""
    when: Literal["start", "on demand"] = "start"
    physical_path: Annotated[str | None, OmitNone] = None
    imported_by: Annotated[str | None, OmitNone] = None
    imported_at_line: Annotated[int | None, OmitNone] = None
    """The line of `imported_by` that `@`-imports it (1-based)."""
    cut_reason: Annotated[str | None, OmitNone] = None
    """Why the agent stops, in words (`the 200-line limit of MEMORY.md`)."""
    name: Annotated[str | None, OmitNone] = None
    """The file as its agent names it (`~/.claude/…/MEMORY.md`, `./AGENTS.md`)."""


class AgentLoads(Record):
    """What one agent reads at a session's start, in its order."""

    agent: AgentName
    files: tuple[LoadedFile, ...] = ()
    total_tokens: int = 0
    """The estimated tokens of what is read at the start (`loadedTokens` summed)."""
    notes: tuple[str, ...] = ()
    """What the agent's settings chose, and what could not be told."""
    subagent: Annotated[str | None, OmitNone] = None
    """The Claude Code subagent whose start this is (`--subagent`), else absent."""


class Loads(Record):
    """`memtab loads --json`: every agent asked about."""

    agents: tuple[AgentLoads, ...] = ()
    workspace: Annotated[str | None, OmitNone] = None
    directory: Annotated[str | None, OmitNone] = None
    """The working directory Claude Code and Codex would start in."""
