"""The memory home: where it is (docs/formats.md §1) and its layout, spelled only here
(`Home.classify`)."""

import enum
import os
import stat
from collections.abc import Mapping
from pathlib import Path
from typing import NamedTuple

import platformdirs

from memtab.fs.user_files import read_regular_file
from memtab.store.paths import Scope, project_dir_name

WRITER_TRACES_DIR_NAME = "system1_memory_writer"
CONSOLIDATION_TRACES_DIR_NAME = "memtab_consolidation"
"""mux's folder for the memory writer's trace dumps, under `debug_obj/<workspaceId>/`."""


class HomeError(Exception):
    """The home or its registry cannot be used; the message says why, naming the file."""


class HomeLocation:
    """A resolved home directory and which rule chose it (shown to the user)."""

    __slots__ = ("path", "source")

    path: Path
    source: str

    def __init__(self, path: Path, source: str) -> None:
        self.path = path
        self.source = source


def resolve_home(
    cli_home: str | None = None,
    env: Mapping[str, str] | None = None,
    user_home: Path | None = None,
    cwd: str | None = None,
) -> HomeLocation:
    """Find the memory home by the order of docs/formats.md §1 (mux's getXumHome after `--home` and
    `MEMTAB_HOME`), never creating `~/.xum` or `~/.mux`; relative to `cwd`."""
    environ = os.environ if env is None else env
    if cli_home:
        return HomeLocation(_absolute(cli_home, cwd), "--home")
    memtab_home = environ.get("MEMTAB_HOME", "").strip()
    if memtab_home:
        return HomeLocation(_absolute(memtab_home, cwd), "MEMTAB_HOME")
    root_variable = "XUM_ROOT" if environ.get("XUM_ROOT") is not None else "MUX_ROOT"
    root = environ.get(root_variable, "").strip()
    if root:
        return HomeLocation(_absolute(root, cwd), root_variable)
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
        return True  # as mux: an unreadable tree counts as populated


def _marked_legacy_home(home_dir: Path) -> str | None:
    """The leftover home `~/.xum.legacy-fallback` names, if a small file naming a known one."""
    marker = home_dir / _LEGACY_MARKER
    try:
        info = marker.lstat()
        if not stat.S_ISREG(info.st_mode) or info.st_size > _MAX_MARKER_BYTES:
            return None
        data = read_regular_file(marker, limit=_MAX_MARKER_BYTES + 1, truncate=True)
        text = data.decode("utf-8", "replace")
    except OSError:
        return None
    name = text.strip()
    return name if name in _LEGACY_HOME_NAMES else None


def _absolute(raw: str, cwd: str | None = None) -> Path:
    expanded = os.path.expanduser(raw)
    return Path(os.path.abspath(os.path.join(cwd, expanded) if cwd else expanded))


class PathKind(enum.StrEnum):
    """What part of a memory home a path belongs to (`Home.classify`)."""

    HOME = "home"  # The home directory itself: everything may have changed.
    MEMORY_DIR = "memory_dir"  # `memory/` itself: the global scope and every project scope.
    GLOBAL_SCOPE = "global_scope"  # The global scope and anything in it.
    # A project scope (key = its dir name); key None for the dir of all project scopes.
    PROJECT_SCOPE = "project_scope"
    # A workspace's session dir (key = id), or the sessions dir (key None).
    WORKSPACE_DIR = "workspace_dir"
    # A workspace scope and anything in it (key = workspace id).
    WORKSPACE_SCOPE = "workspace_scope"
    # xum's session scope of a workspace and anything in it (key = workspace id).
    SESSION_SCOPE = "session_scope"
    CHAT_TRANSCRIPT = "chat_transcript"  # A workspace's transcript (key = workspace id).
    WRITER_STATE = "writer_state"  # A workspace's memory-writer state (key = workspace id).
    # A workspace's trace dumps or debug dir (key = id); None: the debug dir itself.
    WRITER_TRACES = "writer_traces"
    MEMORY_META = "memory_meta"  # `memory-meta.json` (pins and usage).
    CONSOLIDATION_JOURNAL = "consolidation_journal"  # `memory-consolidation.json`.
    CONFIG = "config"  # `config.json` (the project/workspace registry).
    EXTENSION_METADATA = "extension_metadata"  # `extensionMetadata.json` (workspace recency).
    HISTORY_INDEX = "history_index"  # A history index (key = its scope key).
    # Whether other programs' changes are being recorded (`store.catch_up.recording`).
    HISTORY_RECORDING = "history_recording"
    RUNS_LOG = "runs_log"  # Memtab's log of every run: consolidation, writer, sync, revert.
    # The latest runs of the global or a workspace scope alone (`memtab/scope-runs.json`).
    SCOPE_RUNS = "scope_runs"
    SYNC = "sync"  # Sync's set-up (key None) or a target's state (key = its name).
    # Anything in a sync target's git repository: never reported by the watcher.
    SYNC_REPOSITORY = "sync_repository"
    # A workspace's queue of the offline writer's suggestions (key = workspace id).
    SUGGESTIONS = "suggestions"
    PROPOSALS = "proposals"  # A queue of agents' proposals (key = workspace id, or `global`).
    # Memtab's own dir and anything in it no kind above names (locks, history's blobs…).
    MEMTAB_DATA = "memtab_data"
    # Outside the home: Gemini CLI's memory inbox (docs/formats.md §17.7).
    AGENT_INBOX = "agent_inbox"
    OTHER = "other"  # Anything else: paths outside the home, or in it but no part of its layout.


