"""What the recorder follows in a home (mux's scopes, other agents' sources), the directories to
watch, and what a changed path concerns."""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass, field
from pathlib import Path

from memtab.sources.config import SourceContext
from memtab.sources.discovery import discover
from memtab.sources.layouts import classify_file, is_team_memory, watch_targets
from memtab.sources.model import Layout, Source
from memtab.store.errors import MemoryStoreError
from memtab.store.home import Home, PathKind
from memtab.store.paths import SCOPE_ORDER, Scope
from memtab.store.restore.orphans import OrphanProjectStore
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.registry import load_registry

logger = logging.getLogger(__name__)

RETARGET = "retarget"
"""A changed path after which the targets are found again (the registry, a new workspace)."""
_RETARGET_KINDS = frozenset(
    {PathKind.HOME, PathKind.MEMORY_DIR, PathKind.CONFIG, PathKind.WORKSPACE_DIR}
)


@dataclass(frozen=True)
class ScopeTarget:
    """One of mux's scopes (history index `key`) through a store that sees it."""

    key: str
    store: MemoryStore
    scope: Scope


@dataclass
class Targets:
    """Everything one recorder follows in a home (see the module doc)."""

    home: Home
    scopes: dict[str, ScopeTarget] = field(default_factory=dict)
    sources: dict[str, Source] = field(default_factory=dict)

    @classmethod
    def find(cls, home: Home) -> Targets:
        """Every scope of every registered workspace, every orphaned project dir and every source
        (blocks on disk)."""
        found = cls(home)
        registry = load_registry(home)
        stores = [MemoryStore(home, None, actor="external")]
        stores += [
            MemoryStore(home, workspace, actor="external") for workspace in registry.workspaces
        ]
        for store in stores:
            for scope in SCOPE_ORDER:
                if store.unavailable_reason(scope):
                    continue
                try:
                    key = store.history_key(scope)
                except MemoryStoreError:
                    continue
                found.scopes.setdefault(key, ScopeTarget(key, store, scope))
        for dir_name in _project_dirs(home):  # orphaned ones: no workspace sees them
            key = f"project-{dir_name}"
            if key not in found.scopes:
                orphan = OrphanProjectStore(home, dir_name, actor="external")
                found.scopes[key] = ScopeTarget(key, orphan, Scope.PROJECT)
        context = SourceContext.load(home, registry=registry)
        for source in discover(context).sources:
            found.sources[source.id] = source
        return found

    def directories(self) -> list[tuple[str, bool]]:
        """(directory, recursive) to watch, as few as cover everything (each watch costs an inotify
        instance)."""
        wanted: dict[str, bool] = {str(self.home.root): False}
        for folder in (self.home.root / "memory", self.home.root / "sessions"):
            wanted[str(folder)] = True
        for source in self.sources.values():
            if source.layout is Layout.CLAUDE_MEMORY:  # one per project: their parent
                wanted[str(source.root.parent)] = True
                continue
            for directory, recursive in watch_targets(source):
                text = str(directory)
                wanted[text] = wanted.get(text, False) or recursive
        covering = sorted(path for path, recursive in wanted.items() if recursive)
        return [
            (path, recursive)
            for path, recursive in sorted(wanted.items())
            if not any(path.startswith(above + os.sep) for above in covering)
            and os.path.isdir(path)
        ]

    def concerned(self, path: str) -> str | None:
        """What a changed path concerns: a scope's history key, `source:<id>`, `RETARGET`, or
        None."""
        place = self.home.classify(path)
        if place.kind in _RETARGET_KINDS:
            return RETARGET
        if place.kind is PathKind.GLOBAL_SCOPE:
            return "global"
        if place.kind is PathKind.PROJECT_SCOPE:
            return f"project-{place.key}" if place.key else RETARGET
        if place.kind is PathKind.WORKSPACE_SCOPE:
            return f"workspace-{place.key}"
        if place.kind is PathKind.SESSION_SCOPE:
            return f"session-{place.key}"
        if place.kind is not PathKind.OTHER:
            return None
        best: Source | None = None
        target = Path(path)
        for source in self.sources.values():
            inside = target == source.root or source.root in target.parents
            if inside and (best is None or len(source.root.parts) > len(best.root.parts)):
                best = source
        if best is None:
            return None
        segments = target.relative_to(best.root).parts
        if is_team_memory(best.layout, segments):
            return RETARGET  # team memory no source holds yet: a new source
        if segments and classify_file(best, segments) is None and not os.path.isdir(path):
            return None
        return f"source:{best.id}"


def _project_dirs(home: Home) -> list[str]:
    """The project memory dirs in `memory/project/` (not hidden, not links)."""
    try:
        entries = list(os.scandir(home.projects_root))
    except OSError:
        return []
    return sorted(
        e.name for e in entries if not e.name.startswith(".") and e.is_dir(follow_symlinks=False)
    )
