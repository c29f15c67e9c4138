"""The memory home: where it is (docs/formats.md §1) and its layout.

`resolve_home` finds the home as mux does; `Home` names every path in it, and
`Home.classify(path)` says which part of the home a path is, so the layout is spelled
only here. What the home's `config.json` registers (projects, workspaces) is
`memtab.store.sidecars.registry`.
"""

from __future__ import annotations

import enum
import functools
import os
import stat
from collections.abc import Mapping
from pathlib import Path
from typing import NamedTuple

import platformdirs

from memtab.store.paths import project_dir_name

WRITER_TRACES_DIR_NAME = "system1_memory_writer"
"""mux's folder for the memory writer's trace dumps, under `debug_obj/<workspaceId>/`."""


class HomeError(Exception):
    """The home or its registry cannot be used; the message says why, naming the file."""


class HomeLocation(NamedTuple):
    """A resolved home directory and which rule chose it (shown to the user)."""

    path: Path
    source: str


def resolve_home(
    cli_home: str | None = None,
    env: Mapping[str, str] | None = None,
    user_home: Path | None = None,
) -> HomeLocation:
    """Find the memory home by the order of docs/formats.md §1. Never creates `~/.xum` or `~/.mux`.

    After Memtab's own `--home` and `MEMTAB_HOME`, the order is mux's getXumHome
    (src/common/constants/paths.ts): `XUM_ROOT`, else `MUX_ROOT` (a set but blank
    `XUM_ROOT` hides `MUX_ROOT`, as `??` does there); a populated `~/.xum`; the leftover
    home a `~/.xum.legacy-fallback` marker names; an existing `~/.xum`, even empty; then
    `~/.mux` and `~/.cmux`. Where mux would create `~/.xum`, Memtab uses its own home.
    (mux's `-dev` homes for NODE_ENV=development are not considered.)
    """
    environ = os.environ if env is None else env
    if cli_home:
        return HomeLocation(_absolute(cli_home), "--home")
    memtab_home = environ.get("MEMTAB_HOME", "").strip()
    if memtab_home:
        return HomeLocation(_absolute(memtab_home), "MEMTAB_HOME")
    root_variable = "XUM_ROOT" if environ.get("XUM_ROOT") is not None else "MUX_ROOT"
    root = environ.get(root_variable, "").strip()
    if root:
        return HomeLocation(_absolute(root), root_variable)
    home_dir = user_home if user_home is not None else Path(os.path.expanduser("~"))
    xum = home_dir / ".xum"
    if _is_directory(xum) and _has_entries(xum):
        return HomeLocation(xum, "~/.xum")
    marked = _marked_legacy_home(home_dir)
    if marked is not None and _is_directory(home_dir / marked):
        return HomeLocation(Path(os.path.realpath(home_dir / marked)), f"~/{marked}")
    if _is_directory(xum):
        return HomeLocation(xum, "~/.xum")
    for legacy in _LEGACY_HOME_NAMES:  # followed through symlinks (~/.mux → ~/.xum)
        if _is_directory(home_dir / legacy):
            return HomeLocation(Path(os.path.realpath(home_dir / legacy)), f"~/{legacy}")
    return HomeLocation(Path(platformdirs.user_data_dir("memtab", appauthor=False)), "Memtab")


_LEGACY_HOME_NAMES = (".mux", ".cmux")
_LEGACY_MARKER = ".xum.legacy-fallback"
_MAX_MARKER_BYTES = 64


def _is_directory(path: Path) -> bool:
    """A usable directory (through symlinks); a file or a dangling link is not a home."""
    try:
        return path.is_dir()
    except OSError:
        return False


def _has_entries(path: Path) -> bool:
    try:
        with os.scandir(path) as entries:
            return any(True for _ in entries)
    except OSError:
        # As mux: an unreadable tree counts as populated, so it is not silently skipped.
        return True