MEMTAB_KINDS = frozenset(
    {PathKind.HISTORY_INDEX, PathKind.HISTORY_RECORDING, PathKind.RUNS_LOG, PathKind.SCOPE_RUNS}
    | {PathKind.SYNC, PathKind.SYNC_REPOSITORY, PathKind.SUGGESTIONS, PathKind.PROPOSALS}
    | {PathKind.MEMTAB_DATA}
)
"""The kinds of path inside Memtab's own dir (`Home.memtab_dir`), and only those."""


AGENT_INBOX_DIR = ".inbox"
AGENT_INBOX_KINDS = ("private", "global")


def is_agent_inbox(path: str) -> bool:
    """Whether `path` is in or is Gemini CLI's memory inbox or one of its folders (string work)."""
    parts = path.split(os.sep)
    return parts[-1] == AGENT_INBOX_DIR or any(
        part == AGENT_INBOX_DIR and index + 1 < len(parts) and parts[index + 1] in AGENT_INBOX_KINDS
        for index, part in enumerate(parts)
    )


class PathPlace(NamedTuple):
    """Where a path is in a home: its kind, and `key` the item (a project dir or workspace id; None:
    the kind as a whole); `harvest`: mux's harvest folder of a workspace scope."""

    kind: PathKind
    key: str | None = None
    harvest: bool = False


class _Names:
    """The home layout's path components, spelled only here: `Home` builds its paths from them and
    `Home.classify` reads paths by them."""

    config = "config.json"
    meta = "memory-meta.json"
    journal = "memory-consolidation.json"
    extension_metadata = "extensionMetadata.json"
    memory = "memory"
    global_scope = "global"
    projects = "project"
    sessions = "sessions"
    workspace_memory = "memory"
    session_memory = "session-memory"
    transcript = "chat.jsonl"
    writer_state = "system1-memory-writer-state.json"
    debug = "debug_obj"
    traces = WRITER_TRACES_DIR_NAME
    memtab = "memtab"
    history = "history"
    history_index = "index"
    runs_log = "runs.jsonl"
    recording = "recording.json"
    scope_runs = "scope-runs.json"
    sync = "sync"


_HOME_FILES = {
    _Names.config: PathKind.CONFIG,
    _Names.meta: PathKind.MEMORY_META,
    _Names.journal: PathKind.CONSOLIDATION_JOURNAL,
    _Names.extension_metadata: PathKind.EXTENSION_METADATA,
}
_WORKSPACE_FILES = {
    _Names.transcript: PathKind.CHAT_TRANSCRIPT,
    _Names.writer_state: PathKind.WRITER_STATE,
}


_INDEX_SUFFIX = ".jsonl"
_QUEUE_SUFFIX = ".json"
_MEMTAB_DATA = PathPlace(PathKind.MEMTAB_DATA)

HARVEST_DIR_NAME = "harvest"
"""mux's harvest folder in a workspace scope (`memtab.writer.inbox.harvest`)."""
SUGGESTIONS_DIR_NAME = "suggestions"
"""The offline writer's suggestions, a `<workspace id>.json` each."""
PROPOSALS_DIR_NAME = "proposals"  # agents' proposals, a `<workspace id or global>.json` each
_QUEUES = {SUGGESTIONS_DIR_NAME: PathKind.SUGGESTIONS, PROPOSALS_DIR_NAME: PathKind.PROPOSALS}
_HISTORY_FILES = {_Names.runs_log: PathKind.RUNS_LOG, _Names.recording: PathKind.HISTORY_RECORDING}


def _named(name: str, suffix: str) -> str | None:
    """`name` without `suffix`, if it ends with it and has more."""
    return name[: -len(suffix)] if name.endswith(suffix) and len(name) > len(suffix) else None


