"""What a source and its files are: agents, kinds, ids, file references, and why a file
is read-only.

A *source* is one place where an agent keeps memory (Claude Code's user CLAUDE.md and
rules, one project's Claude auto memory, Codex's `memories/`, a project's `.loki/memory`…).
Its id is `<agent>:<name>` (`claude-code:user`, `codex:memories`,
`loki:project-acme-api-1a2b3c4d5e6f`); a file's id is `<source id>:<relative path>`
(`claude-code:user:rules/testing.md`). Names never contain `:`, so an id splits at its
first two colons and round-trips; ids are printable and stable across runs.

Every memory file, mux's or another agent's, is named by one `MemoryFileRef`: its `key` is
a mux file's virtual path or another agent's file id — how the CLI, the tree and the UI
state spell it — and `parse_file_ref` reads either back (docs/formats.md §17.1).
"""

from __future__ import annotations

import logging
import os
import re
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Literal, get_args

from memtab.store.paths import VIRTUAL_ROOT, VirtualPath, parse_file_path

logger = logging.getLogger(__name__)

Agent = Literal["mux", "claude-code", "codex", "loki"]
AGENTS: tuple[Agent, ...] = get_args(Agent)
# The agents whose sources this package discovers (mux is the store's own).
OTHER_AGENTS: tuple[Agent, ...] = ("claude-code", "codex", "loki")
AGENT_TITLES: dict[Agent, str] = {
    "mux": "mux",
    "claude-code": "Claude Code",
    "codex": "Codex",
    "loki": "loki-mode",
}

MUX_SOURCE_ID = "mux"
_NAME = re.compile(r"^[A-Za-z0-9._-]+$")


class SourceError(Exception):
    """A source operation that cannot be done; the message is one line for the user."""


class UnknownSourceError(SourceError):
    pass


class ReadOnlyError(SourceError):
    """The file belongs to its agent (generated, rendered, a session summary…)."""


class Layout(StrEnum):
    """Which files of a source's root belong to it and what each one is."""

    CLAUDE_USER = "claude-user"  # <config>/CLAUDE.md, rules/**
    CLAUDE_PROJECT = "claude-project"  # <project>/CLAUDE.md, .claude/…, CLAUDE.local.md
    CLAUDE_MEMORY = "claude-memory"  # <config>/projects/<encoded>/memory/**, session summaries
    CLAUDE_AUTO_MEMORY = "claude-auto-memory"  # an autoMemoryDirectory's files
    CLAUDE_AGENT_MEMORY = "claude-agent-memory"  # <config>/agent-memory/<subagent>/**
    CODEX_USER = "codex-user"  # <codex home>/AGENTS.md
    CODEX_PROJECT = "codex-project"  # <project>/AGENTS.md
    CODEX_MEMORIES = "codex-memories"  # <codex home>/memories/**
    CODEX_EXTENSIONS = "codex-extensions"  # <codex home>/memories_extensions/**
    LOKI = "loki"  # <project>/.loki/memory/**, $LOKI_DIR/memory/**


class FileKind(StrEnum):
    """What a file is to its agent (shown in the tree and in `--json` as `kind`)."""

    INSTRUCTIONS = "instructions"  # CLAUDE.md, CLAUDE.local.md, AGENTS.md
    RULE = "rule"  # Claude Code rules/*.md
    AUTO_MEMORY_INDEX = "auto-memory-index"  # Claude Code MEMORY.md
    AUTO_MEMORY_TOPIC = "auto-memory-topic"  # Claude Code topic files
    SESSION_SUMMARY = "session-summary"  # Claude Code session memory
    GENERATED = "generated"  # Codex's own memory artifacts
    SKILL = "skill"  # Codex skills/*
    EXTENSION = "extension"  # Codex memory extensions
    NOTE = "note"  # any other text file of a source
    RENDERED = "rendered"  # loki-mode JSON, shown as Markdown text


