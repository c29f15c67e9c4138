"""The home's registry `config.json` (docs/formats.md §2.1, §2.2, §2.5), mux's: read as mux's loader
reads it, only added to, every unknown field kept; beside it each workspace's recency."""

import math
import os
import re
from collections.abc import Iterator, Mapping
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Annotated, Any, Literal, NamedTuple

from memtab.fs.jsonfile import finite_number
from memtab.fs.lazy_re import LazyPattern
from memtab.fs.records import Healed, OmitNone, OrNone, Positional, Record, ValidEntries, ValidItems
from memtab.fs.sidecar import edit_sidecar, read_sidecar
from memtab.store.home import Home, HomeError
from memtab.store.paths import normalize_project_path, project_basename, project_dir_name

MAX_CHAIN_DEPTH = 32


class OwnerLinks(NamedTuple):
    """What a workspace's registry entry says about whose notebook it uses."""

    parent_id: str | None = None
    side_chat_parent_id: str | None = None
    pinned_owner_id: str | None = None


def notebook_owner(links: Mapping[str, OwnerLinks], workspace_id: str) -> str:
    """The workspace whose `<sessions>/<id>/memory` is `workspace_id`'s workspace scope."""
    current = workspace_id
    visited: set[str] = set()
    for _ in range(MAX_CHAIN_DEPTH):
        if current in visited:
            return workspace_id  # a cycle
        visited.add(current)
        entry = links.get(current)
        if entry is None:
            return workspace_id  # unknown, or a parent that is not registered
        parent = entry.parent_id or entry.side_chat_parent_id
        if not (parent and parent in links):
            pinned = entry.pinned_owner_id
            if pinned and pinned in links:
                return pinned
        if not parent:
            return current
        current = parent
    return workspace_id  # deeper than xum follows


if TYPE_CHECKING:  # lazy: datetime, imported when a time is read or made (parse_iso_time)
    from datetime import datetime