def _memtab_place(inside: list[str]) -> PathPlace:
    """A path inside Memtab's own dir (every one of its places is in `MEMTAB_KINDS`)."""
    first, rest = (inside[0] if inside else ""), inside[1:]
    if first == _Names.history:  # the runs log, the recording, an index, or other MEMTAB_DATA
        if len(rest) == 1 and rest[0] in _HISTORY_FILES:
            return PathPlace(_HISTORY_FILES[rest[0]])
        index = len(rest) == 2 and rest[0] == _Names.history_index
        if index and (key := _named(rest[1], _INDEX_SUFFIX)):
            return PathPlace(PathKind.HISTORY_INDEX, key)
        return _MEMTAB_DATA
    if first == _Names.sync:
        return _sync_place(rest)
    if inside == [_Names.scope_runs]:
        return PathPlace(PathKind.SCOPE_RUNS)
    if first in _QUEUES and len(rest) == 1 and (key := _named(rest[0], _QUEUE_SUFFIX)):
        return PathPlace(_QUEUES[first], key)
    return _MEMTAB_DATA


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
    return _MEMTAB_DATA


def is_sync_repository(rel: str) -> bool:
    """Whether a home-relative path is inside a sync target's git repository."""
    parts = rel.split(os.sep)
    return (
        parts[:2] == [_Names.memtab, _Names.sync]
        and _sync_place(parts[2:]).kind is PathKind.SYNC_REPOSITORY
    )


DEMO_MARKER = ".memtab-demo"
"""In the root of every demo home: its memory is invented and may be replaced."""

CONSOLIDATION_LOCK = "consolidation"
"""The lock every consolidation run, plan or apply holds for its whole length."""


class _Below:
    """A path of the home: `parts` below its root (or below another such path, `under`)."""

    __slots__ = ("parts", "under")

    def __init__(self, *parts: str, under: str = "root") -> None:
        self.parts, self.under = parts, under

    def __get__(self, home: "Home", owner: type | None = None) -> Path:
        return Path(getattr(home, self.under), *self.parts)


