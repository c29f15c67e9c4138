"""What one agent session serves: the memory of the project it works in (docs/formats.md §22.9), a
pure function of the home, its directories and `--workspace`, with what an unserved scope would take
in words."""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, TypeVar

from memtab.fs.records import OmitNone, Record
from memtab.sources.claude.source import auto_memory_base, names_match
from memtab.sources.model import Layout, Source
from memtab.store.home import Home, HomeError
from memtab.store.paths import SCOPE_ORDER, SHARED_SCOPES, Scope, normalize_project_path
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.registry import (
    MULTI_PROJECT_KEY,
    Registry,
    Workspace,
    load_registry,
    top_level_project,
)

_T = TypeVar("_T")


@dataclass(frozen=True)
class CheckoutOwner:
    """What a directory belongs to: a workspace, a project alone (`project`), or nothing (both
    None); `candidates`: the workspaces working in it when no single one does."""

    directory: str
    workspace: Workspace | None = None
    project: str | None = None
    project_name: str | None = None
    candidates: tuple[Workspace, ...] = ()

    @property
    def known(self) -> bool:
        return self.workspace is not None or self.project is not None


def checkout_owner(registry: Registry, directory: str) -> CheckoutOwner:
    """The workspace and project `directory` (absolute) belongs to (see the module doc)."""
    forms = _forms(directory)
    # An archived workspace's checkout counts only when no live one holds the directory.
    holding = _deepest(
        ((ws.path, ws) for ws in registry.workspaces if ws.path and not ws.archived), forms
    ) or _deepest(((ws.path, ws) for ws in registry.workspaces if ws.path), forms)
    if holding:
        if len({(ws.notebook_id, ws.project_identity) for ws in holding}) == 1:
            chosen = next((ws for ws in holding if ws.id == ws.notebook_id), holding[0])
            return CheckoutOwner(directory, chosen, chosen.project_identity, chosen.project_name)
        identities = {ws.project_identity for ws in holding}
        project = identities.pop() if len(identities) == 1 else None
        name = holding[0].project_name if project else None
        return CheckoutOwner(directory, None, project, name, tuple(holding))
    projects = _deepest(
        ((p.path, p) for p in registry.projects if p.path != MULTI_PROJECT_KEY), forms
    )
    if not projects:
        return CheckoutOwner(directory)
    top = top_level_project(registry, projects[0].path)
    owner = registry.project(top)
    name = owner.display_name if owner else None
    return CheckoutOwner(directory, project=top, project_name=name)


def _forms(path: str) -> tuple[str, ...]:
    """`path` as given (normalized) and with its links resolved."""
    given = normalize_project_path(os.path.normpath(path)) or "/"
    real = normalize_project_path(os.path.realpath(path)) or "/"
    return (given,) if real == given else (given, real)


def _holds(checkout: str, forms: tuple[str, ...]) -> int | None:
    """How deep `checkout` is (its length) when it holds one of `forms`, else None."""
    for candidate in _forms(checkout):
        for form in forms:
            if form == candidate or form.startswith(candidate.rstrip("/") + "/"):
                return len(candidate)
    return None


def _deepest(entries: Iterable[tuple[str, _T]], forms: tuple[str, ...]) -> list[_T]:
    """The entries of the deepest path holding one of `forms`, in order."""
    found = [(depth, item) for path, item in entries if (depth := _holds(path, forms))]
    deepest = max((depth for depth, _ in found), default=0)
    return [item for depth, item in found if depth == deepest]


FROM_ROOTS = "the client's roots"
FROM_DIRECTORY = "the directory the server started in"
FROM_OPTION = "--workspace"
_SHOWN_CANDIDATES = 5


class ServedScopes(Record, write_only=True):
    """What a session serves, as `list` says it (docs/formats.md §22.9)."""

    scopes: tuple[str, ...]
    directories: tuple[str, ...]
    decided_by: str
    project: Annotated[str | None, OmitNone] = None
    workspace: Annotated[str | None, OmitNone] = None
    words: str


