"""Headless commands over the store: list, tool, status, workspaces, project/workspace add, demo."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated, Literal

from memtab.cli.common import command, elide, format_table, group, open_store, record_of
from memtab.cli.options import CliError
from memtab.demo import create_demo_home
from memtab.fs.jsonfile import JsonError, parse_json
from memtab.fs.records import OmitEmpty, Record
from memtab.humanize import relative_time, size_text
from memtab.store.catch_up.external import record_external
from memtab.store.home import Home
from memtab.store.paths import (
    MAX_PATH_DEPTH,
    Scope,
    normalize_project_path,
    too_deep_words,
)
from memtab.store.scopes.file_rows import FileRow, file_rows
from memtab.store.scopes.tool import MemoryTool, ToolResult
from memtab.store.sidecars.journal import ConsolidationStatus, Journal
from memtab.store.sidecars.registry import (
    MULTI_PROJECT_KEY,
    Registry,
    Workspace,
    add_project,
    add_workspace,
    load_registry,
    orphan_project_dirs,
)
from memtab.store.sidecars.scope_runs import load_scope_runs
from memtab.store.xum_notes import SESSION_SCOPE_WORDS

# --- list ---------------------------------------------------------------------------------


def _described(row: FileRow) -> str:
    if row.conflict_of:
        return f"conflict copy of {row.conflict_of} (see memtab conflicts)"
    if row.adopted_from:
        adopted = f"adopted from sub-agent {row.adopted_from}"
        return f"{adopted}: {elide(row.description, 40)}" if row.description else adopted
    return elide(row.description or "", 60)


class UnaddressableRow(Record, write_only=True):
    """A file or folder no virtual path can name: shown in `unaddressable`, never addressable."""

    path: str
    scope: str
    kind: Literal["directory", "file"]
    reason: str


class FileListing(Record, write_only=True):
    """`memtab list --json` (docs/formats.md §22.2): files, unnamed entries, too-deep folders."""

    files: tuple[FileRow, ...]
    unaddressable: tuple[UnaddressableRow, ...]
    too_deep: Annotated[tuple[str, ...], OmitEmpty] = ()


@command("list", writes_home=True)
def run_list(
    home: Home, *, workspace: str | None = None, source: str | None = None, json: bool = False
) -> Record | int:
    """list memory files with descriptions and usage

    Args:
        workspace (ID): include its project and workspace
        source (ID): list another agent's source (see `memtab sources`)
        json: machine-readable output
    """
    if source not in (None, "mux"):
        # lazy: --source only (other agents' sources: ~28 ms, 39 modules `memtab list` saves)
        from memtab.cli.memory.source_commands import run_source_list

        return run_source_list(home, source, json=json)
    store, _ = open_store(home, workspace)
    # History sees what changed outside (unless a writer holds a scope: reads never wait).
    for warning in record_external(store, wait=False).warnings():
        print(f"warning: {warning}", file=sys.stderr)
    listings = store.list_all()
    rows = file_rows(listings, store)
    unaddressable = [
        UnaddressableRow(
            path=entry.shown,
            scope=listing.scope.value,
            kind="directory" if entry.is_dir else "file",
            reason=entry.reason,
        )
        for listing in listings
        for entry in listing.unaddressable
    ]
    too_deep = [path for listing in listings for path in listing.too_deep]
    if json:
        return FileListing(
            files=tuple(rows),
            unaddressable=tuple(unaddressable),
            too_deep=tuple(str(path) for path in too_deep),
        )
    for path in too_deep:
        print(
            f"warning: not listed: {too_deep_words(path)} (memory paths go at most "
            f"{MAX_PATH_DEPTH} levels below their scope)",
            file=sys.stderr,
        )
    for entry in unaddressable:
        print(
            f"warning: {entry.path} is not listed: {entry.reason}; rename it outside "
            "Memtab to see and edit it",
            file=sys.stderr,
        )
    if not rows:
        print(f"No memory files in {home.root}")
    else:
        table = [["", "PATH", "SIZE", "MODIFIED", "USES", "DESCRIPTION"]]
        for row in rows:
            when = [size_text(row.size_bytes), relative_time(row.modified_at)]
            uses = str(row.access_count or "")
            table.append(["*" if row.pinned else "", row.path, *when, uses, _described(row)])
        print(format_table(table, right_aligned=(2, 4)))
        if any(row.pinned for row in rows):
            print("\n* pinned")
        if any(row.scope == Scope.SESSION.value for row in rows):
            print(f"\n{Scope.SESSION.virtual_root} is {SESSION_SCOPE_WORDS}")
    for scope in store.scopes():
        reason = store.unavailable_reason(scope)
        if reason and store.workspace is not None:
            print(f"({reason})", file=sys.stderr)
    if store.workspace is None:
        print(
            "(global scope only: pass --workspace ID for project and workspace memory)",
            file=sys.stderr,
        )
    return 0


# --- tool ---------------------------------------------------------------------------------


@command("tool", status=lambda result: 0 if result.success else 1, writes_home=True)
def run_tool(home: Home, call: str, *, workspace: str | None = None) -> ToolResult:
    """run one memory-tool call (JSON in, JSON out)

    Args:
        call (JSON): the tool call as a JSON object, or - for stdin
        workspace (ID): the workspace whose scopes to use
    """
    # Bytes from stdin, so text that is not UTF-8 is a clean error rather than a traceback.
    raw: str | bytes = sys.stdin.buffer.read() if call == "-" else call
    try:
        parsed = parse_json(raw)
    except JsonError as error:
        raise CliError(f"The tool call is {error}") from None
    if not isinstance(parsed, dict):
        raise CliError('The tool call must be a JSON object, e.g. \'{"command": "view", ...}\'')
    store, _ = open_store(home, workspace, actor="agent-tool")
    return MemoryTool(store).execute(parsed)


# --- status -------------------------------------------------------------------------------


@command("status", writes_home=False)
def run_status(home: Home, *, workspace: str, json: bool = False) -> ConsolidationStatus | int:
    """consolidation coverage of a workspace

    Args:
        workspace (ID):
    """
    found = load_registry(home).require_workspace(workspace)
    status = Journal(home).status(
        found.id, found.project_identity, found.notebook_id, load_scope_runs(home)
    )
    if json:
        return status
    # lazy: the lines of the window's consolidation footer, not `memtab --help`'s start
    from memtab.components.consolidation.consolidation import harvest_line, scope_lines

    print(f"{found.display_name} ({found.id}) · {_project_label(found)}")
    lines = [[f"{label}:", line.text] for label, line in scope_lines(status).items()]
    if (harvest := harvest_line(status)) is not None:
        lines += [["Harvest:", harvest.text], *([["", harvest.error]] if harvest.error else [])]
    print(format_table(lines))
    return 0


def _project_label(workspace: Workspace) -> str:
    if workspace.multi_project:
        names = ", ".join(os.path.basename(p) for p in workspace.projects) or "several projects"
        return f"multi-project ({names})"
    return workspace.project_name


# --- workspaces ---------------------------------------------------------------------------


class WorkspaceRow(Record, write_only=True):
    """A workspace as `memtab workspaces --json` lists it (docs/formats.md §2)."""

    id: str
    name: str
    title: str | None
    path: str
    project_path: str
    project_name: str
    projects: tuple[str, ...]
    archived: bool
    multi_project: bool
    project_available: bool
    parent_workspace_id: str | None
    created_at: str | None
    notebook_workspace_id: str
    """Whose notebook its workspace scope is: its task tree's root (docs/formats.md §2.5)."""