class Home:
    """The layout of one memory home directory (nothing is created until written)."""

    def __init__(self, root: Path) -> None:
        self.root = Path(os.path.abspath(root))

    def __repr__(self) -> str:
        return f"Home({str(self.root)!r})"

    def classify(self, path: str | os.PathLike[str]) -> PathPlace:
        """What part of this home the absolute `path` is, by string work (no links resolved)."""
        text, root = os.fspath(path), str(self.root)
        if text == root:
            return PathPlace(PathKind.HOME)
        prefix = root if root.endswith(os.sep) else root + os.sep
        if not text.startswith(prefix):
            return PathPlace(PathKind.AGENT_INBOX if is_agent_inbox(text) else PathKind.OTHER)
        parts = text[len(prefix) :].split(os.sep)
        top, rest = parts[0], parts[1:]
        if not rest and top in _HOME_FILES:
            return PathPlace(_HOME_FILES[top])
        if top == _Names.memory:
            if not rest:
                return PathPlace(PathKind.MEMORY_DIR)
            if rest[0] == _Names.global_scope:
                return PathPlace(PathKind.GLOBAL_SCOPE)
            if rest[0] == _Names.projects:
                return PathPlace(PathKind.PROJECT_SCOPE, rest[1] if len(rest) > 1 else None)
        elif top == _Names.sessions:
            if not rest:
                return PathPlace(PathKind.WORKSPACE_DIR)
            workspace_id, inside = rest[0], rest[1:]
            if not inside:
                return PathPlace(PathKind.WORKSPACE_DIR, workspace_id)
            if inside[0] == _Names.workspace_memory:
                # The scope's folder holds the harvest folder.
                harvest = inside[1:2] == [HARVEST_DIR_NAME] or len(inside) == 1
                return PathPlace(PathKind.WORKSPACE_SCOPE, workspace_id, harvest)
            if inside[0] == _Names.session_memory:
                return PathPlace(PathKind.SESSION_SCOPE, workspace_id)
            if len(inside) == 1 and inside[0] in _WORKSPACE_FILES:
                return PathPlace(_WORKSPACE_FILES[inside[0]], workspace_id)
        elif top == _Names.debug:
            if not rest:
                return PathPlace(PathKind.WRITER_TRACES)
            if len(rest) == 1 or rest[1] in (_Names.traces, CONSOLIDATION_TRACES_DIR_NAME):
                return PathPlace(PathKind.WRITER_TRACES, rest[0])
        elif top == _Names.memtab:
            return _memtab_place(rest)
        return PathPlace(PathKind.OTHER)

    config_path = _Below(_Names.config)
    sessions_dir = _Below(_Names.sessions)
    global_root = _Below(_Names.memory, _Names.global_scope)
    projects_root = _Below(_Names.memory, _Names.projects)
    meta_path = _Below(_Names.meta)
    journal_path = _Below(_Names.journal)
    extension_metadata_path = _Below(_Names.extension_metadata)
    debug_dir = _Below(_Names.debug)
    demo_marker = _Below(DEMO_MARKER)  # the file that marks a demo home
    # Memtab's own data (locks, settings, history); never inside a memory scope.
    memtab_dir = _Below(_Names.memtab)
    # Every version of every memory file Memtab has seen (`memtab.store.history`).
    history_dir = _Below(_Names.history, under="memtab_dir")
    # Sync's set-up, each target's state and git repository (docs/formats.md §18).
    sync_dir = _Below(_Names.sync, under="memtab_dir")
    # The latest runs of the global or a workspace scope alone (docs/formats.md §9.8).
    scope_runs_path = _Below(_Names.scope_runs, under="memtab_dir")
    # Runs in progress, each recording its intent before its changes.
    started_runs_dir = _Below("started", under="history_dir")
    # File contents, compressed, named by their sha256 (one copy per content).
    history_blobs_dir = _Below("blobs", under="history_dir")
    # One append-only JSON-lines index per scope (global, a project, a workspace).
    history_index_dir = _Below(_Names.history_index, under="history_dir")
    # Whether history is being recorded, and why not (`store.catch_up.recording`).
    recording_path = _Below(_Names.recording, under="history_dir")
    # Memtab's log of every run (JSON lines): consolidation, writer, sync, revert.
    runs_log_path = _Below(_Names.runs_log, under="history_dir")
    # Where the lines writers added came from (JSON lines, `history.provenance`).
    provenance_log_path = _Below("provenance.jsonl", under="history_dir")

    def lock_path(self, name: str) -> Path:
        return self.memtab_dir / "locks" / f"{name}.lock"

    def scope_roots(self) -> list[tuple[Scope, Path]]:
        """Every scope root of the home that is a directory now, of any workspace."""
        roots: list[tuple[Scope, Path]] = [(Scope.GLOBAL, self.global_root)]
        roots += [(Scope.PROJECT, path) for path in _subdirectories(self.projects_root)]
        for session in _subdirectories(self.sessions_dir):
            roots.append((Scope.WORKSPACE, self.workspace_root(session.name)))
            roots.append((Scope.SESSION, self.session_root(session.name)))
        return [(scope, root) for scope, root in roots if root.is_dir()]

    def project_root(self, project_path: str) -> Path:
        return self.projects_root / project_dir_name(project_path)

    def workspace_dir(self, workspace_id: str) -> Path:
        return self.sessions_dir / workspace_id

    def workspace_root(self, workspace_id: str) -> Path:
        return self.workspace_dir(workspace_id) / _Names.workspace_memory

    def session_root(self, workspace_id: str) -> Path:
        """xum's session scope of a workspace, beside its notebook (docs/formats.md §3.1)."""
        return self.workspace_dir(workspace_id) / _Names.session_memory

    def notebook_revision_path(self, workspace_id: str) -> Path:
        """xum's clock of the notebook `workspace_id` owns (`store.history.xum_journal`)."""
        return self.workspace_dir(workspace_id) / "memory.revision"

    def transcript_path(self, workspace_id: str) -> Path:
        return self.workspace_dir(workspace_id) / _Names.transcript

    def writer_state_path(self, workspace_id: str) -> Path:
        return self.workspace_dir(workspace_id) / _Names.writer_state

    def trace_dir(self, workspace_id: str) -> Path:
        """The writer's trace dumps of a workspace (mux's folder)."""
        return self.debug_dir / workspace_id / _Names.traces

    def consolidation_trace_dir(self, workspace_id: str) -> Path:
        """A workspace's consolidation trace dumps (Memtab's own folder)."""
        return self.debug_dir / workspace_id / CONSOLIDATION_TRACES_DIR_NAME

    def trace_dirs(self, workspace_id: str) -> tuple[Path, Path]:
        """Every folder of a workspace's trace dumps: the writer's, the consolidation's."""
        return self.trace_dir(workspace_id), self.consolidation_trace_dir(workspace_id)


def _subdirectories(directory: Path) -> list[Path]:
    """The directories in `directory` (no links, no dotfiles), sorted; none when unreadable."""
    try:
        with os.scandir(directory) as entries:
            return sorted(
                Path(entry.path)
                for entry in entries
                if not entry.name.startswith(".") and entry.is_dir(follow_symlinks=False)
            )
    except OSError:
        return []
