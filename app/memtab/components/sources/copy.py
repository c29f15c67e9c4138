"""Copy to…: where a memory can be copied from the Memory tab, and the copy itself.

`copy_targets(scan, origin_source_id)` lists the places a new file can go: the shown
workspace's mux scopes that are available, and the other agents' sources that take new
memory files (Claude Code's rules and auto memory, Codex's skills), except the origin's
own. Each target says where a file of a given name lands (`CopyTarget.target_for`) and
whether Claude Code's memory type must be chosen. `copy_to` runs on the file-operations
worker: it reads the origin, converts its frontmatter for the target's agent and creates
the file (`memtab.sources.copy.copy_note`: never overwrites, read-only places refused).
A copy into mux goes through the store, so it is recorded in history like any new file;
a copy into another agent's memory is recorded in the home's history of that source
(`memtab.sources.versions`).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath

from memtab.components.files.ops import OpResult
from memtab.components.sources.tree import source_file_key, source_title
from memtab.components.tree.scan import HomeScan
from memtab.sources.copy import CopyOrigin, CopyResult, copy_note, target_file
from memtab.sources.model import AGENT_TITLES, Layout, Source, SourceError, SourceFile
from memtab.sources.notes import CLAUDE_TOPIC_TYPES
from memtab.sources.versions import SourceVersions
from memtab.store.errors import MemoryStoreError
from memtab.store.memory import MemoryStore
from memtab.store.paths import PathError, Scope, VirtualPath, parse_file_path

logger = logging.getLogger(__name__)

TOPIC_TYPES = CLAUDE_TOPIC_TYPES
_SCOPE_TITLES = {Scope.GLOBAL: "Global", Scope.PROJECT: "Project", Scope.WORKSPACE: "Workspace"}
# Where a new file goes in each kind of source that takes one (`{}` is the name).
_NEW_FILE = {
    Layout.CLAUDE_USER: "rules/{}.md",
    Layout.CLAUDE_PROJECT: ".claude/rules/{}.md",
    Layout.CLAUDE_MEMORY: "memory/{}.md",
    Layout.CODEX_MEMORIES: "skills/{}/SKILL.md",
}
_UNSAFE_NAME = re.compile(r"[\x00-\x1f\x7f\\<>:\"|?*]")

CopyFrom = VirtualPath | tuple[Source, SourceFile]
"""What is copied: a mux file of the shown workspace, or another agent's listed file."""


@dataclass(frozen=True)
class CopyTarget:
    """One place a copy can go: a mux scope, or another agent's source."""

    key: str
    label: str
    agent: str
    scope: Scope | None = None
    source: Source | None = None

    @property
    def asks_topic_type(self) -> bool:
        """Whether the copy becomes a Claude Code topic file (its `type` is chosen)."""
        return self.source is not None and self.source.layout is Layout.CLAUDE_MEMORY

    def target_for(self, name: str) -> str:
        """Where a file called `name` lands: a virtual path, or a path inside the source."""
        name = name.strip().strip("/")
        if name.endswith(".md"):
            name = name[: -len(".md")]
        if self.scope is not None:
            return f"{VirtualPath(self.scope)}/{name}.md"
        assert self.source is not None
        return _NEW_FILE[self.source.layout].format(name)

    def problem(self, name: str) -> str | None:
        """Why a file called `name` cannot be created here, or None (no disk read)."""
        bare = name.strip().strip("/").removesuffix(".md")
        if not bare:
            return "Enter a name"
        if self.source is not None and ("/" in bare or _UNSAFE_NAME.search(bare)):
            return "Use a plain name, without folders or special characters"
        try:
            if self.scope is not None:
                parse_file_path(self.target_for(name))
            else:
                assert self.source is not None
                target_file(self.source, self.target_for(name))
        except (PathError, SourceError) as error:
            return str(error)
        return None

    def open_key(self, name: str) -> str | None:
        """The tree key of the new file of another agent (a mux one is opened by path)."""
        if self.source is None:
            return None
        return source_file_key(self.source.file_id(self.target_for(name)))


def copy_targets(scan: HomeScan, origin_source_id: str | None = None) -> list[CopyTarget]:
    """The places a copy can go (see the module docstring)."""
    targets = [
        CopyTarget(
            f"mux:{item.scope.value}", f"mux · {_SCOPE_TITLES[item.scope]}", "mux", item.scope
        )
        for item in scan.scopes
        if item.unavailable is None and item.root is not None
    ]
    if scan.sources is None:
        return targets
    for listing in scan.sources.listings:
        source = listing.source
        if source.id == origin_source_id or source.layout not in _NEW_FILE:
            continue
        if not source.writable:
            continue
        label = source_title(source, with_agent=True)
        if source.project:
            label = f"{label} ({PurePosixPath(source.project).name})"
        targets.append(CopyTarget(f"source:{source.id}", label, source.agent, source=source))
    return targets


def default_name(origin: CopyFrom) -> str:
    """The name a copy gets unless the user changes it: the origin's file name without
    `.md` (a Codex skill: its folder's name), as `sources.copy` names a note."""
    relative = str(origin) if isinstance(origin, VirtualPath) else origin[1].relative
    path = PurePosixPath(relative)
    if path.name == "SKILL.md" and path.parent.name:
        return path.parent.name
    return path.stem or path.name


def origin_label(origin: CopyFrom) -> str:
    """How the dialog names what is copied."""
    if isinstance(origin, VirtualPath):
        return str(origin)
    source, file = origin
    return f"{AGENT_TITLES[source.agent]} · {file.relative}"


def copy_to(
    store: MemoryStore,
    origin: CopyFrom,
    target: CopyTarget,
    name: str,
    topic_type: str | None = None,
    on_copied: Callable[[CopyResult], None] | None = None,
) -> OpResult:
    """Copy `origin` to `target` as `name` (on the file-operations worker); `on_copied`
    is told what was written (how Edit → Undo takes the copy back)."""
    action = f"Copy to {target.label}"
    try:
        if isinstance(origin, VirtualPath):
            note = CopyOrigin.from_mux(store, str(origin))
        else:
            note = CopyOrigin.from_source_file(*origin)
        where = target.target_for(name)
        if target.scope is not None:
            result = copy_note(note, where, store=store, on_copied=on_copied)
            created = parse_file_path(result.target)
            touched = (str(store.physical(created)),)
            return OpResult(
                f"Copied {note.label} to {result.target}", created=created, touched=touched
            )
        assert target.source is not None
        result = copy_note(
            note,
            where,
            source=target.source,
            topic_type=topic_type,
            on_copied=on_copied,
            history=SourceVersions(store.home),
        )
        physical = str(target.source.root.joinpath(*where.split("/")))
        return OpResult(f"Copied {note.label} to {result.target}", touched=(physical,))
    except (SourceError, MemoryStoreError, PathError) as error:
        return OpResult(f"{action} failed", error=str(error))
    except OSError as error:
        return OpResult(f"{action} failed", error=error.strerror or str(error))


def topic_type_choices(default: str | None) -> Sequence[str]:
    """Claude Code's memory types, the origin's own (or `project`) first."""
    first = default if default in TOPIC_TYPES else "project"
    return [first, *(kind for kind in TOPIC_TYPES if kind != first)]