def _workspace_row(workspace: Workspace) -> WorkspaceRow:
    return record_of(
        WorkspaceRow,
        workspace,
        project_available=workspace.project_identity is not None,
        parent_workspace_id=workspace.parent_id,
        notebook_workspace_id=workspace.notebook_id,
    )


class ProjectRow(Record, write_only=True):
    """A registered project as `memtab workspaces --json` lists it."""

    path: str
    name: str
    dir_name: str


class WorkspaceListing(Record, write_only=True):
    """`memtab workspaces --json` (docs/formats.md §2): projects, workspaces, orphan folders."""

    home: Path
    projects: tuple[ProjectRow, ...]
    workspaces: tuple[WorkspaceRow, ...]
    orphan_project_dirs: tuple[str, ...]


@command("workspaces", writes_home=False)
def run_workspaces(home: Home, *, json: bool = False) -> WorkspaceListing | int:
    """list projects and workspaces"""
    registry = load_registry(home)
    orphans = orphan_project_dirs(home, registry)
    if not json:
        _print_workspaces(registry, orphans, home.root)
        return 0
    projects = tuple(
        ProjectRow(path=p.path, name=p.display_name, dir_name=p.dir_name)
        for p in registry.projects
        if p.path != MULTI_PROJECT_KEY
    )
    return WorkspaceListing(
        home=home.root,
        projects=projects,
        workspaces=tuple(map(_workspace_row, registry.workspaces)),
        orphan_project_dirs=tuple(orphans),
    )


