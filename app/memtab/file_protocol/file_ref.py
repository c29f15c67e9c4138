"""How every memory file is named (docs/formats.md §17.1): `MemoryFileRef`, the agents, source
ids (`claude-code:user`) and file ids (`claude-code:user:rules/testing.md`), printable, stable
and split at their first two colons."""

from __future__ import annotations

from typing import Literal, NamedTuple, get_args

from memtab.fs.lazy_re import LazyPattern
from memtab.store.paths import VIRTUAL_ROOT, VirtualPath, parse_file_path

Agent = Literal["mux", "claude-code", "codex", "loki", "gemini"]
AGENTS: tuple[Agent, ...] = get_args(Agent)
# The agents whose sources this package discovers (mux is the store's own).
OtherAgent = Literal["claude-code", "codex", "loki", "gemini"]
OTHER_AGENTS: tuple[Agent, ...] = get_args(OtherAgent)
AGENT_TITLES: dict[Agent, str] = {
    "mux": "mux",
    "claude-code": "Claude Code",
    "codex": "Codex",
    "loki": "loki-mode",
    "gemini": "Gemini CLI",
}


def agent_title(agent: str | None) -> str:
    """ "Claude Code", "Codex", "loki-mode" for an agent id (the id itself when unknown)."""
    return next((title for key, title in AGENT_TITLES.items() if key == agent), agent or "")


MUX_SOURCE_ID = "mux"
_NAME = LazyPattern(r"^[A-Za-z0-9._-]+$")


class SourceError(Exception):
    """A source operation that cannot be done; the message is one line for the user."""


def source_id(agent: Agent, name: str) -> str:
    """`<agent>:<name>`; ValueError for a name that would not round-trip."""
    if not _NAME.match(name):
        raise ValueError(f"Invalid source name {name!r}")
    return f"{agent}:{name}"


def is_valid_source_name(name: str) -> bool:
    return bool(_NAME.match(name))


class MemoryFileRef(NamedTuple):
    """One memory file (or folder), mux's or another agent's: its store (`mux` or a source id)
    and its path there (a virtual path, or a '/'-separated path in the source)."""

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
        """How the CLI, the tree and the UI state name it (the virtual path or file id);
        `parse_file_ref` reads it back."""
        return self.path if self.source_id == MUX_SOURCE_ID else f"{self.source_id}:{self.path}"

    @property
    def shown(self) -> str:
        """How a list shows it: the virtual path, or `Claude Code · rules/testing.md`."""
        if self.source_id == MUX_SOURCE_ID:
            return self.path
        return f"{agent_title(self.agent)} · {self.path}"

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
        """Whose memory it is: `mux`, `claude-code`, `codex`, `loki` or `gemini`."""
        return self.source_id.split(":", 1)[0]

    @property
    def virtual_path(self) -> VirtualPath | None:
        """The virtual path of a mux file, or None for another agent's file."""
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
    parts = raw.strip().split(":", 2)
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
    """A memory file from a virtual path or another agent's file id; PathError or SourceError
    when it is neither."""
    if is_virtual_path(raw):
        return MemoryFileRef.of_mux(parse_file_path(raw))
    return parse_file_id(raw)
