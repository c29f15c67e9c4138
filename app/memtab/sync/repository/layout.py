"""What is synced where (docs/formats.md §18.2): a home's targets in `memtab/sync/config.json`, and
a repository layout that does not depend on the machine (`global/`, `projects/<name>/`,
`workspaces/<name>/`, pins and usage in `.memtab/meta/`)."""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Annotated, Any, Final, Literal

from memtab.fs.locking.locks import host_name
from memtab.fs.records import (
    AtLeast,
    Checked,
    Healed,
    Key,
    Lenient,
    NotWritten,
    OmitNone,
    OrNone,
    Record,
    ValidItems,
    field,
)
from memtab.fs.sidecar import edit_sidecar, read_sidecar
from memtab.store.home import SYNC_CONFIG_NAME, SYNC_REPOSITORY_NAME, SYNC_STATE_NAME, Home
from memtab.store.paths import Scope, VirtualPath, normalize_project_path, project_basename
from memtab.store.scope_walk import is_listable_name
from memtab.store.sidecars.meta import global_key, project_key, workspace_key

ScopeKind = Literal["global", "project", "workspace"]
META_DIR = ".memtab/meta"
FORMAT_PATH = ".memtab/format.json"
FORMAT_VERSION: Final = 1
DEFAULT_BRANCH = "main"
DEFAULT_TARGET = "memory"
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")


def default_machine_name() -> str:
    return host_name().split(".")[0] or "this machine"


class SyncSetupError(ValueError):
    """A sync set-up that cannot be used (a bad scope, a name taken); says why."""


def check_name(name: str, what: str) -> str:
    """A target or scope name: letters, digits, `.`, `_`, `-`, at most 64, no leading dot."""
    if not _is_usable(name):
        raise SyncSetupError(
            f"{what} {name!r} is not a usable name: use letters, digits, '.', '_' and '-' "
            "(at most 64, starting with a letter or digit)"
        )
    return name


def _is_usable(name: str) -> bool:
    return bool(_NAME.match(name)) and name not in (".", "..")


def _usable_name(name: str | None) -> str | None:
    if name is not None and not _is_usable(name):
        raise ValueError("not a usable name")
    return name


def _branch(value: Any) -> Any:
    return value if isinstance(value, str) and value else DEFAULT_BRANCH


def _machine(value: Any) -> Any:
    return value if isinstance(value, str) and value.strip() else default_machine_name()


class SyncedScope(Record):
    """One scope and its repository folder, an item of a target's `scopes` (docs/formats.md §18.2);
    a field its kind needs and lacks refuses it."""

    kind: Annotated[ScopeKind, Key("scope")]
    path: Annotated[OrNone[str], OmitNone] = None
    """The project's path on this machine (a project scope)."""
    id: Annotated[OrNone[str], OmitNone] = None  # the workspace's id (a workspace scope)
    folder: Annotated[OrNone[str], Key("name"), OmitNone] = None
    """The project's or workspace's stable name (None for the global scope)."""

    @classmethod
    def of(cls, kind: ScopeKind, name: str, key: str | None = None) -> SyncedScope:
        """The scope of `kind` in folder `name`, `key` its project path or workspace id."""
        if kind == "global":
            return cls(kind="global")
        if kind == "project":
            return cls(kind="project", path=key, folder=name)
        return cls(kind="workspace", id=key, folder=name)

    def after_read(self) -> SyncedScope:
        if self.kind == "global":
            return self if self.folder is self.path is self.id is None else GLOBAL_SCOPE
        if self.key is None or self.folder is None:
            raise ValueError(f"a {self.kind} scope needs its {_KEY_NAME[self.kind]} and name")
        _usable_name(self.folder)
        return SyncedScope.of(self.kind, self.folder, self.key)

    @property
    def name(self) -> str:
        """The folder's name: `global`, or the project's or workspace's stable name."""
        return self.folder or "global"

    @property
    def key(self) -> str | None:
        """The project path (on this machine) or the workspace id; None for global."""
        return {"project": self.path, "workspace": self.id}.get(self.kind)

    @property
    def scope(self) -> Scope:
        return Scope(self.kind)

    @property
    def prefix(self) -> str:
        """The scope's folder in the repository."""
        return _prefix(self.kind, self.name)

    @property
    def meta_path(self) -> str:
        return f"{META_DIR}/{self.prefix}.json"

    @property
    def label(self) -> str:
        """How the CLI names it: `global`, `project:/home/alice/app`, `workspace:abc`."""
        return "global" if self.kind == "global" else f"{self.kind}:{self.key}"

    def repo_path(self, path: VirtualPath) -> str:
        return f"{self.prefix}/{path.relative}"

    def virtual_path(self, repo_path: str) -> VirtualPath | None:
        """The memory file a repository path is, or None (another scope's, or a name not listed)."""
        if not repo_path.startswith(_head(self.kind, self.name)):
            return None  # another scope's: every scope is asked of every path of a tree
        return _memory_path(self.kind, self.name, repo_path)

    def meta_key(self, relative: str) -> str:
        """This machine's memory-meta.json key of a file of the scope."""
        if self.kind == "global":
            return global_key(relative)
        assert self.key is not None
        return (project_key if self.kind == "project" else workspace_key)(self.key, relative)