@dataclass(frozen=True)
class SessionScope:
    """The scopes one session serves; `checkouts` None: every other agent's source."""

    directories: tuple[str, ...]
    decided_by: str
    workspace: Workspace | None = None
    project: str | None = None
    project_name: str | None = None
    checkouts: frozenset[str] | None = None
    missing: dict[Scope, str] = field(default_factory=dict)

    @classmethod
    def of_workspace(cls, workspace: Workspace | None) -> SessionScope:
        """A session serving `workspace`'s scopes (global only without one) and all other agents'
        memory."""
        project = workspace.project_identity if workspace else None
        name = workspace.project_name if workspace else None
        return cls((), FROM_OPTION, workspace, project, name)

    def serves(self, source: Source) -> bool:
        """Whether the session reads another agent's `source`."""
        return self.checkouts is None or serves_checkouts(source, self.checkouts)

    @property
    def scopes(self) -> tuple[Scope, ...]:
        served = {Scope.GLOBAL}
        if self.project is not None and Scope.PROJECT not in self.missing:
            served.add(Scope.PROJECT)
        if self.workspace is not None:
            served.add(Scope.WORKSPACE)
        return tuple(scope for scope in SCOPE_ORDER if scope in served)

    def paths_words(self) -> str:
        """Where each virtual path leads in this session, for the tools' descriptions."""
        parts = ["/memories/global/... (every project)"]
        if Scope.PROJECT in self.scopes:
            parts.append(f"/memories/project/... ({self._project_words()})")
        if self.workspace is not None:
            parts.append(f"/memories/workspace/... ({self._workspace_words()})")
            # served where the workspace keeps one, which may come later
            parts.append(
                f"/memories/session/... (the session memory of xum workspace "
                f"{self.workspace.display_name}, where it keeps one)"
            )
        unserved = [scope.value for scope in SHARED_SCOPES if scope not in self.scopes]
        served = f"Paths are virtual: {', '.join(parts)}."
        if unserved:
            served += f" This session has no {' or '.join(unserved)} memory: `list` says why."
        return served

    def words(self) -> str:
        """What the session serves and why, in words, and what an unserved scope would take."""
        served = ["global memory (every project)"]
        if Scope.PROJECT in self.scopes:
            served.append(f"the project memory of {self._project_words()}")
        if self.workspace is not None:
            served.append(f"the workspace memory of {self._workspace_words()}")
        others = (
            "every other agent's memory Memtab found"
            if self.checkouts is None
            else "Claude Code's, Codex's, Gemini CLI's and loki-mode's memory of this "
            "checkout's project and the user's own"
        )
        where = f" ({', '.join(self.directories)})" if self.directories else ""
        text = (
            f"This session serves {_joined(served)}, and {others}; decided by "
            f"{self.decided_by}{where}."
        )
        return " ".join([text, *self.missing.values()])

    def served(self) -> ServedScopes:
        return ServedScopes(
            scopes=tuple(scope.value for scope in self.scopes),
            directories=self.directories,
            decided_by=self.decided_by,
            project=self.project if Scope.PROJECT in self.scopes else None,
            workspace=self.workspace.id if self.workspace else None,
            words=self.words(),
        )

    def _project_words(self) -> str:
        name = self.project_name or os.path.basename(self.project or "") or self.project
        return f"{name}: {self.project}" if name != self.project else str(self.project)

    def _workspace_words(self) -> str:
        assert self.workspace is not None
        shown = self.workspace.display_name
        notebook = (
            f", the notebook of {self.workspace.notebook_id}"
            if self.workspace.shares_notebook
            else ""
        )
        return f"xum workspace {shown} ({self.workspace.id}{notebook})"


class SessionStore(MemoryStore):
    """A session's memory: the scopes it serves, and for the others its words on why."""

    def __init__(self, home: Home, scope: SessionScope, *, actor: str) -> None:
        project = scope.project if Scope.PROJECT in scope.scopes else None
        super().__init__(home, scope.workspace, project=project, actor=actor)
        self._missing = scope.missing

    def unavailable_reason(self, scope: Scope) -> str | None:
        reason = super().unavailable_reason(scope)
        return self._missing.get(scope, reason) if reason else None


def session_scope(
    home: Home,
    directories: Sequence[str],
    *,
    decided_by: str,
    pinned: str | None = None,
    registry: Registry | None = None,
) -> SessionScope:
    """What a session working in `directories` serves; `pinned`: the `--workspace`, served unless
    the directories are another project's."""
    unread = None
    if registry is None:
        try:
            registry = load_registry(home)
        except HomeError as error:  # a config.json that cannot be read: global only
            registry, unread = Registry(), str(error)
    owners = [checkout_owner(registry, directory) for directory in directories]
    pin = registry.workspace(pinned) if pinned else None
    scope = _combined(owners, pin, decided_by, directories)
    if unread is not None:
        scope.missing[Scope.PROJECT] = (
            f"Project and workspace memory are unavailable: {unread}; fix it and the next "
            "call serves them."
        )
    return scope


