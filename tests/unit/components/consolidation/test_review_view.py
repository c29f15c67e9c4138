"""Review before apply without Qt: a plan's rows (a unit with its parts under it, a refused
op greyed with why), the ticked changes' op numbers and files, and what the details say
of a row."""

from __future__ import annotations

from memtab.components.consolidation.consolidation import (
    accepted_ops,
    apply_label,
    forgot_text,
    has_parts,
    ops_of,
    review_rows,
    review_summary,
    row_diff,
)
from memtab.consolidation.records import ConsolidationPlan, PlannedFile, PlannedOp

DIFF = "--- /memories/workspace/{0}\n+++ /memories/workspace/{0}\n@@ -1,1 +1,1 @@\n-a\n+b"


def _op(
    index: int, command: str, name: str, *, unit: int | None = None, **fields: object
) -> PlannedOp:
    path = f"/memories/workspace/{name}"
    values: dict[str, object] = {
        "index": index,
        "command": command,
        "path": path,
        "arguments": {},
        "proposed": True,
        "unit": unit,
        "description": f"{command} {name}",
        "files": (PlannedFile(path=path, diff=DIFF.format(name)),),
    }
    values.update(fields)
    return PlannedOp(**values)  # type: ignore[arg-type]


def _plan(*ops: PlannedOp, summary: str = "") -> ConsolidationPlan:
    return ConsolidationPlan(
        id="plan-x", home="/home", workspace_id="main", trigger="manual", summary=summary, ops=ops
    )


MERGE = _plan(
    _op(1, "str_replace", "testing.md", unit=1, description="Edited testing.md"),
    _op(2, "create", "new.md", description="Created new.md"),
    _op(3, "delete", "tips.md", unit=1, description="Combined tips.md into testing.md"),
    _op(4, "delete", "pinned.md", proposed=False, note="pinned", description="", files=()),
)


def test_a_unit_is_one_row_with_its_parts_and_a_refused_op_says_why() -> None:
    rows = review_rows(MERGE)
    assert [(row.apply, row.words, row.indexes, row.checkable) for row in rows] == [
        ("", "Combined tips.md into testing.md", (1, 3), True),
        ("", "Created new.md", (2,), True),
        ("refused", "delete /memories/workspace/pinned.md: pinned", (4,), False),
    ]
    assert rows[0].tooltip == "Applied together: ops 1 and 3 of the plan"
    assert rows[0].parts == (("Edited testing.md", 1), ("Combined tips.md into testing.md", 3))
    assert rows[1].parts == () and rows[1].tooltip == ""
    assert has_parts(MERGE) and not has_parts(_plan(_op(1, "create", "a.md")))


def test_the_ticked_rows_apply_their_ops_in_plan_order_to_their_files() -> None:
    assert accepted_ops([(2,), (1, 3)]) == (1, 2, 3)
    assert apply_label(MERGE, (1, 2, 3)) == "&Apply changes to 3 files"
    assert apply_label(MERGE, (2,)) == "&Apply changes to 1 file"
    assert apply_label(None, ()) == "&Apply changes to 0 files"
    assert review_summary(MERGE).startswith(
        "The consolidator proposes these changes.\nNothing has changed yet: tick the 2 changes"
    )
    assert forgot_text(3).startswith("Forgot 3 declined changes: ")
    assert forgot_text(None).startswith("Forgot 0 declined changes: ")


def test_a_rows_details_say_why_it_was_proposed_or_refused() -> None:
    proposed = row_diff(ops_of(MERGE, (1, 3)))
    assert proposed.message is None and proposed.diff is not None
    assert proposed.diff.added == 2 and proposed.diff.removed == 2
    assert proposed.reason == ""
    noted = _plan(_op(1, "create", "a.md", note="kept apart"), _op(2, "create", "b.md"))
    assert row_diff(ops_of(noted, (1,))).reason == "Why: kept apart"
    refused = row_diff(ops_of(MERGE, (4,)))
    assert refused.message == "Not proposed: pinned." and refused.diff is None
    assert ops_of(None, (1,)) == []
