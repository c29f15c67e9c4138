"""Review before apply without Qt: what the review of a consolidation plan lists and says.

One row per unit of the plan (ops taken or left together: a merge's edit and the delete
of the merged file, its parts listed under it), a greyed row per op the rails refused
with why; the dialog's summary and title, the Apply button's words, what the diff pane
shows for a row (why the consolidator proposes it, or why it was not proposed), and what
Forget declined changes did. `gui/consolidation/review_dialog.py` builds the rows' items
and ticks; the plan is `consolidation.records`' (components name the fields they read).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from memtab import humanize
from memtab.components.history.diff import join_diffs
from memtab.components.text_diff import DiffResult


class PlannedFileView(Protocol):
    @property
    def diff(self) -> str: ...


class PlannedOpView(Protocol):
    """One op of the plan (`consolidation.records.PlannedOp`)."""

    @property
    def index(self) -> int: ...
    @property
    def command(self) -> str: ...
    @property
    def path(self) -> str: ...
    @property
    def proposed(self) -> bool: ...
    @property
    def note(self) -> str | None: ...
    @property
    def description(self) -> str: ...
    @property
    def files(self) -> Sequence[PlannedFileView]: ...


class PlanUnitView(Protocol):
    """Proposed ops taken or left together (`consolidation.records.PlanUnit`)."""

    @property
    def ops(self) -> Sequence[PlannedOpView]: ...
    @property
    def indexes(self) -> tuple[int, ...]: ...
    @property
    def description(self) -> str: ...
    def numbers(self) -> str: ...


class PlanView(Protocol):
    """A consolidation plan (`consolidation.records.ConsolidationPlan`)."""

    @property
    def summary(self) -> str: ...
    @property
    def ops(self) -> Sequence[PlannedOpView]: ...
    @property
    def units(self) -> Sequence[PlanUnitView]: ...
    @property
    def held_back_count(self) -> int: ...
    def files_changed(self, accepted: Collection[int] | None = None) -> int: ...


@dataclass(frozen=True)
class ReviewRow:
    """A row of the review: its Apply cell and words, the op numbers it stands for, its
    tooltip (the parts applied together), whether it can be ticked (a unit; a refused op
    cannot) and its parts, each (words, op number)."""

    apply: str
    words: str
    indexes: tuple[int, ...]
    checkable: bool
    tooltip: str = ""
    parts: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class RowDiff:
    """What the details show for a row: why it was proposed ("" when no reason), and a
    message instead of its diff (None: the diff)."""

    reason: str
    message: str | None
    diff: DiffResult | None = None


def review_title(workspace_name: str) -> str:
    return f"Review consolidation — {humanize.short_name(workspace_name)}"


def review_summary(plan: PlanView) -> str:
    """What the plan proposes, and that nothing has changed yet."""
    proposed = len(plan.units)
    return (
        f"{plan.summary or 'The consolidator proposes these changes.'}\n"
        f"Nothing has changed yet: tick the {humanize.plural(proposed, 'change')} to "
        "apply. Each goes through the same rails as any run."
    )


def review_rows(plan: PlanView) -> list[ReviewRow]:
    """The plan's rows, in the order of each unit's first op and each refused op."""
    units = {unit.indexes[0]: unit for unit in plan.units}
    rows = []
    for op in plan.ops:
        unit = units.get(op.index)
        if unit is not None:
            several = len(unit.ops) > 1
            rows.append(
                ReviewRow(
                    "",
                    unit.description,
                    unit.indexes,
                    checkable=True,
                    tooltip=f"Applied together: {unit.numbers()} of the plan" if several else "",
                    parts=tuple((part.description or part.command, part.index) for part in unit.ops)
                    if several
                    else (),
                )
            )
        elif not op.proposed:
            words = op.description or f"{op.command} {op.path}"
            rows.append(
                ReviewRow("refused", f"{words}: {op.note or 'refused'}", (op.index,), False)
            )
        # else: a later part of a unit, listed under its row
    return rows


def has_parts(plan: PlanView) -> bool:
    """Whether some row has parts under it (the list shows its branches)."""
    return any(len(unit.ops) > 1 for unit in plan.units)


def accepted_ops(ticked: Iterable[Sequence[int]]) -> tuple[int, ...]:
    """The op numbers of the ticked rows, in plan order."""
    return tuple(sorted(index for indexes in ticked for index in indexes))


def apply_label(plan: PlanView | None, accepted: Collection[int]) -> str:
    """The Apply button's words: how many files the ticked changes change."""
    files = plan.files_changed(accepted) if plan is not None else 0
    return f"&Apply changes to {humanize.plural(files, 'file')}"


def ops_of(plan: PlanView | None, indexes: Collection[int]) -> list[PlannedOpView]:
    """The plan's ops a row stands for."""
    if plan is None:
        return []
    return [op for op in plan.ops if op.index in indexes]


def row_diff(ops: Sequence[PlannedOpView]) -> RowDiff:
    """What the details show for a row's ops (at least one)."""
    reasons = [op.note for op in ops if op.proposed and op.note]
    reason = "Why: " + " ".join(dict.fromkeys(reasons)) if reasons else ""
    if not ops[0].proposed or not any(op.files for op in ops):
        return RowDiff(reason, f"Not proposed: {ops[0].note or 'the rails refused it'}.")
    return RowDiff(reason, None, join_diffs(file.diff for op in ops for file in op.files))


def forgot_text(forgotten: object) -> str:
    """What Forget declined changes did."""
    count = forgotten if isinstance(forgotten, int) else 0
    return (
        f"Forgot {humanize.plural(count, 'declined change')}: "
        "the next Consolidate now may propose them again."
    )
