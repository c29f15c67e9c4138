"""A plan file is read strictly and its first problem named in one line (docs/formats.md
§9.4): the kind, the version, the ops one by one, then the plan's own fields."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from memtab.consolidation.errors import PlanError
from memtab.consolidation.review.plan import read_plan

OP = {
    "index": 1,
    "command": "delete",
    "path": "/memories/global/a.md",
    "arguments": {},
    "files": [],
}
PLAN = {
    "kind": "memtab-consolidation-plan",
    "version": 1,
    "id": "p1",
    "home": "/h",
    "workspaceId": "w",
    "trigger": "manual",
    "ops": [OP],
}


@pytest.mark.parametrize(
    ("changes", "said"),
    [
        ({"kind": "x"}, "this is not a Memtab consolidation plan"),
        ({"version": 2}, "plan version 2 is not supported"),
        ({"ops": {}}, "the plan has no list of ops"),
        ({"ops": [3]}, "op 1 of the plan is not an object"),
        ({"ops": [{**OP, "index": 2}]}, "op 1 of the plan is numbered 2"),
        ({"ops": [{**OP, "files": None}]}, "op 1 of the plan has no arguments or files"),
        ({"ops": [OP, {**OP, "index": 2, "unit": []}]}, "op 2 of the plan has a malformed unit []"),
        ({"id": 5}, "the plan's `id` is missing or not text"),
    ],
)  # fmt: skip
def test_a_plan_file_says_its_first_problem(
    tmp_path: Path, changes: dict[str, Any], said: str
) -> None:
    path = tmp_path / "plan.json"
    path.write_text(json.dumps({**PLAN, **changes}), encoding="utf-8")
    with pytest.raises(PlanError) as raised:
        read_plan(path)
    assert str(raised.value) == said


def test_a_good_plan_file_reads(tmp_path: Path) -> None:
    path = tmp_path / "plan.json"
    path.write_text(json.dumps(PLAN), encoding="utf-8")
    assert read_plan(path).ops[0].path == "/memories/global/a.md"