def _combined(
    owners: list[CheckoutOwner],
    pin: Workspace | None,
    decided_by: str,
    directories: Sequence[str],
) -> SessionScope:
    known = [owner for owner in owners if owner.known]
    projects = {owner.project for owner in known}
    checkouts = checkout_paths(
        *directories, *(o.workspace.path for o in known if o.workspace), *projects
    )
    shown = tuple(directories)
    if pin is not None and (not known or projects <= {pin.project_identity}):
        pinned_checkouts = checkout_paths(*checkouts, pin.path, pin.project_identity)
        decided = f"{FROM_OPTION} {pin.id}"
        name = pin.project_name
        return SessionScope(shown, decided, pin, pin.project_identity, name, pinned_checkouts)
    missing: dict[Scope, str] = {}
    if pin is not None:
        missing[Scope.WORKSPACE] = (
            f"--workspace {pin.id} is a workspace of {pin.project_identity}, another project "
            "than this session's: it is not served here."
        )
    if not known:
        where = shown[0] if len(shown) == 1 else "these directories"
        missing[Scope.PROJECT] = _unknown_words(shown)
        no_workspace = f"Workspace memory is unavailable: {where} is no xum workspace's checkout."
        missing.setdefault(Scope.WORKSPACE, no_workspace)
        return SessionScope(shown, decided_by, checkouts=checkouts, missing=missing)
    workspaces = {owner.workspace.notebook_id for owner in known if owner.workspace}
    first = known[0]
    if len(projects) > 1:
        missing[Scope.PROJECT] = (
            f"Project memory is unavailable: {decided_by} are in {len(projects)} projects "
            f"({', '.join(sorted(str(p) for p in projects))}); a session serves one."
        )
        missing.setdefault(Scope.WORKSPACE, "Workspace memory is unavailable: see above.")
        return SessionScope(shown, decided_by, checkouts=checkouts, missing=missing)
    workspace = first.workspace if len(workspaces) == 1 and len(known) == len(owners) else None
    if workspace is None and Scope.WORKSPACE not in missing:
        missing[Scope.WORKSPACE] = _no_workspace_words(known)
    return SessionScope(
        shown, decided_by, workspace, first.project, first.project_name, checkouts, missing
    )


def _unknown_words(directories: tuple[str, ...]) -> str:
    roots = sorted({str(auto_memory_base(Path(d))) for d in directories})
    root = roots[0] if roots else "<the project>"
    where = ", ".join(directories)
    return (
        f"Project memory is unavailable: {where} is in no project Memtab knows (the home's "
        "config.json registers none there). To keep this project's memory, register it — "
        f"`memtab workspace add --project {root} --name {os.path.basename(root) or 'NAME'}` "
        f"(the project and a workspace working in it), `memtab project add {root}` (the "
        "project alone), or add the project in xum — and the next call serves it."
    )


def _no_workspace_words(known: list[CheckoutOwner]) -> str:
    candidates = [ws for owner in known for ws in owner.candidates]
    if candidates:
        ids = ", ".join(ws.id for ws in candidates[:_SHOWN_CANDIDATES])
        more = f" and {len(candidates) - _SHOWN_CANDIDATES} more" if len(candidates) > 5 else ""
        return (
            f"Workspace memory is unavailable: {len(candidates)} xum workspaces work in "
            f"this checkout ({ids}{more}); start the server with `--workspace ID` to serve "
            "one's notebook."
        )
    return (
        "Workspace memory is unavailable: this checkout is the project's, not a xum "
        "workspace's (a workspace's notes are served in its own checkout)."
    )


def _joined(items: list[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def checkout_paths(*paths: str | None) -> frozenset[str]:
    """`paths` as other agents' sources name projects: as given, links resolved, and Claude Code's
    git root (§17.6)."""
    found: set[str] = set()
    for path in paths:
        if not path:
            continue
        for form in (path, os.path.realpath(path)):
            found.add(form.rstrip("/") or "/")
        if os.path.isdir(path):
            found.add(str(auto_memory_base(Path(path))))
    return frozenset(found)


def serves_checkouts(source: Source, checkouts: Iterable[str]) -> bool:
    """Whether a session in `checkouts` reads another agent's `source`: one of no project, or of
    theirs (a Claude Code folder also by its encoded name)."""
    paths = frozenset(checkouts)
    if source.layout is Layout.CLAUDE_MEMORY:
        return source.project in paths or any(names_match(p, source.root.name) for p in paths)
    return source.project is None or source.project in paths
