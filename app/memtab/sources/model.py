"""What a source and its files are: agents' layouts, kinds, listings, discoveries, and why a file
is read-only; ids are `memtab.file_protocol.file_ref`'s."""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Literal

from memtab.file_protocol.file_ref import Agent, MemoryFileRef, SourceError, source_id
from memtab.fs.records import Record
from memtab.humanize import plural

AD_HOC_EXTENSION = "ad_hoc"
"""Codex's ad-hoc notes extension: its `notes/` are the user's (docs/formats.md §17.3)."""
_SHOWN = 8


class UnknownSourceError(SourceError):
    pass


class ReadOnlyError(SourceError):
    """The file belongs to its agent (generated, rendered, a session summary…)."""


class AgentFormatError(SourceError):
    """What would be written breaks a rule its agent reads the file by: nothing written."""


class SecretRefusedError(SourceError):
    """The text holds a potential secret and the memory is shared beyond this machine."""


class Layout(StrEnum):
    """Which files of a source's root belong to it and what each one is."""

    CLAUDE_USER = "claude-user"  # <config>/CLAUDE.md, rules/**
    CLAUDE_PROJECT = "claude-project"  # <project>/CLAUDE.md, .claude/…, CLAUDE.local.md
    CLAUDE_MEMORY = "claude-memory"  # <config>/projects/<encoded>/memory/**, session summaries
    CLAUDE_AUTO_MEMORY = "claude-auto-memory"  # an autoMemoryDirectory's files
    CLAUDE_AGENT_MEMORY = "claude-agent-memory"  # <config>/agent-memory/<subagent>/**
    CLAUDE_TEAM_MEMORY = "claude-team-memory"  # <auto memory>/team/<mount>/**
    CLAUDE_ACCOUNT_MEMORY = "claude-account-memory"  # <config>/memory/personal/**
    CODEX_USER = "codex-user"  # <codex home>/AGENTS.md
    CODEX_PROJECT = "codex-project"  # <project>/AGENTS.md
    CODEX_MEMORIES = "codex-memories"  # <codex home>/memories/**
    CODEX_EXTENSIONS = "codex-extensions"  # <codex home>/memories_extensions/**
    LOKI = "loki"  # <project>/.loki/memory/**, $LOKI_DIR/memory/**
    GEMINI_USER = "gemini-user"  # <gemini dir>/GEMINI.md (the context file names)
    GEMINI_PROJECT = "gemini-project"  # <project>/GEMINI.md (the context file names)
    GEMINI_MEMORY = "gemini-memory"  # <gemini dir>/tmp/<project id>/memory/**


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
    RENDERED = "rendered"  # JSON shown as Markdown text: loki-mode's, a Codex manifest
    MEMORY_INDEX = "memory-index"  # Gemini CLI's private MEMORY.md (loaded; notes on demand)


@dataclass(frozen=True)
class Source:
    """One place where an agent keeps memory. `trusted_root`: the agent's root above `root`,
    from which writes open folders without following links (None: `root` is trusted)."""

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
    # Folders (the first segment below `root`) its agent may not write, and why.
    read_only_folders: tuple[tuple[str, str], ...] = ()
    # Memory its agent shares beyond this machine (a write holding a secret is refused).
    shared: Literal["account", "team"] | None = None
    # The context file names its agent reads in `root` (Gemini CLI's `context.fileName`).
    context_names: tuple[str, ...] = ()

    def folder_read_only_reason(self, segments: tuple[str, ...]) -> str | None:
        """Why the file at `segments` may not be written, for its folder (None: it may)."""
        if len(segments) < 2:
            return None
        return next((why for name, why in self.read_only_folders if name == segments[0]), None)

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


def is_folder(entry: os.DirEntry[str], *, follow_links: bool = False) -> bool:
    """Whether a scanned entry is a folder (a link to one only with `follow_links`)."""
    try:
        return entry.is_dir(follow_symlinks=follow_links)
    except OSError:
        return False


