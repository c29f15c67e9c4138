"""The memory home: where it is, its layout, and its registry `config.json` (SPEC §1).

The registry belongs to mux when mux is installed: Memtab reads it, and only ever adds
projects and workspaces (for users without mux), preserving every field it does not know.
"""

from __future__ import annotations

import json
import math
import os
import re
import secrets
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import platformdirs

from memtab.fs.atomic import atomic_write_json
from memtab.fs.locks import interprocess_lock
from memtab.store.paths import project_dir_name

MULTI_PROJECT_KEY = "_multi"
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
    """Find the memory home by the order of SPEC §1. Never creates `~/.xum` or `~/.mux`."""
    environ = os.environ if env is None else env
    if cli_home:
        return HomeLocation(_absolute(cli_home), "--home")
    for variable in ("MEMTAB_HOME", "XUM_ROOT", "MUX_ROOT"):
        value = environ.get(variable, "").strip()
        if value:
            return HomeLocation(_absolute(value), variable)
    home_dir = user_home if user_home is not None else Path(os.path.expanduser("~"))
    xum = home_dir / ".xum"
    if _is_non_empty_dir(xum):
        return HomeLocation(xum, "~/.xum")
    mux = home_dir / ".mux"
    if mux.is_dir():  # follows a ~/.mux → ~/.xum symlink; a stray file is not a home
        return HomeLocation(Path(os.path.realpath(mux)), "~/.mux")
    return HomeLocation(Path(platformdirs.user_data_dir("memtab", appauthor=False)), "Memtab")


def _is_non_empty_dir(path: Path) -> bool:
    try:
        with os.scandir(path) as entries:
            return any(True for _ in entries)
    except OSError:  # missing, not a directory, or unreadable
        return False


def _absolute(raw: str) -> Path:
    return Path(os.path.abspath(os.path.expanduser(raw)))


class Home:
    """The layout of one memory home directory (nothing is created until written)."""

    def __init__(self, root: Path) -> None:
        self.root = Path(os.path.abspath(root))

    def __repr__(self) -> str:
        return f"Home({str(self.root)!r})"

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
        return self.debug_dir / workspace_id / "system1_memory_writer"


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
        return self.project_path == MULTI_PROJECT_KEY or len(self.projects) > 1

    @property
    def project_identity(self) -> str | None:
        """The registered project path, or None for multi-project workspaces (SPEC §2)."""
        return None if self.multi_project else self.project_path

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


def _project_basename(project_path: str) -> str:
    return re.split(r"[/\\]", project_path.rstrip("/\\"))[-1] or project_path


def _optional_str(value: Any) -> str | None:
    return value if isinstance(value, str) and value.strip() else None


def read_registry_document(home: Home) -> dict[str, Any]:
    """The raw config.json object ({} when missing); HomeError when unreadable or corrupt."""
    try:
        text = home.config_path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except OSError as error:
        raise HomeError(f"Cannot read {home.config_path}: {error.strerror or error}") from None
    except UnicodeDecodeError as error:
        raise HomeError(f"{home.config_path} is not valid UTF-8 ({error.reason})") from None
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise HomeError(f"{home.config_path} is not valid JSON ({error})") from None
    if not isinstance(document, dict):
        raise HomeError(f"{home.config_path} does not hold a JSON object")
    return document


def load_registry(home: Home) -> Registry:
    """Parse config.json leniently: malformed entries are skipped and noted in `problems`."""
    document = read_registry_document(home)
    problems: list[str] = []
    projects: list[Project] = []
    raw_projects = document.get("projects", [])
    if not isinstance(raw_projects, list):
        problems.append("config.json: `projects` is not a list")
        raw_projects = []
    for entry in raw_projects:
        if (
            not isinstance(entry, list | tuple)
            or len(entry) != 2
            or not isinstance(entry[0], str)
            or not isinstance(entry[1], dict)
        ):
            problems.append("config.json: skipped a malformed project entry")
            continue
        project_path, config = entry[0], entry[1]
        display = _optional_str(config.get("displayName")) or _project_basename(project_path)
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
        yield Workspace(
            id=workspace_id,
            name=name,
            path=_optional_str(item.get("path")) or "",
            project_path=project_path,
            project_name=project_name,
            projects=projects,
            title=_optional_str(item.get("title")),
            parent_id=_optional_str(item.get("parentWorkspaceId")),
            created_at=_optional_str(item.get("createdAt")),
            archived_at=_optional_str(item.get("archivedAt")),
            unarchived_at=_optional_str(item.get("unarchivedAt")),
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


def add_project(home: Home, project_path: str, display_name: str | None = None) -> bool:
    """Register a project (absolute path); False when it was already registered."""
    if not project_path.strip():
        raise HomeError("A project path must not be empty")
    with interprocess_lock(home.lock_path("config")):
        document = read_registry_document(home)
        projects = document.setdefault("projects", [])
        if not isinstance(projects, list):
            raise HomeError(f"{home.config_path}: `projects` is not a list; fix it by hand")
        if any(isinstance(e, list) and e and e[0] == project_path for e in projects):
            return False
        config: dict[str, Any] = {"workspaces": []}
        if display_name:
            config["displayName"] = display_name
        projects.append([project_path, config])
        atomic_write_json(home.config_path, document)
        return True


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
    add_project(home, project_path)
    with interprocess_lock(home.lock_path("config")):
        if load_registry(home).workspace(new_id) is not None:
            raise HomeError(f"A workspace with id {new_id!r} already exists")
        document = read_registry_document(home)
        config = _project_config(document, project_path)
        if config is None:
            raise HomeError(
                f"{home.config_path}: the entry of {project_path!r} is malformed; fix it by hand"
            )
        workspaces = config.setdefault("workspaces", [])
        if not isinstance(workspaces, list):
            raise HomeError(
                f"{home.config_path}: `workspaces` of {project_path!r} is not a list; "
                "fix it by hand"
            )
        workspaces.append(
            {
                "path": workspace_path or project_path,
                "id": new_id,
                "name": name,
                "createdAt": iso_now(),
            }
        )
        atomic_write_json(home.config_path, document)
    return new_id


def _project_config(document: dict[str, Any], project_path: str) -> dict[str, Any] | None:
    """The ProjectConfig object registered for `project_path`, or None if it is malformed."""
    for entry in document.get("projects", []):
        if isinstance(entry, list) and entry and entry[0] == project_path:
            return entry[1] if len(entry) == 2 and isinstance(entry[1], dict) else None
    return None


def load_recency(home: Home) -> dict[str, int]:
    """Last user interaction per workspace (ms) from extensionMetadata.json; {} if absent."""
    try:
        document = json.loads(home.extension_metadata_path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    workspaces = document.get("workspaces") if isinstance(document, dict) else None
    if not isinstance(workspaces, dict):
        return {}
    recency: dict[str, int] = {}
    for workspace_id, info in workspaces.items():
        value = info.get("recency") if isinstance(info, dict) else None
        if isinstance(value, int | float) and not isinstance(value, bool) and value > 0:
            recency[workspace_id] = int(value)
    return recency


def orphan_project_dirs(home: Home, registry: Registry) -> list[str]:
    """Dirs under memory/project/ that match no registered project (shown for recovery)."""
    try:
        names = sorted(
            entry.name
            for entry in os.scandir(home.projects_root)
            if entry.is_dir(follow_symlinks=False) and not entry.name.startswith(".")
        )
    except OSError:
        return []
    known = {project.dir_name for project in registry.projects}
    return [name for name in names if name not in known]
