"""The memory home: where it is, its layout, and its registry `config.json` (SPEC §1).

The registry belongs to mux when mux is installed: Memtab reads it as mux's config loader
does (project paths normalized, the same project identity per workspace), and only ever
adds projects and workspaces (for users without mux), preserving every field it does not
know. A registry that cannot be parsed is a one-line HomeError for readers; a write keeps
it aside first (`memtab.fs.sidecar`).
"""

from __future__ import annotations

import enum
import functools
import math
import os
import re
import secrets
import stat
from collections.abc import Iterator, Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import platformdirs

from memtab.fs.sidecar import edit_sidecar, read_sidecar
from memtab.store.paths import normalize_project_path, project_basename, project_dir_name

MULTI_PROJECT_KEY = "_multi"
SCRATCH_KIND = "scratch"
SCRATCH_PROJECT_NAME = "Scratch"
WRITER_TRACES_DIR_NAME = "system1_memory_writer"
"""mux's folder for the memory writer's trace dumps, under `debug_obj/<workspaceId>/`."""
DEFAULT_WRITER_INTERVAL = 2
MIN_WRITER_INTERVAL = 1
MAX_WRITER_INTERVAL = 50
_WORKSPACE_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")


class HomeError(Exception):
    """The home or its registry cannot be used; the message says why, naming the file."""


@dataclass(frozen=True)
class HomeLocation:
    """A resolved home directory and which rule chose it (shown to the user)."""

    path: Path
    source: str


def resolve_home(
    cli_home: str | None = None,
    env: Mapping[str, str] | None = None,
    user_home: Path | None = None,
) -> HomeLocation:
    """Find the memory home by the order of SPEC §1. Never creates `~/.xum` or `~/.mux`.

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
    OTHER = "other"
    """Anything else, including Memtab's own dir and paths outside the home."""


@dataclass(frozen=True)
class PathPlace:
    """Where a path is in a home: its kind and, for per-item kinds, which item.

    `key` is a project dir name or a workspace id; None means "the kind as a whole" (the
    dir of all project scopes affects every project scope).
    """

    kind: PathKind
    key: str | None = None


@dataclass(frozen=True)
class _LayoutNames:
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
    )


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
    def history_dir(self) -> Path:
        """Every version of every memory file Memtab has seen (`memtab.store.history`)."""
        return self.memtab_dir / "history"

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
        """Memtab's log of every consolidation and writer run (JSON lines)."""
        return self.history_dir / "runs.jsonl"

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