GLOBAL_SCOPE = SyncedScope(kind="global")


def _prefix(kind: ScopeKind, name: str) -> str:
    """The folder in the repository of the scope of `kind` named `name` (`SyncedScope.name`)."""
    return "global" if kind == "global" else f"{kind}s/{name}"


@functools.lru_cache(maxsize=256)
def _head(kind: ScopeKind, name: str) -> str:
    """What every repository path of the scope of `kind` named `name` starts with."""
    return _prefix(kind, name) + "/"


@functools.lru_cache(maxsize=1 << 14)
def _memory_path(kind: ScopeKind, name: str, repo_path: str) -> VirtualPath | None:
    """`SyncedScope.virtual_path` for a scope of `kind` named `name`, cached per path."""
    segments = tuple(repo_path[len(_head(kind, name)) :].split("/"))
    if not all(is_listable_name(s) for s in segments):  # never a temp sibling (§16)
        return None
    return VirtualPath(Scope(kind), segments)


_KEY_NAME = {"project": "path", "workspace": "id"}


def parse_scope(spec: str) -> SyncedScope:
    """`global`, `project:PATH[=NAME]` or `workspace:ID[=NAME]` (SyncSetupError)."""
    kind, _, rest = spec.partition(":")
    if kind == "global" and not rest:
        return GLOBAL_SCOPE
    value, _, name = rest.partition("=")
    if kind == "project" and value:
        path = normalize_project_path(value)
        if not path:
            raise SyncSetupError(f"{spec!r}: the project path is empty")
        chosen = name or project_basename(path) or "project"
        safe = _UNSAFE.sub("_", chosen).lstrip(".") or "project"  # odd characters as `_`
        return SyncedScope.of("project", check_name(safe, "The project name"), path)
    if kind == "workspace" and value:
        return SyncedScope.of("workspace", check_name(name or value, "The workspace name"), value)
    if kind == Scope.SESSION.value:
        raise SyncSetupError(
            f"{spec!r}: xum's session scope is never synced — it is one agent's own "
            "checkpoint, host-local and deleted with its workspace; sync global, "
            "project:PATH or workspace:ID"
        )
    raise SyncSetupError(
        f"{spec!r} is not a scope: use global, project:PATH[=NAME] or workspace:ID[=NAME]"
    )


class Target(Record):
    """One remote and the scopes it carries (docs/formats.md §18.2); an unusable scope dropped."""

    name: Annotated[str, Checked(_usable_name)]
    remote: Annotated[str, AtLeast(1)]
    branch: Annotated[str, Healed(_branch)] = DEFAULT_BRANCH
    """`main` when missing, empty or not a string."""
    scopes: ValidItems[tuple[SyncedScope, ...]] = ()