@dataclass(frozen=True)
class Source:
    """One place where an agent keeps memory.

    `trusted_root` is the agent's root the user configured (resolved once: it may itself
    be a link, as `~/.claude` into a dotfiles repository often is), when `root` is a
    folder below it (`<config>/projects/<name>`, `<codex home>/memories`). A link between
    the two is not followed for writes: such a source is read-only
    (`linked_root_reason`), and every write opens the folders from `trusted_root` without
    following links, so a folder swapped for a link later is refused too. None: `root`
    is itself trusted (a project, an agent's root, a directory the user named).
    """

    id: str
    agent: Agent
    layout: Layout
    root: Path
    label: str
    project: str | None = None
    # Why nothing here can be written (loki), or None when some files can be.
    read_only_reason: str | None = None
    # Whether the root is a git repository whose log is this source's history (Codex).
    has_history: bool = False
    # Something the user should know (e.g. how the project was decided).
    note: str | None = None
    trusted_root: Path | None = None

    @property
    def below_trusted_root(self) -> tuple[str, ...]:
        """The folders from `trusted_root` down to `root` (none when `root` is trusted)."""
        if self.trusted_root is None:
            return ()
        return self.root.relative_to(self.trusted_root).parts

    @property
    def name(self) -> str:
        return self.id.split(":", 1)[1]

    @property
    def writable(self) -> bool:
        return self.read_only_reason is None

    def file_id(self, relative: str) -> str:
        return f"{self.id}:{relative}"


def linked_root_reason(trusted_root: Path, root: Path) -> str | None:
    """Why nothing can be written in `root`, a folder below the agent's `trusted_root`:
    a folder on the way is a symbolic link (None when none is). Memtab reads through it,
    as the agent does, but never writes through a link below a root the user chose."""
    folder = trusted_root
    for part in root.relative_to(trusted_root).parts:
        folder = folder / part
        if os.path.islink(folder):
            return (
                f"{folder} is a link to {os.path.realpath(folder)}, and Memtab does not write "
                "through links below the agent's folder"
            )
    return None


def source_id(agent: Agent, name: str) -> str:
    """`<agent>:<name>`; ValueError for a name that would not round-trip."""
    if not _NAME.match(name):
        raise ValueError(f"Invalid source name {name!r}")
    return f"{agent}:{name}"


def is_valid_source_name(name: str) -> bool:
    return bool(_NAME.match(name))


@dataclass(frozen=True, slots=True)
class MemoryFileRef:
    """One memory file, mux's or another agent's: which store holds it and where.

    `source_id` is `mux` for mux's scopes, else another agent's source id; `path` is a mux
    file's virtual path (`/memories/global/notes.md`), or the '/'-separated path inside
    another agent's source (`rules/testing.md`). A ref may name a folder too (what an
    operation removes or moves, for `is_within`). Build one with `of_mux`, `of_file_id`
    or `parse_file_ref`; `memtab.sources.memory_file.open_memory_file` turns it into
    the file's protocol.
    """

    source_id: str
    path: str

    @classmethod
    def of_mux(cls, path: VirtualPath) -> MemoryFileRef:
        return cls(MUX_SOURCE_ID, str(path))

    @classmethod
    def of_file_id(cls, raw: str) -> MemoryFileRef:
        """Another agent's file by file id (`parse_file_id`)."""
        return parse_file_id(raw)

    @property
    def key(self) -> str:
        """How the CLI, the tree and the UI state name it: the virtual path, or the file
        id (`claude-code:user:rules/testing.md`). `parse_file_ref` reads it back."""
        return self.path if self.source_id == MUX_SOURCE_ID else f"{self.source_id}:{self.path}"

    @property
    def shown(self) -> str:
        """How a person is shown it in a list: a mux file's virtual path, another agent's
        with its agent's name (`Claude Code · rules/testing.md`)."""
        if self.source_id == MUX_SOURCE_ID:
            return self.path
        title = next((t for agent, t in AGENT_TITLES.items() if agent == self.agent), self.agent)
        return f"{title} · {self.path}"

    @property
    def relative(self) -> str:
        """The path inside its scope or source (`notes.md`, `rules/testing.md`)."""
        if self.source_id == MUX_SOURCE_ID:
            return self.path.split("/", 3)[3] if self.path.count("/") >= 3 else ""
        return self.path

    @property
    def name(self) -> str:
        return self.path.rsplit("/", 1)[-1]

    @property
    def agent(self) -> str:
        """Whose memory it is: `mux`, `claude-code`, `codex` or `loki`."""
        return self.source_id.split(":", 1)[0]

    @property
    def virtual_path(self) -> VirtualPath | None:
        """The virtual path of a mux file (what mux's own tree operations take), or None
        for another agent's file, which has none."""
        if self.source_id != MUX_SOURCE_ID:
            return None
        return parse_file_path(self.path)

    def is_within(self, other: MemoryFileRef) -> bool:
        """Whether this is `other` or lies inside it (a folder)."""
        if self.source_id != other.source_id:
            return False
        return self.path == other.path or self.path.startswith(other.path.rstrip("/") + "/")

    def __str__(self) -> str:
        return self.key