def parse_iso_time(value: Any) -> datetime | None:
    """An ISO 8601 string from config.json as an aware datetime, or None."""
    if not isinstance(value, str) or not value.strip():
        return None
    try:
        parsed = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def iso_now() -> str:
    """The current time as config.json writes it (`2026-01-02T03:04:05.678Z`)."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass(frozen=True)
class Workspace:
    """A workspace (one branch/session of an agent) as the registry describes it."""

    id: str
    name: str
    path: str
    project_path: str
    project_name: str
    projects: tuple[str, ...] = ()
    title: str | None = None
    parent_id: str | None = None
    created_at: str | None = None
    archived_at: str | None = None
    unarchived_at: str | None = None
    kind: str | None = None

    @property
    def archived(self) -> bool:
        """Archived when `archivedAt` is set and later than `unarchivedAt` (if any)."""
        archived = parse_iso_time(self.archived_at)
        if archived is None:
            return False
        unarchived = parse_iso_time(self.unarchived_at)
        return unarchived is None or archived > unarchived

    @property
    def multi_project(self) -> bool:
        """Several projects (or the `_multi` key with none named): no project scope."""
        return len(self.projects) > 1 or (
            self.project_path == MULTI_PROJECT_KEY and not self.projects
        )

    @property
    def scratch(self) -> bool:
        return self.kind == SCRATCH_KIND

    @property
    def project_identity(self) -> str | None:
        """The project path of its project memory, or None when it has none (SPEC §2).

        As mux's memory tool resolves it: src/node/config.ts getAllWorkspaceMetadata
        (a scratch workspace's own `path`, else the first of its `projects`, else its
        registry key) then src/node/services/memoryService.ts resolveMemoryProjectIdentity
        and getStore (none for several projects, for `_multi` and for "").
        """
        if len(self.projects) > 1:
            return None
        if self.scratch:
            identity = self.path
        elif self.projects:
            identity = self.projects[0]
        else:
            identity = self.project_path
        return identity if identity and identity != MULTI_PROJECT_KEY else None

    @property
    def display_name(self) -> str:
        return self.title or self.name or self.id


@dataclass(frozen=True)
class Project:
    """A registered project and its workspaces, in registry order."""

    path: str
    display_name: str
    workspaces: tuple[Workspace, ...] = ()

    @property
    def dir_name(self) -> str:
        return project_dir_name(self.path)


@dataclass(frozen=True)
class Registry:
    """What config.json says: projects in order and every workspace with an id."""

    projects: tuple[Project, ...] = ()
    writer_interval: int = DEFAULT_WRITER_INTERVAL
    problems: tuple[str, ...] = field(default=())

    @property
    def workspaces(self) -> tuple[Workspace, ...]:
        return tuple(ws for project in self.projects for ws in project.workspaces)

    def workspace(self, workspace_id: str) -> Workspace | None:
        return next((ws for ws in self.workspaces if ws.id == workspace_id), None)

    def project(self, project_path: str) -> Project | None:
        return next((p for p in self.projects if p.path == project_path), None)

    def require_workspace(self, workspace_id: str) -> Workspace:
        """The workspace with this id, or HomeError naming it."""
        workspace = self.workspace(workspace_id)
        if workspace is None:
            raise HomeError(f"Unknown workspace {workspace_id!r} (see `memtab workspaces`)")
        return workspace


def _optional_str(value: Any) -> str | None:
    return value if isinstance(value, str) and value.strip() else None


def read_registry_document(home: Home) -> dict[str, Any]:
    """The raw config.json object ({} when missing); HomeError when unreadable or corrupt."""
    read = read_sidecar(home.config_path)
    if read.problem is not None:
        raise HomeError(f"{home.config_path} is {read.problem}")
    return read.document


def load_registry(home: Home) -> Registry:
    """Parse config.json leniently: malformed entries are skipped and noted in `problems`."""
    return registry_from_document(home, read_registry_document(home))


def registry_from_document(home: Home, document: dict[str, Any]) -> Registry:
    """The registry a config.json object describes, read as mux's config loader does.

    Project paths are normalized (`normalize_project_path`); entries that normalize to
    the same path are one project, and — as in mux's `new Map(pairs)` — it takes the
    first entry's place and the last entry's config.
    """
    problems: list[str] = []
    raw_projects = document.get("projects", [])
    if not isinstance(raw_projects, list):
        problems.append("config.json: `projects` is not a list")
        raw_projects = []
    configs: dict[str, dict[str, Any]] = {}
    for entry in raw_projects:
        if (
            not isinstance(entry, list | tuple)
            or len(entry) != 2
            or not isinstance(entry[0], str)
            or not isinstance(entry[1], dict)
        ):
            problems.append("config.json: skipped a malformed project entry")
            continue
        project_path = normalize_project_path(entry[0])
        if not project_path:
            problems.append(f"config.json: skipped the project {entry[0]!r} (no path)")
            continue
        if project_path in configs:
            problems.append(
                f"config.json: {project_path!r} is registered twice; like mux, only its "
                "last entry is used"
            )
        configs[project_path] = entry[1]
    projects: list[Project] = []
    for project_path, config in configs.items():
        display = _optional_str(config.get("displayName")) or (
            project_basename(project_path) or project_path
        )
        workspaces = tuple(
            _iter_workspaces(home, project_path, display, config.get("workspaces"), problems)
        )
        projects.append(Project(project_path, display, workspaces))
    return Registry(tuple(projects), _writer_interval(document), tuple(problems))


def _writer_interval(document: dict[str, Any]) -> int:
    """`taskSettings.memoryWriterIntervalMessages` as mux normalizes it.

    A non-number (or non-finite) gives the default; a number is floored and clamped to 1–50.
    """
    settings = document.get("taskSettings")
    value = settings.get("memoryWriterIntervalMessages") if isinstance(settings, dict) else None
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return DEFAULT_WRITER_INTERVAL
    return max(MIN_WRITER_INTERVAL, min(MAX_WRITER_INTERVAL, math.floor(value)))


def _iter_workspaces(
    home: Home, project_path: str, project_name: str, raw: Any, problems: list[str]
) -> Iterator[Workspace]:
    if not isinstance(raw, list):
        return
    for item in raw:
        if not isinstance(item, dict):
            problems.append(f"config.json: skipped a malformed workspace of {project_path}")
            continue
        workspace_id = _workspace_id(home, item)
        if workspace_id is None:
            continue  # legacy entry with no id and no session dir: nothing to show
        extra_projects = item.get("projects")
        projects = (
            tuple(
                p["projectPath"]
                for p in extra_projects
                if isinstance(p, dict) and isinstance(p.get("projectPath"), str)
            )
            if isinstance(extra_projects, list)
            else ()
        )
        name = _optional_str(item.get("name")) or workspace_id
        kind = _optional_str(item.get("kind"))
        yield Workspace(
            id=workspace_id,
            name=name,
            path=_optional_str(item.get("path")) or "",
            project_path=project_path,
            project_name=SCRATCH_PROJECT_NAME if kind == SCRATCH_KIND else project_name,
            projects=projects,
            title=_optional_str(item.get("title")),
            parent_id=_optional_str(item.get("parentWorkspaceId")),
            created_at=_optional_str(item.get("createdAt")),
            archived_at=_optional_str(item.get("archivedAt")),
            unarchived_at=_optional_str(item.get("unarchivedAt")),
            kind=kind,
        )


def _workspace_id(home: Home, item: dict[str, Any]) -> str | None:
    raw_id = item.get("id")
    if isinstance(raw_id, str) and _WORKSPACE_ID.match(raw_id):
        return raw_id
    # Legacy entries have no id; mux named their session dir after the workspace.
    candidates = [item.get("name"), os.path.basename(str(item.get("path") or "").rstrip("/"))]
    for candidate in candidates:
        if (
            isinstance(candidate, str)
            and _WORKSPACE_ID.match(candidate)
            and home.workspace_dir(candidate).is_dir()
        ):
            return candidate
    return None


def new_workspace_id() -> str:
    """A fresh workspace id: 10 lowercase hex characters, as mux makes them."""
    return secrets.token_hex(5)


def _registry_shape_problem(document: dict[str, Any]) -> str | None:
    projects = document.get("projects")
    if projects is None or isinstance(projects, list):
        return None
    return "its `projects` is not a list"


def _project_entry(projects: list[Any], project_path: str) -> list[Any] | None:
    """The entry mux uses for `project_path`: the last whose key normalizes to it."""
    found = None
    for entry in projects:
        if (
            isinstance(entry, list)
            and entry
            and isinstance(entry[0], str)
            and normalize_project_path(entry[0]) == project_path
        ):
            found = entry
    return found


def _ensure_project(
    document: dict[str, Any], project_path: str, display_name: str | None
) -> tuple[dict[str, Any], bool]:
    """The config object of `project_path` in `document` (added if needed), and whether
    it was added. HomeError when the existing entry is malformed."""
    projects = document.get("projects")
    if not isinstance(projects, list):  # missing, or kept aside as malformed: start anew
        projects = document["projects"] = []
    entry = _project_entry(projects, project_path)
    if entry is not None:
        if len(entry) == 2 and isinstance(entry[1], dict):
            return entry[1], False
        raise HomeError(f"config.json: the entry of {project_path!r} is malformed; fix it by hand")
    config: dict[str, Any] = {"workspaces": []}
    if display_name:
        config["displayName"] = display_name
    projects.append([project_path, config])
    return config, True


def _editing_registry(home: Home) -> AbstractContextManager[dict[str, Any]]:
    return edit_sidecar(
        home.config_path, home.lock_path("config"), shape_problem=_registry_shape_problem
    )


def _registered_path(project_path: str) -> str:
    normalized = normalize_project_path(project_path.strip())
    if not normalized:
        raise HomeError(f"Invalid project path {project_path!r}: it must name a directory")
    return normalized


def add_project(home: Home, project_path: str, display_name: str | None = None) -> bool:
    """Register a project (absolute path); False when it was already registered.

    The path is normalized as mux's loader does, so `/p/` and `/p` are one project.
    """
    normalized = _registered_path(project_path)
    with _editing_registry(home) as document:
        _, added = _ensure_project(document, normalized, display_name)
    return added


def add_workspace(
    home: Home,
    project_path: str,
    name: str,
    workspace_id: str | None = None,
    workspace_path: str | None = None,
) -> str:
    """Register a workspace under a project (added if needed); returns its id."""
    if not name.strip():
        raise HomeError("A workspace name must not be empty")
    new_id = workspace_id or new_workspace_id()
    if not _WORKSPACE_ID.match(new_id):
        raise HomeError(
            f"Invalid workspace id {new_id!r}: use letters, digits, '.', '_' or '-' "
            "(at most 128 characters)"
        )
    normalized = _registered_path(project_path)
    with _editing_registry(home) as document:
        if registry_from_document(home, document).workspace(new_id) is not None:
            raise HomeError(f"A workspace with id {new_id!r} already exists")
        config, _ = _ensure_project(document, normalized, None)
        workspaces = config.setdefault("workspaces", [])
        if not isinstance(workspaces, list):
            raise HomeError(
                f"{home.config_path}: `workspaces` of {normalized!r} is not a list; fix it by hand"
            )
        workspaces.append(
            {
                "path": workspace_path or normalized,
                "id": new_id,
                "name": name,
                "createdAt": iso_now(),
            }
        )
    return new_id


def load_recency(home: Home) -> dict[str, int]:
    """Last user interaction (ms) per workspace in extensionMetadata.json, in file order.

    Only entries mux itself would read (src/node/services/ExtensionMetadataService.ts
    load + src/node/utils/extensionMetadata.ts coerceExtensionMetadata): the file must
    say `version: 1`, and an entry needs a numeric `recency` and a boolean `streaming`.
    Anything else — a missing or unusable file included — gives no entries.
    """
    document = read_sidecar(home.extension_metadata_path).document
    workspaces = document.get("workspaces")
    if document.get("version") != 1 or not isinstance(workspaces, dict):
        return {}
    recency: dict[str, int] = {}
    for workspace_id, info in workspaces.items():
        if not isinstance(info, dict) or not isinstance(info.get("streaming"), bool):
            continue
        value = info.get("recency")
        if isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value):
            recency[workspace_id] = int(value)
    return recency


def orphan_project_dirs(home: Home, registry: Registry) -> list[str]:
    """Dirs under memory/project/ that no project or workspace uses (shown for recovery)."""
    try:
        names = sorted(
            entry.name
            for entry in os.scandir(home.projects_root)
            if entry.is_dir(follow_symlinks=False) and not entry.name.startswith(".")
        )
    except OSError:
        return []
    known = {project.dir_name for project in registry.projects}
    known.update(
        project_dir_name(workspace.project_identity)
        for workspace in registry.workspaces
        if workspace.project_identity is not None
    )
    return [name for name in names if name not in known]
