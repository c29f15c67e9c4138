"""Copy to…: where a memory file can be copied from the Memory tab, and the copy itself."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import PurePosixPath

from memtab.components.files.ops import OpResult, open_file
from memtab.components.files.steps import RemoveStep, physical_paths
from memtab.components.files.undo import UndoStack
from memtab.components.history.history import SCOPE_TITLES
from memtab.components.tree.nodes import NodeKind, TreeNode
from memtab.components.tree.scan import HomeScan
from memtab.components.tree.sources import source_title
from memtab.file_protocol.file_ref import MemoryFileRef, SourceError
from memtab.file_protocol.memory_file import MemoryFile, MemoryFileError, MuxFile
from memtab.sources.agent_file import AgentFile, SourceVersions
from memtab.sources.content import missing_folders
from memtab.sources.copy import CopyOrigin, CopyResult, copy_note
from memtab.sources.listing import target_file
from memtab.sources.model import Layout, Source
from memtab.sources.notes import CLAUDE_TOPIC_TYPES
from memtab.store.errors import MemoryStoreError
from memtab.store.paths import PathError, Scope, VirtualPath, parse_file_path
from memtab.store.scopes.memory import MemoryStore

TOPIC_TYPES = CLAUDE_TOPIC_TYPES
# Where a new file goes in each kind of source that takes one (`{}` is the name).
_NEW_FILE = {
    Layout.CLAUDE_USER: "rules/{}.md",
    Layout.CLAUDE_PROJECT: ".claude/rules/{}.md",
    Layout.CLAUDE_MEMORY: "memory/{}.md",
    Layout.CODEX_MEMORIES: "skills/{}/SKILL.md",
}
_UNSAFE_NAME = re.compile(r"[\x00-\x1f\x7f\\<>:\"|?*]")


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

    def ref_for(self, name: str) -> MemoryFileRef:
        """The new file a copy called `name` makes here."""
        where = self.target_for(name)
        if self.source is None:
            return MemoryFileRef.of_mux(parse_file_path(where))
        return MemoryFileRef(self.source.id, where)

    def file_for(self, name: str, store: MemoryStore) -> MemoryFile:
        """The new file a copy called `name` makes here, as a `MemoryFile` (how its undo
        removes it)."""
        where = self.target_for(name)
        if self.source is None:
            return MuxFile(store, parse_file_path(where))
        return AgentFile(self.source, target_file(self.source, where), SourceVersions(store.home))


def copy_targets(scan: HomeScan, origin: MemoryFileRef | None = None) -> list[CopyTarget]:
    """The places a copy of `origin` can go."""
    targets = [
        CopyTarget(
            f"mux:{item.scope.value}", f"mux · {SCOPE_TITLES[item.scope]}", "mux", item.scope
        )
        for item in scan.scopes
        if item.unavailable is None and item.root is not None and item.scope.shared
    ]
    if scan.sources is None:
        return targets
    for listing in scan.sources.listings:
        source = listing.source
        if origin is not None and source.id == origin.source_id:
            continue
        if source.layout not in _NEW_FILE or not source.writable:
            continue
        label = source_title(source, with_agent=True)
        if source.project:
            label = f"{label} ({PurePosixPath(source.project).name})"
        targets.append(CopyTarget(f"source:{source.id}", label, source.agent, source=source))
    return targets


def copy_to(
    stack: UndoStack,
    store: MemoryStore,
    origin: MemoryFile,
    target: CopyTarget,
    name: str,
    topic_type: str | None = None,
) -> OpResult:
    """Copy `origin` to `target` as `name` (on the file-operations worker), remembering
    the copy it made (Edit → Undo removes it while it holds what was written)."""
    action = f"Copy to {target.label}"
    where = target.target_for(name)
    try:
        created_folders = missing_folders(target.source, where) if target.source else 0
        note = CopyOrigin.of(origin)
        copies: list[CopyResult] = []
        history = SourceVersions(store.home)
        result = copy_note(
            note,
            where,
            store=store,
            source=target.source,
            topic_type=topic_type,
            on_copied=copies.append,
            history=history,
        )
        copy = target.file_for(name, store)
    except (SourceError, MemoryStoreError, PathError, MemoryFileError) as error:
        return OpResult(f"{action} failed", error=str(error))
    except OSError as error:
        return OpResult(f"{action} failed", error=error.strerror or str(error))
    description = f"copy to {PurePosixPath(where).name}"
    made = RemoveStep(store.workspace, description, copy, result.sha256, created_folders)
    stack.push(replace(made, noun="copy", made="copied"))
    said = f"Copied {note.label} to {result.target}"
    return OpResult(said, created=copy.ref, touched=physical_paths(copy))


def topic_type_choices(default: str | None) -> Sequence[str]:
    """Claude Code's memory types, the origin's own (or `project`) first."""
    first = default if default in TOPIC_TYPES else "project"
    return [first, *(kind for kind in TOPIC_TYPES if kind != first)]


@dataclass(frozen=True)
class CopyChoice:
    """Where the user chose to copy to, as what, and (Claude Code topics) of which type."""

    target: CopyTarget
    name: str
    topic_type: str | None = None


def target_icon(target: CopyTarget) -> str:
    """The icon of a target: a folder for mux's scopes, else its agent's."""
    return "folder" if target.agent == "mux" else f"agent-{target.agent}"


@dataclass(frozen=True)
class CopyFormState:
    """Copy to…'s inputs: where the copy lands ("—": nowhere), why not, whether type is asked."""

    where: str
    problem: str | None
    asks_type: bool


class CopyForm:
    """Copy to…'s rules over its targets, chosen by their index in the list."""

    def __init__(self, targets: Sequence[CopyTarget]) -> None:
        self.targets = list(targets)

    def _target(self, index: int) -> CopyTarget | None:
        return self.targets[index] if 0 <= index < len(self.targets) else None

    def state(self, index: int, name: str) -> CopyFormState:
        """For the target at `index` and the name typed."""
        target = self._target(index)
        problem = target.problem(name) if target is not None else "Nowhere to copy to"
        where = target.target_for(name) if target is not None and not problem else "—"
        return CopyFormState(where, problem, target is not None and target.asks_topic_type)

    def choice(self, index: int, name: str, topic_type: str) -> CopyChoice | None:
        """What the form says (`topic_type`: the type shown, kept only where it is asked),
        or None while it cannot be copied there."""
        target, name = self._target(index), name.strip()
        if target is None or target.problem(name) is not None:
            return None
        return CopyChoice(target, name, topic_type if target.asks_topic_type else None)


def copy_origin(scan: HomeScan | None, node: TreeNode | None) -> MemoryFile | None:
    """What a row holds to copy: its memory file (a mux file of the workspace, another
    agent's listed file; an orphaned project dir's has none)."""
    if scan is None or node is None or node.kind is not NodeKind.FILE or node.ref is None:
        return None
    return open_file(scan, node.ref)