def _marked_legacy_home(home_dir: Path) -> str | None:
    """The leftover home (`.mux` or `.cmux`) that `~/.xum.legacy-fallback` names, if any.

    Like mux, only a small regular file (not a symlink) naming a known leftover counts.
    """
    marker = home_dir / _LEGACY_MARKER
    try:
        info = marker.lstat()
        if not stat.S_ISREG(info.st_mode) or info.st_size > _MAX_MARKER_BYTES:
            return None
        text = marker.read_bytes()[: _MAX_MARKER_BYTES + 1].decode("utf-8", "replace")
    except OSError:
        return None
    name = text.strip()
    return name if name in _LEGACY_HOME_NAMES else None


def _absolute(raw: str) -> Path:
    return Path(os.path.abspath(os.path.expanduser(raw)))


class PathKind(enum.StrEnum):
    """What part of a memory home a path belongs to (`Home.classify`)."""

    HOME = "home"
    """The home directory itself: everything may have changed."""
    MEMORY_DIR = "memory_dir"
    """`memory/` itself: the global scope and every project scope."""
    GLOBAL_SCOPE = "global_scope"
    """The global scope and anything in it."""
    PROJECT_SCOPE = "project_scope"
    """A project scope (key = its dir name); key None for the dir of all project scopes."""
    WORKSPACE_DIR = "workspace_dir"
    """A workspace's session dir (key = id), or the sessions dir (key None)."""
    WORKSPACE_SCOPE = "workspace_scope"
    """A workspace scope and anything in it (key = workspace id)."""
    CHAT_TRANSCRIPT = "chat_transcript"
    """A workspace's transcript (key = workspace id)."""
    WRITER_STATE = "writer_state"
    """A workspace's memory-writer state (key = workspace id)."""
    WRITER_TRACES = "writer_traces"
    """A workspace's writer trace dumps or its debug dir (key = id); key None for the
    debug dir itself."""
    MEMORY_META = "memory_meta"
    """`memory-meta.json` (pins and usage)."""
    CONSOLIDATION_JOURNAL = "consolidation_journal"
    """`memory-consolidation.json`."""
    CONFIG = "config"
    """`config.json` (the project/workspace registry)."""
    EXTENSION_METADATA = "extension_metadata"
    """`extensionMetadata.json` (workspace recency)."""
    HISTORY_INDEX = "history_index"
    """A history index of Memtab's (key = its scope key: `global`, `project-<dir>`,
    `workspace-<id>`): a version of one of that scope's files was recorded."""
    RUNS_LOG = "runs_log"
    """Memtab's log of every run: consolidation, writer, sync, revert."""
    SYNC = "sync"
    """Sync's set-up (`memtab/sync/config.json`, key None) or a target's state
    (`memtab/sync/<target>/state.json`, key = the target's name)."""
    SYNC_REPOSITORY = "sync_repository"
    """Anything in a sync target's git repository (git's own files: never a view's
    concern, so the watcher does not report them)."""
    OTHER = "other"
    """Anything else, including Memtab's own dir and paths outside the home."""


class PathPlace(NamedTuple):
    """Where a path is in a home: its kind and, for per-item kinds, which item.

    `key` is a project dir name or a workspace id; None means "the kind as a whole" (the
    dir of all project scopes affects every project scope).
    """

    kind: PathKind
    key: str | None = None


class _LayoutNames(NamedTuple):
    """The home layout as path components, read off `Home`'s own properties once."""

    home_files: Mapping[str, PathKind]
    memory: str
    global_scope: str
    projects: str
    sessions: str
    workspace_memory: str
    workspace_files: Mapping[str, PathKind]
    debug: str
    traces: str
    history: tuple[str, ...]
    history_index: str
    runs_log: str
    sync: tuple[str, ...]