def linked_root_reason(trusted_root: Path, root: Path) -> str | None:
    """Why nothing can be written in `root`: a folder below `trusted_root` on the way is a link
    (None: none is)."""
    folder = trusted_root
    for part in root.relative_to(trusted_root).parts:
        folder = folder / part
        if os.path.islink(folder):
            return (
                f"{folder} is a link to {os.path.realpath(folder)}, and Memtab does not write "
                "through links below the agent's folder"
            )
    return None


@dataclass(frozen=True)
class AgentFolder:
    """A folder below an agent's root that is a source of its own while there (Codex's
    `memories/`, Claude Code's `agent-memory/`…)."""

    name: str
    path: str
    layout: Layout
    label: str
    project: str | None = None
    note: str | None = None
    shared: Literal["account", "team"] | None = None
    git_history: bool = False


def folder_sources(agent: Agent, root: Path, folders: Iterable[AgentFolder]) -> list[Source]:
    """A source for each of `folders` below `root`, the agent's trusted root."""
    found = []
    for folder in folders:
        path = root / folder.path
        if not path.is_dir():
            continue
        found.append(
            Source(
                id=source_id(agent, folder.name),
                agent=agent,
                layout=folder.layout,
                root=path,
                label=folder.label,
                project=folder.project,
                read_only_reason=linked_root_reason(root, path),
                has_history=folder.git_history and (path / ".git").exists(),
                note=folder.note,
                trusted_root=root,
                shared=folder.shared,
            )
        )
    return found


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
    warning_label: str | None = None  # the warning in two words, for the tree's row
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
class ListedResource:
    """A resource the manifest lists: its origin, its file, the origin's sha, whether there."""

    source_id: str
    relative: str
    content_sha256: str
    present: bool


@dataclass(frozen=True)
class ImportedProject:
    """One project's imported memory: its key, its folder, and its `scope.json`'s `cwd`."""

    key: str
    folder: str
    cwd: str | None

    @property
    def label(self) -> str:
        """What the import is, in the words the tree shows."""
        where = f"cwd {self.cwd}" if self.cwd else f"project key {self.key}, no cwd"
        return f"imported from Claude Code ({where})"


