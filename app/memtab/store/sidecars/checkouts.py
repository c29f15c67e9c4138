"""Which registered workspace and project a directory belongs to, by the registry's rules
(docs/formats.md §2.1, §2.2, §2.5, §22.9): the deepest checkout holding it, else its project; paths
compared as given and with links resolved."""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TypeVar

from memtab.store.paths import normalize_project_path
from memtab.store.sidecars.registry import (
    MULTI_PROJECT_KEY,
    Registry,
    Workspace,
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
        notebooks = {(ws.notebook_id, ws.project_identity) for ws in holding}
        if len(notebooks) == 1:
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
