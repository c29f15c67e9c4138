"""What is synced where: the targets of a home and the layout of a sync repository.

A target is one git remote and the scopes of this home it carries (docs/formats.md
§18.2). The repository's layout does not depend on the machine: the global scope is
`global/`, a project scope `projects/<name>/` (a stable name chosen at `sync init`, the
project directory's name by default, since the project's path differs from machine to
machine: /home/alice/app here, /Users/alice/app there), a workspace scope
`workspaces/<name>/`. Pins and usage are `.memtab/meta/<scope dir>.json`, keyed by the
file's path inside its scope (memory-meta.json's keys embed the project path: they are
mapped on the way in and out).

The targets are `<home>/memtab/sync/config.json`, this machine's alone like everything
under `<home>/memtab/`; each target's repository and state are in
`<home>/memtab/sync/<target>/`.
"""

from __future__ import annotations

import re
import socket
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from memtab.fs.sidecar import edit_sidecar, read_sidecar
from memtab.store.home import SYNC_CONFIG_NAME, SYNC_REPOSITORY_NAME, SYNC_STATE_NAME, Home
from memtab.store.paths import (
    Scope,
    VirtualPath,
    is_addressable_name,
    normalize_project_path,
    project_basename,
)
from memtab.store.sidecars.meta import global_key, project_key, workspace_key

ScopeKind = Literal["global", "project", "workspace"]
META_DIR = ".memtab/meta"
FORMAT_PATH = ".memtab/format.json"
FORMAT_VERSION = 1
DEFAULT_BRANCH = "main"
DEFAULT_TARGET = "memory"
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")


class SyncSetupError(ValueError):
    """A sync set-up that cannot be used (a bad scope, a name taken); says why."""


def check_name(name: str, what: str) -> str:
    """A target or scope name: letters, digits, `.`, `_`, `-`, at most 64, no leading dot."""
    if not _NAME.match(name) or name in (".", ".."):
        raise SyncSetupError(
            f"{what} {name!r} is not a usable name: use letters, digits, '.', '_' and '-' "
            "(at most 64, starting with a letter or digit)"
        )
    return name


@dataclass(frozen=True)
class SyncedScope:
    """One scope of this home and its folder in the repository."""

    kind: ScopeKind
    name: str
    """The folder's name: `global`, or the project's or workspace's stable name."""
    key: str | None = None
    """The project path (on this machine) or the workspace id; None for global."""

    @property
    def scope(self) -> Scope:
        return Scope(self.kind)

    @property
    def prefix(self) -> str:
        """The scope's folder in the repository."""
        if self.kind == "global":
            return "global"
        return f"{self.kind}s/{self.name}"

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
        """The memory file a repository path is, or None when it is not this scope's or
        cannot be a memory file here (a dotfile, a name memory paths refuse)."""
        head = self.prefix + "/"
        if not repo_path.startswith(head):
            return None
        segments = tuple(repo_path[len(head) :].split("/"))
        if not all(is_addressable_name(s) and not s.startswith(".") for s in segments):
            return None
        return VirtualPath(self.scope, segments)

    def meta_key(self, relative: str) -> str:
        """This machine's memory-meta.json key of a file of the scope."""
        if self.kind == "global":
            return global_key(relative)
        assert self.key is not None
        if self.kind == "project":
            return project_key(self.key, relative)
        return workspace_key(self.key, relative)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"scope": self.kind}
        if self.kind == "project":
            data.update(path=self.key, name=self.name)
        elif self.kind == "workspace":
            data.update(id=self.key, name=self.name)
        return data


def parse_scope(spec: str) -> SyncedScope:
    """`global`, `project:PATH[=NAME]` or `workspace:ID[=NAME]` (SyncSetupError)."""
    kind, _, rest = spec.partition(":")
    if kind == "global" and not rest:
        return SyncedScope("global", "global")
    value, _, name = rest.partition("=")
    if kind == "project" and value:
        path = normalize_project_path(value)
        if not path:
            raise SyncSetupError(f"{spec!r}: the project path is empty")
        chosen = name or project_basename(path) or "project"
        return SyncedScope("project", check_name(_safe(chosen), "The project name"), path)
    if kind == "workspace" and value:
        return SyncedScope("workspace", check_name(name or value, "The workspace name"), value)
    raise SyncSetupError(
        f"{spec!r} is not a scope: use global, project:PATH[=NAME] or workspace:ID[=NAME]"
    )