@functools.cache
def _layout_names() -> _LayoutNames:
    home = Home(Path(os.sep))
    sample = "x"
    return _LayoutNames(
        home_files={
            home.config_path.name: PathKind.CONFIG,
            home.meta_path.name: PathKind.MEMORY_META,
            home.journal_path.name: PathKind.CONSOLIDATION_JOURNAL,
            home.extension_metadata_path.name: PathKind.EXTENSION_METADATA,
        },
        memory=home.global_root.parent.name,
        global_scope=home.global_root.name,
        projects=home.projects_root.name,
        sessions=home.sessions_dir.name,
        workspace_memory=home.workspace_root(sample).name,
        workspace_files={
            home.transcript_path(sample).name: PathKind.CHAT_TRANSCRIPT,
            home.writer_state_path(sample).name: PathKind.WRITER_STATE,
        },
        debug=home.debug_dir.name,
        traces=home.trace_dir(sample).name,
        history=home.history_dir.relative_to(home.root).parts,
        history_index=home.history_index_dir.name,
        runs_log=home.runs_log_path.name,
        sync=home.sync_dir.relative_to(home.root).parts,
    )


_INDEX_SUFFIX = ".jsonl"


def _history_place(inside: list[str], names: _LayoutNames) -> PathPlace:
    """A path inside the history dir: the runs log, an index (its other files are OTHER:
    content blobs, stat caches, the prune mark)."""
    if inside == [names.runs_log]:
        return PathPlace(PathKind.RUNS_LOG)
    if len(inside) == 2 and inside[0] == names.history_index:
        name = inside[1]
        if name.endswith(_INDEX_SUFFIX) and len(name) > len(_INDEX_SUFFIX):
            return PathPlace(PathKind.HISTORY_INDEX, name[: -len(_INDEX_SUFFIX)])
    return PathPlace(PathKind.OTHER)


PROVENANCE_LOCK = "history-provenance"
"""The lock appends to the provenance log hold (`memtab.store.history.provenance`)."""


SYNC_CONFIG_NAME = "config.json"
SYNC_STATE_NAME = "state.json"
SYNC_REPOSITORY_NAME = "repo.git"


def _sync_place(inside: list[str]) -> PathPlace:
    """A path inside `memtab/sync/` (docs/formats.md §18.2, §18.4)."""
    if inside == [SYNC_CONFIG_NAME]:
        return PathPlace(PathKind.SYNC)
    if len(inside) >= 2 and inside[1] == SYNC_REPOSITORY_NAME:
        return PathPlace(PathKind.SYNC_REPOSITORY, inside[0])
    if len(inside) == 2 and inside[1] == SYNC_STATE_NAME:
        return PathPlace(PathKind.SYNC, inside[0])
    return PathPlace(PathKind.OTHER)


def is_sync_repository(rel: str) -> bool:
    """Whether a home-relative path is inside a sync target's git repository."""
    names = _layout_names()
    parts = rel.split(os.sep)
    return (
        tuple(parts[: len(names.sync)]) == names.sync
        and _sync_place(parts[len(names.sync) :]).kind is PathKind.SYNC_REPOSITORY
    )


CONSOLIDATION_LOCK = "consolidation"
"""The lock every consolidation run, plan or apply holds for its whole length, in any
process (`memtab.consolidation.engine.lock`): while it is free, no run is going in this home."""