@dataclass(frozen=True)
class CodexExtension:
    """One of Codex's memory extensions as its folder and manifest have it (§17.3)."""

    name: str
    folder: str
    description: str = ""
    """The title of its instructions.md ("" when it has none)."""
    instructions: str | None = None
    manifest: str | None = None
    manifest_version: int | None = None
    listed: tuple[ListedResource, ...] = ()
    resources: tuple[str, ...] = ()
    """Every file below `resources/`, listed in the manifest or not."""
    notes: tuple[str, ...] = ()
    """The ad-hoc notes extension's notes (`notes/`)."""
    problem: str | None = None
    """Why Codex could not use its manifest.json (None: it can, or there is none)."""
    imports: tuple[ImportedProject, ...] = ()
    """The import of another agent's memory: each project's folder and `cwd`."""

    @property
    def unlisted(self) -> tuple[str, ...]:
        """The files of `resources/` its manifest does not list (Codex leaves them be)."""
        listed = {resource.relative for resource in self.listed}
        return tuple(r for r in self.resources if r not in listed)

    def inside(self, relative: str) -> str:
        """A file of the extension as named inside it (`resources/index-a.md`)."""
        return relative.removeprefix(f"{self.folder}/")

    def summary(self) -> str:
        """What it holds in a few words: `2 resources · manifest v1: 2 listed`."""
        parts: list[str] = []
        if self.notes or self.name == AD_HOC_EXTENSION:
            parts.append(plural(len(self.notes), "note"))
        if self.resources or not (self.notes or self.name == AD_HOC_EXTENSION):
            parts.append(plural(len(self.resources), "resource"))
        if self.imports:
            parts.append(f"imported from Claude Code: {plural(len(self.imports), 'project')}")
        if self.manifest is not None:
            if self.problem is not None:
                parts.append("manifest unusable")
            else:
                parts.append(f"manifest v{self.manifest_version}: {len(self.listed)} listed")
        return " · ".join(parts)

    def details(self) -> list[str]:
        """What it is, line by line: description, resources and where each comes from, notes."""
        title = f"Codex memory extension `{self.name}`"
        lines = [f"{title}: {self.description}" if self.description else title]
        if self.manifest is None:
            if self.resources:
                lines.append("No manifest.json: what feeds it writes its resources")
        elif self.problem is not None:
            lines.append(f"manifest.json: Codex cannot use it ({self.problem})")
        else:
            lines.append(
                f"manifest.json (version {self.manifest_version}): "
                f"{plural(len(self.listed), 'resource')} Codex keeps in step"
            )
            for resource in self.listed[:_SHOWN]:
                gone = "" if resource.present else " (not there)"
                lines.append(f"  {self.inside(resource.relative)} ← {resource.source_id}{gone}")
            if len(self.listed) > _SHOWN:
                lines.append(f"  and {len(self.listed) - _SHOWN} more")
        usable = self.manifest is not None and self.problem is None
        others = self.unlisted if usable else self.resources
        if others:
            shown = ", ".join(self.inside(r) for r in others[:_SHOWN])
            more = f" and {len(others) - _SHOWN} more" if len(others) > _SHOWN else ""
            lines.append(f"{'Not in it' if usable else 'Resources'}: {shown}{more}")
        if self.notes:
            lines.append(f"{plural(len(self.notes), 'note')} in notes/")
        for project in self.imports[:_SHOWN]:
            lines.append(f"  {self.inside(project.folder)}: {project.label}")
        if len(self.imports) > _SHOWN:
            lines.append(f"  and {len(self.imports) - _SHOWN} more projects")
        return lines


@dataclass(frozen=True)
class SourceListing:
    """A source and its files, sorted by relative path (`error`: root unreadable), when its
    agent last consolidated it, and Codex's extensions."""

    source: Source
    files: tuple[SourceFile, ...] = ()
    error: str | None = None
    truncated: bool = False
    last_consolidated_ms: int | None = None
    extensions: tuple[CodexExtension, ...] = ()

    @property
    def file_count(self) -> int:
        return len(self.files)

    def file(self, relative: str) -> SourceFile | None:
        return next((f for f in self.files if f.relative == relative), None)


class LookedFor(Record, write_only=True):
    """Where discovery looked for an agent's memory and what it found (docs/formats.md §17.1)."""

    agent: Agent
    path: str
    found: bool
    how: str  # "CLAUDE_CONFIG_DIR", "settings", "default", "project", …
    note: str | None = None


@dataclass(frozen=True)
class Opening:
    """A directory where an undiscovered source may appear: an entry named in `names` coming
    or going means discover again (watched, not recursively)."""

    directory: Path
    names: frozenset[str] | None = None


@dataclass(frozen=True)
class Discovery:
    """The sources found (not yet listed) and everything that was looked at."""

    sources: tuple[Source, ...] = ()
    looked_for: tuple[LookedFor, ...] = field(default=())
    openings: tuple[Opening, ...] = ()
    """Where a source not found now may appear (`opens`)."""

    def opens(self, path: str) -> bool:
        """Whether a change of `path` may be a source appearing."""
        parent, name = os.path.split(path.rstrip(os.sep))
        for opening in self.openings:
            if str(opening.directory) == parent and (
                opening.names is None or name in opening.names
            ):
                return not any(str(source.root) == path for source in self.sources)
        return False

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
        # Compared as text (asked for every change); of two roots, the longer is deeper.
        text = str(path)
        best: Source | None = None
        best_length = -1
        for candidate in self.sources:
            root = str(candidate.root)
            inside = text == root or text.startswith(root if root.endswith("/") else root + "/")
            if inside and len(root) > best_length:
                best, best_length = candidate, len(root)
        return best
