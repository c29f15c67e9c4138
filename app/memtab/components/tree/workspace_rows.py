"""The workspace picker's rows, without Qt: which workspaces the Memory tab's tree can show,
in which order and in which words (docs/formats.md §2.5; `gui/memory_tab/workspace_picker.py`
shows them in a combo box)."""

import enum
from collections.abc import Iterator, Sequence
from typing import NamedTuple

from memtab.store.sidecars.registry import MULTI_PROJECT_KEY, Registry, Workspace

NO_WORKSPACE_TEXT = "No workspace — global memory only"
MULTI_PROJECT_TITLE = "Multi-project workspaces"


class RowKind(enum.IntEnum):
    """What a picker row is."""

    PROJECT = 0
    WORKSPACE = 1
    NONE = 2


class PickerRow(NamedTuple):
    """One row of the picker."""

    kind: RowKind
    text: str
    workspace: Workspace | None = None
    depth: int = 0
    project_title: str = ""

    @property
    def tags(self) -> list[str]:
        """Muted labels after a workspace's name."""
        ws = self.workspace
        if ws is None:
            return []
        said = (("shared notebook", ws.shares_notebook), ("multi-project", ws.multi_project))
        return [tag for tag, on in (*said, ("archived", ws.archived)) if on]

    @property
    def accessible_text(self) -> str:
        """What a screen reader says for the row."""
        if self.kind is RowKind.PROJECT:
            return f"Project {self.text}"
        tags = self.tags
        return self.text + (f" ({', '.join(tags)})" if tags else "")

    @property
    def closed_text(self) -> str | None:
        """What the closed picker says for a chosen workspace: its project as context before
        its name (None: the row's own text)."""
        if self.workspace is None:
            return None
        suffix = f"  ({', '.join(self.tags)})" if self.tags else ""
        return f"{self.project_title}  ›  {self.text}{suffix}"

    @property
    def tooltip(self) -> str | None:
        """A workspace's id, folder, projects, parent and notebook, archived when."""
        ws = self.workspace
        if ws is None:
            return None
        lines = [f"{ws.display_name} ({ws.id})"]
        if ws.path:
            lines.append(ws.path)
        if ws.multi_project:
            lines.append("Multi-project: " + ", ".join(ws.projects or (ws.project_path,)))
            lines.append("No project memory (no single project identity)")
        else:
            lines.append(f"Project: {ws.project_path}")
        if ws.parent_id:
            lines.append(f"Agent task of {ws.parent_id}")
        if ws.side_chat_parent_id:
            lines.append(f"Side chat of {ws.side_chat_parent_id}")
        if ws.shares_notebook:
            lines.append(
                f"Workspace memory: the notebook of {ws.notebook_id}, shared by its task tree"
            )
        if ws.archived:
            lines.append(f"Archived {ws.archived_at}")
        return "\n".join(lines)


NO_WORKSPACE_ROW = PickerRow(RowKind.NONE, NO_WORKSPACE_TEXT)


def project_title(project_path: str, display_name: str) -> str:
    """How a project's header reads (the synthetic `_multi` key gets a real title)."""
    return MULTI_PROJECT_TITLE if project_path == MULTI_PROJECT_KEY else display_name


def picker_rows(registry: Registry) -> list[PickerRow]:
    """The rows for a registry: projects in order, children under their parents."""
    known = {ws.id for ws in registry.workspaces}
    children: dict[str, list[Workspace]] = {}
    for ws in registry.workspaces:
        parent = _tree_parent(ws, known)
        if parent is not None:
            children.setdefault(parent, []).append(ws)
    rows: list[PickerRow] = []
    placed: set[str] = set()

    def subtree(ws: Workspace, depth: int, title: str) -> Iterator[PickerRow]:
        if ws.id in placed:
            return  # a parent cycle in a hand-edited config
        placed.add(ws.id)
        yield PickerRow(RowKind.WORKSPACE, ws.display_name, ws, depth, title)
        for child in children.get(ws.id, []):
            yield from subtree(child, depth + 1, title)

    for project in registry.projects:
        title = project_title(project.path, project.display_name)
        top_level = [ws for ws in project.workspaces if _tree_parent(ws, known) is None]
        project_rows = [row for ws in top_level for row in subtree(ws, 0, title)]
        if project_rows:
            rows.append(PickerRow(RowKind.PROJECT, title, project_title=title))
            rows.extend(project_rows)
    leftovers = [ws for ws in registry.workspaces if ws.id not in placed]
    if leftovers:  # children whose parent chain loops
        rows.append(PickerRow(RowKind.PROJECT, "Other workspaces", project_title="Other"))
        rows.extend(row for ws in leftovers for row in subtree(ws, 0, "Other"))
    if not rows:
        rows.append(NO_WORKSPACE_ROW)
    return rows


def _tree_parent(ws: Workspace, known: set[str]) -> str | None:
    """The row a workspace sits under: its registered parent (a sub-agent's, a side
    chat's), else the notebook it shares (a task whose parent was removed), else none."""
    for parent in (ws.parent_id, ws.side_chat_parent_id):
        if parent is not None and parent in known and parent != ws.id:
            return parent
    return ws.notebook_id if ws.shares_notebook else None


def row_of(rows: Sequence[PickerRow], workspace_id: str | None) -> int:
    """The row of a workspace (or of "No workspace" for None); -1 when absent."""
    for position, row in enumerate(rows):
        if workspace_id is None and row.kind is RowKind.NONE:
            return position
        if row.workspace is not None and row.workspace.id == workspace_id:
            return position
    return -1