class Home:
    """The layout of one memory home directory (nothing is created until written)."""

    def __init__(self, root: Path) -> None:
        self.root = Path(os.path.abspath(root))

    def __repr__(self) -> str:
        return f"Home({str(self.root)!r})"

    def classify(self, path: str | os.PathLike[str]) -> PathPlace:
        """What part of this home the absolute `path` is (a scope, a sidecar, a transcript,
        a trace dump…), for telling what a change on disk concerns.

        Pure string work on `path` as spelled under `root` (no symlinks are resolved).
        """
        text, root = os.fspath(path), str(self.root)
        if text == root:
            return PathPlace(PathKind.HOME)
        prefix = root if root.endswith(os.sep) else root + os.sep
        if not text.startswith(prefix):
            return PathPlace(PathKind.OTHER)
        parts = text[len(prefix) :].split(os.sep)
        names = _layout_names()
        top, rest = parts[0], parts[1:]
        if not rest and top in names.home_files:
            return PathPlace(names.home_files[top])
        if top == names.memory:
            if not rest:
                return PathPlace(PathKind.MEMORY_DIR)
            if rest[0] == names.global_scope:
                return PathPlace(PathKind.GLOBAL_SCOPE)
            if rest[0] == names.projects:
                return PathPlace(PathKind.PROJECT_SCOPE, rest[1] if len(rest) > 1 else None)
        elif top == names.sessions:
            if not rest:
                return PathPlace(PathKind.WORKSPACE_DIR)
            workspace_id, inside = rest[0], rest[1:]
            if not inside:
                return PathPlace(PathKind.WORKSPACE_DIR, workspace_id)
            if inside[0] == names.workspace_memory:
                return PathPlace(PathKind.WORKSPACE_SCOPE, workspace_id)
            if len(inside) == 1 and inside[0] in names.workspace_files:
                return PathPlace(names.workspace_files[inside[0]], workspace_id)
        elif top == names.debug:
            if not rest:
                return PathPlace(PathKind.WRITER_TRACES)
            if len(rest) == 1 or rest[1] == names.traces:
                return PathPlace(PathKind.WRITER_TRACES, rest[0])
        elif tuple(parts[: len(names.history)]) == names.history:
            return _history_place(parts[len(names.history) :], names)
        elif tuple(parts[: len(names.sync)]) == names.sync:
            return _sync_place(parts[len(names.sync) :])
        return PathPlace(PathKind.OTHER)

    @property
    def config_path(self) -> Path:
        return self.root / "config.json"

    @property
    def sessions_dir(self) -> Path:
        return self.root / "sessions"

    @property
    def global_root(self) -> Path:
        return self.root / "memory" / "global"

    @property
    def projects_root(self) -> Path:
        return self.root / "memory" / "project"

    @property
    def meta_path(self) -> Path:
        return self.root / "memory-meta.json"

    @property
    def journal_path(self) -> Path:
        return self.root / "memory-consolidation.json"

    @property
    def extension_metadata_path(self) -> Path:
        return self.root / "extensionMetadata.json"

    @property
    def debug_dir(self) -> Path:
        return self.root / "debug_obj"

    @property
    def memtab_dir(self) -> Path:
        """Memtab's own data (locks, settings, history); never inside a memory scope."""
        return self.root / "memtab"

    def lock_path(self, name: str) -> Path:
        return self.memtab_dir / "locks" / f"{name}.lock"

    @property
    def started_runs_dir(self) -> Path:
        """Runs in progress, each recording its intent before its changes
        (`memtab.store.catch_up.interrupted`)."""
        return self.history_dir / "started"

    @property
    def history_dir(self) -> Path:
        """Every version of every memory file Memtab has seen (`memtab.store.history`)."""
        return self.memtab_dir / "history"

    @property
    def sync_dir(self) -> Path:
        """Sync's set-up, each target's state and git repository (docs/formats.md §18)."""
        return self.memtab_dir / "sync"

    @property
    def history_blobs_dir(self) -> Path:
        """File contents, compressed, named by their sha256 (one copy per content)."""
        return self.history_dir / "blobs"

    @property
    def history_index_dir(self) -> Path:
        """One append-only JSON-lines index per scope (global, a project, a workspace)."""
        return self.history_dir / "index"

    @property
    def runs_log_path(self) -> Path:
        """Memtab's log of every run (JSON lines): consolidation, writer, sync, revert."""
        return self.history_dir / "runs.jsonl"

    @property
    def provenance_log_path(self) -> Path:
        """Where the lines writers added came from (JSON lines, `history.provenance`)."""
        return self.history_dir / "provenance.jsonl"

    def project_root(self, project_path: str) -> Path:
        return self.projects_root / project_dir_name(project_path)

    def workspace_dir(self, workspace_id: str) -> Path:
        return self.sessions_dir / workspace_id

    def workspace_root(self, workspace_id: str) -> Path:
        return self.workspace_dir(workspace_id) / "memory"

    def transcript_path(self, workspace_id: str) -> Path:
        return self.workspace_dir(workspace_id) / "chat.jsonl"

    def writer_state_path(self, workspace_id: str) -> Path:
        return self.workspace_dir(workspace_id) / "system1-memory-writer-state.json"

    def trace_dir(self, workspace_id: str) -> Path:
        return self.debug_dir / workspace_id / WRITER_TRACES_DIR_NAME