def _safe(name: str) -> str:
    """A directory's name as a folder name of the repository (odd characters as `_`)."""
    return re.sub(r"[^A-Za-z0-9._-]", "_", name).lstrip(".") or "project"


def _scope_from_json(raw: Any) -> SyncedScope | None:
    if not isinstance(raw, dict):
        return None
    kind = raw.get("scope")
    if kind == "global":
        return SyncedScope("global", "global")
    key = raw.get("path") if kind == "project" else raw.get("id")
    name = raw.get("name")
    if kind not in ("project", "workspace") or not isinstance(key, str):
        return None
    if isinstance(name, str) and _NAME.match(name):
        return SyncedScope(kind, name, key)
    return None


@dataclass(frozen=True)
class Target:
    """One remote and the scopes it carries."""

    name: str
    remote: str
    branch: str
    scopes: tuple[SyncedScope, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "remote": self.remote,
            "branch": self.branch,
            "scopes": [scope.to_json() for scope in self.scopes],
        }


def _target_from_json(raw: Any) -> Target | None:
    if not isinstance(raw, dict):
        return None
    name, remote, branch = raw.get("name"), raw.get("remote"), raw.get("branch")
    scopes_raw = raw.get("scopes")
    if not (isinstance(name, str) and _NAME.match(name) and isinstance(remote, str) and remote):
        return None
    scopes = [s for s in map(_scope_from_json, scopes_raw or []) if s is not None]
    return Target(
        name,
        remote,
        branch if isinstance(branch, str) and branch else DEFAULT_BRANCH,
        tuple(scopes),
    )


@dataclass(frozen=True)
class SyncConfig:
    """This home's sync set-up: the machine's name and every target."""

    machine: str
    targets: tuple[Target, ...] = ()
    problem: str | None = None
    """Why the set-up file cannot be read (None: it can, or there is none)."""

    def target(self, name: str) -> Target:
        for target in self.targets:
            if target.name == name:
                return target
        raise SyncSetupError(f"No sync target named {name!r} (see memtab sync status)")


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

    def lock(self, name: str) -> Path:
        return self.home.lock_path(f"sync-{name}")


def default_machine_name() -> str:
    return socket.gethostname().split(".")[0] or "this machine"


def load_config(home: Home) -> SyncConfig:
    """The sync set-up of a home (no targets when none was made, or it cannot be read:
    then `problem` says why)."""
    path = SyncPaths(home).config
    read = read_sidecar(path)
    document = read.document
    machine = document.get("machine")
    targets = [t for t in map(_target_from_json, document.get("targets") or []) if t]
    return SyncConfig(
        machine if isinstance(machine, str) and machine.strip() else default_machine_name(),
        tuple(targets),
        f"{path} cannot be read: {read.problem}" if read.problem else None,
    )


def save_target(home: Home, target: Target, *, machine: str | None = None) -> SyncConfig:
    """Add or replace a target in the home's sync set-up, refusing a scope another target
    already carries (two remotes would pass its changes back and forth)."""
    paths = SyncPaths(home)
    with edit_sidecar(paths.config, home.lock_path("sync-config")) as document:
        document.setdefault("version", 1)
        if machine:
            document["machine"] = machine
        elif not isinstance(document.get("machine"), str):
            document["machine"] = default_machine_name()
        raw_targets = document.get("targets")
        kept = [t for t in (raw_targets if isinstance(raw_targets, list) else []) if t]
        others = [t for t in map(_target_from_json, kept) if t and t.name != target.name]
        for other in others:
            for scope in target.scopes:
                if any(scope.scope is s.scope and scope.key == s.key for s in other.scopes):
                    raise SyncSetupError(
                        f"{scope.label} is synced with {other.name} already; a scope goes "
                        "to one remote"
                    )
        document["targets"] = [
            *[
                raw
                for raw in kept
                if not (isinstance(raw, dict) and raw.get("name") == target.name)
            ],
            target.to_json(),
        ]
    return load_config(home)


def remove_target(home: Home, name: str) -> None:
    with edit_sidecar(SyncPaths(home).config, home.lock_path("sync-config")) as document:
        raw_targets = document.get("targets")
        if isinstance(raw_targets, list):
            document["targets"] = [
                raw
                for raw in raw_targets
                if not (isinstance(raw, dict) and raw.get("name") == name)
            ]