class SyncConfig(Record):
    """This home's sync set-up (docs/formats.md §18.2): the machine's name and every target, changed
    through `fs/sidecar.py`."""

    version: Annotated[int, Lenient(1)] = 1
    machine: Annotated[str, Healed(_machine)] = field(default_factory=default_machine_name)
    targets: ValidItems[tuple[Target, ...]] = ()
    problem: Annotated[OrNone[str], NotWritten] = None
    """Why the set-up file cannot be read (None: it can, or there is none); never from the file."""

    @classmethod
    def before_read(cls, raw: Any) -> Any:
        if isinstance(raw, dict) and "problem" in raw:
            return {key: value for key, value in raw.items() if key != "problem"}
        return raw

    def target(self, name: str) -> Target:
        if found := next((target for target in self.targets if target.name == name), None):
            return found
        raise SyncSetupError(f"No sync target named {name!r} (see memtab sync status)")


IMPORT_INTENT_NAME = "import.json"
STAGING_NAME = ".new-scope"  # where an import stages a new scope to publish it whole (hidden)


class SyncPaths:
    """Where sync keeps its files in a home (all under `<home>/memtab/sync/`)."""

    def __init__(self, home: Home) -> None:
        self.home = home
        self.root = home.sync_dir
        self.config = self.root / SYNC_CONFIG_NAME

    def target_dir(self, name: str) -> Path:
        return self.root / name

    def repository(self, name: str) -> Path:
        return self.target_dir(name) / SYNC_REPOSITORY_NAME

    def state(self, name: str) -> Path:
        return self.target_dir(name) / SYNC_STATE_NAME

    def import_intent(self, name: str) -> Path:
        """What an import is about to write, while it writes (docs/formats.md §18.3)."""
        return self.target_dir(name) / IMPORT_INTENT_NAME

    def staging(self, name: str) -> Path:
        """Where an import stages a scope it brings in whole (docs/formats.md §18.3)."""
        return self.target_dir(name) / STAGING_NAME

    def lock(self, name: str) -> Path:
        return self.home.lock_path(f"sync-{name}")


def load_config(home: Home) -> SyncConfig:
    """The sync set-up of a home (none when unreadable: `problem` says why)."""
    path = SyncPaths(home).config
    read = read_sidecar(path)
    config = SyncConfig.read(read.document) or SyncConfig()  # a document always reads
    if read.problem:
        return config.replaced(problem=f"{path} cannot be read: {read.problem}")
    return config


def save_target(home: Home, target: Target, *, machine: str | None = None) -> SyncConfig:
    """Add or replace a target, refusing a scope another target carries."""
    paths = SyncPaths(home)
    with edit_sidecar(paths.config, home.lock_path("sync-config")) as document:
        document.setdefault("version", 1)
        if machine:
            document["machine"] = machine
        elif not isinstance(document.get("machine"), str):
            document["machine"] = default_machine_name()
        raw_targets = document.get("targets")
        kept = [t for t in (raw_targets if isinstance(raw_targets, list) else []) if t]
        others = [t for t in map(Target.read, kept) if t and t.name != target.name]
        for other in others:
            for scope in target.scopes:
                if any(scope.scope is s.scope and scope.key == s.key for s in other.scopes):
                    raise SyncSetupError(
                        f"{scope.label} is synced with {other.name} already; a scope goes "
                        "to one remote"
                    )
        document["targets"] = [*_without(kept, target.name), target.to_json()]
    return load_config(home)


def remove_target(home: Home, name: str) -> None:
    with edit_sidecar(SyncPaths(home).config, home.lock_path("sync-config")) as document:
        raw_targets = document.get("targets")
        if isinstance(raw_targets, list):
            document["targets"] = _without(raw_targets, name)


def _without(raw_targets: list[Any], name: str) -> list[Any]:
    return [raw for raw in raw_targets if not (isinstance(raw, dict) and raw.get("name") == name)]