def parse_file_id(raw: str) -> MemoryFileRef:
    """Split `<agent>:<name>:<relative path>`; SourceError saying what is wrong."""
    text = raw.strip()
    parts = text.split(":", 2)
    if len(parts) != 3 or parts[0] not in OTHER_AGENTS or not parts[2]:
        raise SourceError(
            f"Not a file id: {raw!r} (expected AGENT:SOURCE:PATH, e.g. "
            "claude-code:user:CLAUDE.md; see `memtab list --source ID`)"
        )
    agent, name, relative = parts
    if not _NAME.match(name):
        raise SourceError(f"Not a file id: {raw!r} (invalid source name {name!r})")
    return MemoryFileRef(f"{agent}:{name}", relative)


def is_virtual_path(raw: str) -> bool:
    """Whether `raw` names a mux file (a virtual path) rather than another agent's file."""
    return raw.strip().startswith(VIRTUAL_ROOT)


def parse_file_ref(raw: str) -> MemoryFileRef:
    """A memory file as the CLI and the UI state name it: a virtual path (`/memories/…`)
    or another agent's file id. PathError or SourceError (one line) when it is neither."""
    if is_virtual_path(raw):
        return MemoryFileRef.of_mux(parse_file_path(raw))
    return parse_file_id(raw)


@dataclass(frozen=True)
class SourceFile:
    """One file of a source as listed."""

    source_id: str
    relative: str  # '/'-separated, inside the source's root
    physical: Path
    kind: FileKind
    description: str
    size_bytes: int
    modified_at_ms: int
    read_only_reason: str | None = None  # None: Memtab may edit it
    topic_type: str | None = None  # Claude Code topic files: user/feedback/project/reference
    topic_name: str | None = None  # Claude Code topic files: `name:`
    warning: str | None = None  # e.g. a MEMORY.md over Claude Code's load limit
    linked: bool = False  # a link in a user's own config dir (read through, never written)

    @property
    def id(self) -> str:
        return f"{self.source_id}:{self.relative}"

    @property
    def ref(self) -> MemoryFileRef:
        return MemoryFileRef(self.source_id, self.relative)

    @property
    def writable(self) -> bool:
        return self.read_only_reason is None

    @property
    def name(self) -> str:
        return self.relative.rsplit("/", 1)[-1]


@dataclass(frozen=True)
class SourceListing:
    """A source and its files, sorted by relative path; `error` when its root is unreadable.
    `last_consolidated_ms`: when its agent last consolidated it (Claude Code's auto
    memory), None when never or not known."""

    source: Source
    files: tuple[SourceFile, ...] = ()
    error: str | None = None
    truncated: bool = False
    last_consolidated_ms: int | None = None

    @property
    def file_count(self) -> int:
        return len(self.files)

    def file(self, relative: str) -> SourceFile | None:
        return next((f for f in self.files if f.relative == relative), None)


@dataclass(frozen=True)
class LookedFor:
    """Where discovery looked for an agent's memory, and what it found (for the settings)."""

    agent: Agent
    path: str
    found: bool
    how: str  # "CLAUDE_CONFIG_DIR", "settings", "default", "project", …
    note: str | None = None


@dataclass(frozen=True)
class Discovery:
    """The sources found (not yet listed) and everything that was looked at."""

    sources: tuple[Source, ...] = ()
    looked_for: tuple[LookedFor, ...] = field(default=())

    def source(self, source_id: str) -> Source:
        found = next((s for s in self.sources if s.id == source_id), None)
        if found is None:
            known = ", ".join(s.id for s in self.sources[:8]) or "none found"
            raise UnknownSourceError(
                f"No source {source_id!r} (see `memtab sources`; found: {known})"
            )
        return found

    def source_containing(self, path: Path) -> Source | None:
        """The source whose root holds `path` (the deepest root wins), for the watcher."""
        best: Source | None = None
        for candidate in self.sources:
            inside = path == candidate.root or candidate.root in path.parents
            if inside and (best is None or len(candidate.root.parts) > len(best.root.parts)):
                best = candidate
        return best
