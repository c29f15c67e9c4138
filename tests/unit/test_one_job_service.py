"""The window's work off the GUI thread goes through its one job service.

`gui/tasks/jobs.py` builds a `TaskRunner` per lane, at most four lanes; a feature asks its
context for a client (`context.jobs.client(...)`). A feature that builds a runner of its
own — one more thread, its keys and its shutdown its own business — fails here, as does a
fifth lane. What the jobs do is each feature's `components/<feature>/jobs.py` (Qt-free: the
components import contract holds it).
"""

from __future__ import annotations

import ast
from pathlib import Path

import memtab
from support.syntax_trees import walk

APP = Path(memtab.__file__).parent
SERVICE = "gui/tasks/jobs.py"
MAX_LANES = 4


def _runner_constructions(path: Path) -> list[int]:
    """The lines of `path` that call `TaskRunner(...)` (by its name or as an attribute)."""
    source = path.read_text(encoding="utf-8")
    if "TaskRunner" not in source:
        return []
    lines = []
    for node in walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
        if name == "TaskRunner":
            lines.append(node.lineno)
    return lines


def test_only_the_job_service_builds_a_task_runner() -> None:
    found = {
        str(path.relative_to(APP)): lines
        for path in APP.rglob("*.py")
        if (lines := _runner_constructions(path))
    }
    assert set(found) == {SERVICE} and len(found[SERVICE]) == 1, (
        f"TaskRunner(...) built outside the job service: {found} — ask the window's "
        "context for a client instead (`context.jobs.client(name, lane, parent=...)`)"
    )


def test_the_job_service_has_at_most_four_lanes() -> None:
    tree = ast.parse((APP / SERVICE).read_text(encoding="utf-8"))
    lanes = next(
        node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == "Lane"
    )
    members = [node for node in lanes.body if isinstance(node, ast.Assign)]
    assert 0 < len(members) <= MAX_LANES, f"{len(members)} lanes: each is a thread; at most 4"
