"""The workspace picker's rows and words without Qt (`components.tree.workspace_rows`)."""

from __future__ import annotations

from memtab.components.tree.workspace_rows import (
    MULTI_PROJECT_TITLE,
    NO_WORKSPACE_ROW,
    RowKind,
    picker_rows,
    row_of,
)
from memtab.store.home import Home
from memtab.store.sidecars.registry import Registry, load_registry
from support import memory_home
from support.memory_home import ARCHIVED, CHILD, MAIN, MULTI

home = memory_home.home


def test_projects_head_their_workspaces_and_tasks_sit_under_their_parent(home: Home) -> None:
    rows = picker_rows(load_registry(home))
    shape = [(row.kind, row.text, row.depth) for row in rows]
    assert shape[0][0] is RowKind.PROJECT and shape[-2][:2] == (
        RowKind.PROJECT,
        MULTI_PROJECT_TITLE,
    )
    ids = [row.workspace.id if row.workspace else None for row in rows]
    assert ids.index(CHILD) == ids.index(MAIN) + 1 and rows[ids.index(CHILD)].depth == 1
    assert row_of(rows, ARCHIVED) == ids.index(ARCHIVED) and row_of(rows, "gone") == -1
    assert row_of(rows, None) == -1  # a home with workspaces has no "No workspace" row
    assert picker_rows(Registry()) == [NO_WORKSPACE_ROW]
    assert row_of([NO_WORKSPACE_ROW], None) == 0


def test_a_row_says_its_tags_context_and_details(home: Home) -> None:
    rows = {row.workspace.id: row for row in picker_rows(load_registry(home)) if row.workspace}
    child, archived, multi = rows[CHILD], rows[ARCHIVED], rows[MULTI]
    assert child.tags == ["shared notebook"] and archived.tags == ["archived"]
    assert multi.tags == ["multi-project"]
    assert archived.accessible_text == f"{archived.text} (archived)"
    assert child.closed_text == f"{child.project_title}  ›  {child.text}  (shared notebook)"
    assert rows[MAIN].closed_text == f"{rows[MAIN].project_title}  ›  {rows[MAIN].text}"
    assert NO_WORKSPACE_ROW.closed_text is None and NO_WORKSPACE_ROW.tooltip is None
    tooltip = child.tooltip or ""
    assert f"Agent task of {MAIN}" in tooltip and f"the notebook of {MAIN}" in tooltip
    assert "No project memory" in (multi.tooltip or "")
    assert "Archived 2026-01-02" in (archived.tooltip or "")
    header = next(row for row in picker_rows(load_registry(home)) if row.kind is RowKind.PROJECT)
    assert header.accessible_text == f"Project {header.text}"
