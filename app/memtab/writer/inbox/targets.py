"""Where an accepted Inbox item goes (docs/formats.md §10.5): the memory it belongs in, proposed
from what its proposer already said of it, and the files the user may choose instead
(docs/formats.md §3.1)."""

from __future__ import annotations

import heapq
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import islice

from memtab.store.files import ScopeListing
from memtab.store.paths import PathError, Scope, VirtualPath, parse_file_path
from memtab.store.scopes.scope_view import ScopeView
from memtab.writer.config import DEFAULT_MEMORY_PATH
from memtab.writer.inbox.harvest import HARVEST_DIR
from memtab.writer.offline.notes import GOAL

PROJECT_NOTES = "/memories/project/notes.md"
GLOBAL_NOTES = "/memories/global/notes.md"
NOTES_FILES = {
    Scope.GLOBAL: GLOBAL_NOTES,
    Scope.PROJECT: PROJECT_NOTES,
    Scope.WORKSPACE: DEFAULT_MEMORY_PATH,
}
# mux's categories (`writer.inbox.harvest.CATEGORIES`), and why each belongs where it goes.
CATEGORY_SCOPES: dict[str, tuple[Scope, str]] = {
    "preference": (Scope.GLOBAL, "the user's preference holds in every project"),
    "project": (Scope.PROJECT, "a fact of the project holds in every workspace of it"),
    "workflow": (Scope.PROJECT, "the project's workflow holds in every workspace of it"),
    "environment": (Scope.WORKSPACE, "the environment is this workspace's (ports, tools)"),
    "other": (Scope.WORKSPACE, "kept with this workspace"),
}
# The offline writer's sections (`writer.offline.notes.SECTION_ORDER`): the goal is the task's.
_GOAL_REASON = "the goal is this workspace's task"
_SECTION_REASON = "the project's rules, decisions, commands and fixes hold in every workspace"
MAX_CHOICES_PER_SCOPE = 40
_HARVEST_FOLDER = HARVEST_DIR.rsplit("/", 1)[-1]


@dataclass(frozen=True)
class Target:
    """Where accepting an item writes, and why that file."""

    path: str
    reason: str


def proposed_target(
    view: ScopeView, *, category: str | None, section: str, default_path: str
) -> Target:
    """The file a note belongs in: by mux's `category` (a harvest candidate) or the
    writer's `section` (a suggestion); `default_path`, the workspace file it was queued
    for, when it is the workspace's or the scope it belongs in is unavailable."""
    if category is not None:
        scope, reason = CATEGORY_SCOPES.get(category, CATEGORY_SCOPES["other"])
        reason = f"mux's category {category!r}: {reason}"
    elif section == GOAL:
        scope, reason = Scope.WORKSPACE, f"the writer's {section!r}: {_GOAL_REASON}"
    else:
        scope, reason = Scope.PROJECT, f"the writer's {section!r}: {_SECTION_REASON}"
    if scope is Scope.WORKSPACE:
        return Target(default_path, reason)
    unavailable = view.unavailable_reason(scope)
    if unavailable:
        return Target(default_path, f"{reason}, but {unavailable[0].lower()}{unavailable[1:]}")
    return Target(NOTES_FILES[scope], reason)


def target_problem(view: ScopeView, raw: str) -> str | None:
    """Why a note cannot be accepted into `raw`, or None: a Markdown file of a scope the
    workspace has, not a harvest file (mux's, decided in the Inbox)."""
    try:
        path = parse_file_path(raw)
    except PathError as error:
        return str(error)
    if not path.name.endswith(".md"):
        return f"A note goes into a Markdown file (.md), not {raw!r}"
    if str(path).startswith(HARVEST_DIR + "/"):
        return f"{raw} is one of mux's harvest files; choose a memory file"
    assert path.scope is not None
    if not path.scope.shared:
        return f"{raw} is in xum's session scope, an agent's own checkpoint; choose a memory file"
    return view.unavailable_reason(path.scope)


def target_choices(listings: Iterable[ScopeListing]) -> tuple[str, ...]:
    """The files a note may be accepted into, widest scope first, from the window's listings (no
    disk read): each scope's notes file and its other Markdown files in the tree's order (at most
    MAX_CHOICES_PER_SCOPE a scope; harvest files left out)."""
    by_scope = {listing.scope: listing for listing in listings}
    choices: list[str] = []
    for scope in (Scope.GLOBAL, Scope.PROJECT, Scope.WORKSPACE):
        listing = by_scope.get(scope)
        if listing is None:
            continue
        notes = NOTES_FILES[scope]
        found = heapq.nsmallest(  # the first few in order, not all sorted
            MAX_CHOICES_PER_SCOPE + 1,
            (
                segments
                for segments in (entry.path.segments for entry in listing.files)
                if segments[-1].endswith(".md")
                and not (
                    scope is Scope.WORKSPACE
                    and len(segments) > 1
                    and segments[0] == _HARVEST_FOLDER
                )
            ),
        )
        named = (str(VirtualPath(scope, segments)) for segments in found)
        others = islice((path for path in named if path != notes), MAX_CHOICES_PER_SCOPE)
        choices += [notes, *others]
    return tuple(choices)