MULTI_PROJECT_KEY = "_multi"
SCRATCH_KIND = "scratch"
SCRATCH_PROJECT_NAME = "Scratch"
DEFAULT_WRITER_INTERVAL = 2
MIN_WRITER_INTERVAL = 1
MAX_WRITER_INTERVAL = 50
_WORKSPACE_ID = LazyPattern(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")


def parse_iso_time(value: Any) -> "datetime | None":
    """An ISO 8601 string from config.json as an aware datetime, or None."""
    if not isinstance(value, str) or not value.strip():
        return None
    # lazy: datetime costs the first paint, which reads the registry; only an archived workspace
    # needs it
    from datetime import UTC, datetime

    try:
        parsed = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def iso_now() -> str:
    """The current time as config.json writes it (`2026-01-02T03:04:05.678Z`)."""
    from datetime import UTC, datetime  # lazy: as parse_iso_time's

    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class Workspace(NamedTuple):
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
    side_chat_parent_id: str | None = None
    pinned_notebook_id: str | None = None
    # Whose notebook its workspace scope is: "" until the registry resolves it.
    notebook_owner_id: str = ""

    @property
    def notebook_id(self) -> str:
        """The workspace whose memory its workspace scope is: its task tree's root (docs/formats.md
        §2.5), else itself."""
        return self.notebook_owner_id or self.id

    @property
    def shares_notebook(self) -> bool:
        """Whether its workspace scope is another workspace's notebook (a sub-agent's)."""
        return self.notebook_id != self.id

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
        """The project path of its project memory, as mux's memory tool resolves it (docs/formats.md
        §2.2); None when it has none."""
        if len(self.projects) > 1:
            return None
        identity = (
            self.path if self.scratch else self.projects[0] if self.projects else self.project_path
        )
        return identity if identity and identity != MULTI_PROJECT_KEY else None

    @property
    def display_name(self) -> str:
        return self.title or self.name or self.id


class Project(NamedTuple):
    """A registered project and its workspaces, in registry order."""

    path: str
    display_name: str
    workspaces: tuple[Workspace, ...] = ()

    @property
    def dir_name(self) -> str:
        return project_dir_name(self.path)


class Registry(NamedTuple):
    """What config.json says: projects in order and every workspace with an id."""

    projects: tuple[Project, ...] = ()
    writer_interval: int = DEFAULT_WRITER_INTERVAL
    problems: tuple[str, ...] = ()

    @property
    def workspaces(self) -> tuple[Workspace, ...]:
        return tuple(ws for project in self.projects for ws in project.workspaces)

    def workspace(self, workspace_id: str) -> Workspace | None:
        return next((ws for ws in self.workspaces if ws.id == workspace_id), None)

    def project(self, project_path: str) -> Project | None:
        return next((p for p in self.projects if p.path == project_path), None)

    def require_workspace(self, workspace_id: str) -> Workspace:
        """The workspace with this id, or HomeError naming it."""
        if workspace := self.workspace(workspace_id):
            return workspace
        raise HomeError(f"Unknown workspace {workspace_id!r} (see `memtab workspaces`)")


Text = Annotated[
    str | None, Healed(lambda value: value if isinstance(value, str) and value.strip() else None)
]
"""A string that is not blank (kept as written), else None."""


class ProjectRef(Record):
    """An item of a workspace's `projects` in config.json (§2.2)."""

    project_path: str


Given = Annotated[Text, OmitNone]  # a text field of a workspace, written only when it has a value


class WorkspaceEntry(Record):
    """A workspace as config.json holds it, read as mux reads it (docs/formats.md §2.2); `Workspace`
    is what Memtab makes of it."""

    path: Given = None
    id: Given = None
    name: Given = None
    created_at: Given = None
    projects: Annotated[OrNone[ValidItems[tuple[ProjectRef, ...]]], OmitNone] = None
    title: Given = None
    parent_workspace_id: Given = None
    archived_at: Given = None
    unarchived_at: Given = None
    kind: Given = None
    side_chat_parent_workspace_id: Given = None
    memory_owner_workspace_id: Given = None


class ProjectConfig(Record, keep_unknown=True):
    """A project's config (§2.1): its name, and its workspaces kept raw so a bad one is skipped, not
    the project."""

    workspaces: Any = ()
    display_name: Given = None


class ProjectPair(Positional):
    """An item of `projects`: `[projectPath, config]` (§2.1)."""

    path: str
    config: ProjectConfig


def _interval(value: Any) -> int:
    if (number := finite_number(value)) is None:
        return DEFAULT_WRITER_INTERVAL
    return max(MIN_WRITER_INTERVAL, min(MAX_WRITER_INTERVAL, math.floor(number)))


class TaskSettings(Record):
    """`taskSettings` (§2.1): `memoryWriterIntervalMessages` floored and clamped to 1–50."""

    memory_writer_interval_messages: Annotated[int, Healed(_interval)] = DEFAULT_WRITER_INTERVAL


class Recency(Record):
    """A workspace's extensionMetadata.json entry (§2.1): finite `recency`, boolean `streaming`."""

    recency: Annotated[float, Healed(finite_number)]
    streaming: bool


class ExtensionMetadata(Record):
    """extensionMetadata.json (§2.1): `version` 1, else mux reads none of it."""

    version: Literal[1]
    workspaces: ValidEntries[dict[str, Recency]]


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
    """The registry a config.json object describes, as mux's loader reads it: paths normalized,
    duplicates one project (the first's place, the last's config)."""
    problems: list[str] = []
    raw_projects = document.get("projects", [])
    if not isinstance(raw_projects, list):
        problems.append("config.json: `projects` is not a list")
        raw_projects = []
    configs: dict[str, ProjectConfig] = {}
    for entry in raw_projects:
        pair = ProjectPair.read(entry)
        if pair is None:
            problems.append("config.json: skipped a malformed project entry")
            continue
        project_path = normalize_project_path(pair.path)
        if not project_path:
            problems.append(f"config.json: skipped the project {pair.path!r} (no path)")
            continue
        if project_path in configs:
            problems.append(
                f"config.json: {project_path!r} is registered twice; like mux, only its "
                "last entry is used"
            )
        configs[project_path] = pair.config
    displays = {
        project_path: config.display_name or (project_basename(project_path) or project_path)
        for project_path, config in configs.items()
    }
    # As mux: a sub-project's workspaces follow its top-level project's.
    owners = _top_level_projects(list(configs))
    workspaces: dict[str, list[Workspace]] = {project_path: [] for project_path in configs}
    for project_path, config in sorted(configs.items(), key=lambda item: item[0] in owners):
        owner = owners.get(project_path, project_path)
        workspaces[owner].extend(
            _iter_workspaces(home, owner, displays[owner], config.workspaces, problems)
        )
    # Each workspace's notebook owner over the whole registry.
    every = [ws for listed in workspaces.values() for ws in listed]
    links = {
        ws.id: OwnerLinks(ws.parent_id, ws.side_chat_parent_id, ws.pinned_notebook_id)
        for ws in every
    }
    owners_of = {ws.id: notebook_owner(links, ws.id) for ws in every}
    projects = [
        Project(
            path,
            displays[path],
            tuple(ws._replace(notebook_owner_id=owners_of[ws.id]) for ws in listed),
        )
        for path, listed in workspaces.items()
    ]
    # `taskSettings.memoryWriterIntervalMessages` as mux normalizes it.
    settings = TaskSettings.read(document.get("taskSettings")) or TaskSettings()
    return Registry(tuple(projects), settings.memory_writer_interval_messages, tuple(problems))


def top_level_project(registry: Registry, project_path: str) -> str:
    """The outermost registered project holding `project_path`, else itself (§2.1)."""
    owners = _top_level_projects([project.path for project in registry.projects])
    return owners.get(project_path, project_path)


def _top_level_projects(project_paths: list[str]) -> dict[str, str]:
    """Each project inside another, to the outermost holding it (mux's deriveProjectHierarchy)."""
    compared = {path: _descendant_form(path) for path in project_paths}
    owners: dict[str, str] = {}
    for path, form in compared.items():
        ancestors = [
            other
            for other, other_form in compared.items()
            if form.startswith(other_form + "/") and len(form) > len(other_form) + 1
        ]
        if ancestors:
            owners[path] = min(ancestors, key=len)  # the first of the shortest, as mux
    return owners


_WINDOWS_PATH = LazyPattern(r"^[a-z]:(?:/|$)", re.IGNORECASE)


def _descendant_form(path: str) -> str:
    """A project path as mux compares it for sub-projects (normalizeForDescendantComparison)."""
    slashed = path.replace("\\", "/")
    trimmed = slashed.rstrip("/")
    windows = _WINDOWS_PATH.match(slashed) is not None or slashed.startswith("//")
    return trimmed.lower() if windows else trimmed


def _iter_workspaces(
    home: Home, project_path: str, project_name: str, raw: Any, problems: list[str]
) -> Iterator[Workspace]:
    if not isinstance(raw, list):
        return
    for item in raw:
        entry = WorkspaceEntry.read(item)
        if entry is None:
            problems.append(f"config.json: skipped a malformed workspace of {project_path}")
            continue
        workspace_id = _workspace_id(home, entry)
        if workspace_id is None:
            continue  # legacy entry with no id and no session dir: nothing to show
        yield Workspace(
            id=workspace_id,
            name=entry.name or workspace_id,
            path=entry.path or "",
            project_path=project_path,
            project_name=SCRATCH_PROJECT_NAME if entry.kind == SCRATCH_KIND else project_name,
            projects=tuple(ref.project_path for ref in entry.projects or ()),
            title=entry.title,
            parent_id=entry.parent_workspace_id,
            created_at=entry.created_at,
            archived_at=entry.archived_at,
            unarchived_at=entry.unarchived_at,
            kind=entry.kind,
            side_chat_parent_id=entry.side_chat_parent_workspace_id,
            pinned_notebook_id=entry.memory_owner_workspace_id,
        )


def _workspace_id(home: Home, entry: WorkspaceEntry) -> str | None:
    if entry.id is not None and _WORKSPACE_ID.match(entry.id):
        return entry.id
    # Legacy entries have no id; mux named their session dir after the workspace.
    for candidate in (entry.name, os.path.basename((entry.path or "").rstrip("/"))):
        if candidate and _WORKSPACE_ID.match(candidate) and home.workspace_dir(candidate).is_dir():
            return candidate
    return None


def new_workspace_id() -> str:
    """A fresh workspace id: 10 lowercase hex characters, as mux makes them."""
    return os.urandom(5).hex()


def _ensure_project(
    document: dict[str, Any], project_path: str, display_name: str | None
) -> tuple[dict[str, Any], bool]:
    """The config object of `project_path` (added if needed) and whether added; HomeError when
    malformed."""
    projects = document.get("projects")
    if not isinstance(projects, list):  # missing, or kept aside as malformed: start anew
        projects = document["projects"] = []
    # The entry mux uses for `project_path`: the last whose key normalizes to it.
    found = [e for e in projects if isinstance(e, list) and e and isinstance(e[0], str)]
    entry = next((e for e in reversed(found) if normalize_project_path(e[0]) == project_path), None)
    if entry is not None:
        if ProjectPair.read(entry) is not None:
            return entry[1], False  # changed in place: what Memtab does not know stays
        raise HomeError(f"config.json: the entry of {project_path!r} is malformed; fix it by hand")
    config = ProjectConfig(display_name=display_name or None)
    projects.append(ProjectPair(path=project_path, config=config).to_json())
    return projects[-1][1], True


def _editing_registry(home: Home) -> AbstractContextManager[dict[str, Any]]:
    not_a_list = "its `projects` is not a list"
    return edit_sidecar(
        home.config_path,
        home.lock_path("config"),
        shape_problem=lambda document: (
            None if isinstance(document.get("projects"), list | None) else not_a_list
        ),
    )


def _registered_path(project_path: str) -> str:
    normalized = normalize_project_path(project_path.strip())
    if not normalized:
        raise HomeError(f"Invalid project path {project_path!r}: it must name a directory")
    return normalized


def add_project(home: Home, project_path: str, display_name: str | None = None) -> bool:
    """Register a project (normalized as mux does); False when already registered."""
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
            not_a_list = f"`workspaces` of {normalized!r} is not a list; fix it by hand"
            raise HomeError(f"{home.config_path}: {not_a_list}")
        path = workspace_path or normalized
        workspaces.append(
            WorkspaceEntry(path=path, id=new_id, name=name, created_at=iso_now()).to_json()
        )
    return new_id


def load_recency(home: Home) -> dict[str, int]:
    """Last user interaction (ms) per workspace in extensionMetadata.json, only entries mux would
    read; none for anything else."""
    metadata = ExtensionMetadata.read(read_sidecar(home.extension_metadata_path).document)
    if metadata is None:
        return {}
    return {workspace_id: int(entry.recency) for workspace_id, entry in metadata.workspaces.items()}


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
    known = known_project_dirs(registry)
    return [name for name in names if name not in known]


def known_project_dirs(registry: Registry) -> set[str]:
    """The dirs under memory/project/ a registered project or workspace uses."""
    used = {
        project_dir_name(i) for ws in registry.workspaces if (i := ws.project_identity) is not None
    }
    return {project.dir_name for project in registry.projects} | used