def _print_workspaces(registry: Registry, orphans: list[str], root: Path) -> None:
    if not registry.projects:
        print(f"No projects registered in {root}")
    for project in registry.projects:
        title = "Multi-project" if project.path == MULTI_PROJECT_KEY else project.display_name
        location = "" if project.path == MULTI_PROJECT_KEY else f"  {project.path}"
        print(f"{title}{location}")
        rows = []
        for workspace in project.workspaces:
            marks = []
            if workspace.archived:
                marks.append("archived")
            if workspace.multi_project:
                marks.append(_project_label(workspace))
            if workspace.parent_id:
                marks.append(f"task of {workspace.parent_id}")
            if workspace.side_chat_parent_id:
                marks.append(f"side chat of {workspace.side_chat_parent_id}")
            if workspace.shares_notebook:
                marks.append(f"notebook of {workspace.notebook_id}")
            shown = f"[{', '.join(marks)}]" if marks else ""
            rows.append(["  " + workspace.id, workspace.name, workspace.title or "", shown])
        print(format_table(rows) if rows else "  (no workspaces)")
    if orphans:
        print("\nOrphan project memory (no registered project):")
        for name in orphans:
            print(f"  memory/project/{name}")
    for problem in registry.problems:
        print(f"warning: {problem}", file=sys.stderr)


# --- registering --------------------------------------------------------------------------


project_group = group("project", writes_home=True, help="register projects (for homes without mux)")


@command("add", under=project_group)
def run_project_add(home: Home, path: str, *, name: str | None = None) -> int:
    """register a project directory

    Args:
        name: display name (default: the directory name)
    """
    path = normalize_project_path(os.path.abspath(os.path.expanduser(path)))
    if add_project(home, path, name):
        print(f"Registered project {path}")
    else:
        print(f"Project {path} is already registered")
    return 0


workspace_group = group("workspace", writes_home=True, help="register workspaces (without mux)")


@command("add", under=workspace_group)
def run_workspace_add(home: Home, *, project: str, name: str, id_: str | None = None) -> int:
    """register a workspace

    Args:
        project (PATH):
        id_ (ID):
    """
    print(add_workspace(home, os.path.abspath(os.path.expanduser(project)), name, id_))
    return 0


@command("demo", writes_home=False)
def run_demo(directory: str) -> int:
    """write a realistic demo home into DIR

    Args:
        directory (DIR):
    """
    target = Path(os.path.abspath(os.path.expanduser(directory)))
    create_demo_home(target)
    print(f"Demo home written to {target}")
    print(f"Try: memtab --home {target} workspaces")
    return 0
