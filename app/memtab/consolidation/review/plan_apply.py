"""Applying the ops of a checked plan a user accepted (docs/formats.md §9.4). `apply_ops` replays
the accepted ops' tool calls on the real scopes through the guard and budget of a run, in plan
order, after `plan_check.check_ops` found that each does what the plan shows."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from memtab.consolidation.engine.run_books import RunStore
from memtab.consolidation.engine.runner import NO_CHANGES_SUMMARY
from memtab.consolidation.guard import (
    BeforeDispatch,
    ConsolidationGuard,
    MutationBudget,
    run_scopes,
)
from memtab.consolidation.offline.provider import REASON_ARGUMENT
from memtab.consolidation.records import ConsolidationPlan, PlannedOp, join_words
from memtab.consolidation.review.plan import NOT_ACCEPTED_NOTE
from memtab.consolidation.review.plan_check import (
    INVALID_CALL_NOTE,
    CheckedPlan,
    LineHolders,
    base_problem,
    deleted_paths,
)
from memtab.humanize import plural
from memtab.store.history.recorder import RecordedChange
from memtab.store.history.records import RunOp
from memtab.store.sidecars.journal import JournalOp

REFUSED_WHEN_PLANNED_NOTE = "refused when the plan was made"


@dataclass(frozen=True)
class AppliedOps:
    """What applying a plan did: every op as journaled, why it stopped early (None: it did not)"""

    ops: tuple[JournalOp, ...]
    run_ops: tuple[RunOp, ...]
    stopped: str | None = None
    stopped_at: int | None = None
    """The op the run stopped at."""

    @property
    def applied_count(self) -> int:
        return sum(1 for op in self.ops if op.applied)


def apply_ops(
    store: RunStore,
    plan: ConsolidationPlan,
    accepted: Collection[int],
    checked: CheckedPlan,
    *,
    budget: int,
    before_dispatch: BeforeDispatch | None = None,
) -> AppliedOps:
    """Replay the accepted ops on the real scopes, in plan order (see the module doc);
    `before_dispatch` is told each change right before it is made."""
    guard = ConsolidationGuard(
        store,
        budget=MutationBudget(budget),
        before_dispatch=before_dispatch,
        scopes=run_scopes(plan.scope),
    )
    holders = checked.holders.copy()
    failed_units: dict[tuple[int, ...], int] = {}  # unit → the op of it not applied
    ops: list[JournalOp] = []
    run_ops: list[RunOp] = []
    stopped: str | None = None
    stopped_at: int | None = None
    for planned in plan.ops:
        unit = plan.unit_of(planned.index)
        key = unit.indexes if unit is not None else (planned.index,)
        note = _not_applied(planned, plan, accepted, checked, stopped, failed_units.get(key))
        if note is None:
            note = base_problem(store, planned) or _lost_lines(planned, checked, holders)
        if note is not None:
            op = _refused(planned, note)
            ops.append(op)
            run_ops.append(RunOp.from_journal(op, unit=planned.unit))
            if planned.index in accepted:
                failed_units.setdefault(key, planned.index)
            continue
        op, changes = _execute(guard, store, planned)
        ops.append(op)
        run_ops.append(RunOp.from_journal(op, changes, unit=planned.unit))
        for change in changes:
            holders.read(store, change.path)
        if not op.applied:  # it did what the plan shows on the check's copy: not here
            failed_units.setdefault(key, planned.index)
            stopped = f"op {planned.index} ({planned.description}) failed: {op.note}"
            stopped_at = planned.index
    return AppliedOps(tuple(ops), tuple(run_ops), stopped, stopped_at)


def _not_applied(
    planned: PlannedOp,
    plan: ConsolidationPlan,
    accepted: Collection[int],
    checked: CheckedPlan,
    stopped: str | None,
    failed_in_unit: int | None,
) -> str | None:
    """Why the op is not even tried, or None."""
    if not planned.proposed:
        return planned.note or REFUSED_WHEN_PLANNED_NOTE
    if planned.index not in accepted:
        return NOT_ACCEPTED_NOTE
    if stopped is not None:
        return f"not attempted: the run stopped after {stopped}"
    if planned.index in checked.unchecked:
        return checked.unchecked[planned.index]
    if failed_in_unit is not None:
        unit = plan.unit_of(planned.index)
        what = f" of “{unit.description}”" if unit is not None else ""
        return f"op {failed_in_unit}{what} was not applied, and this one goes with it"
    return None


def _lost_lines(planned: PlannedOp, checked: CheckedPlan, holders: LineHolders) -> str | None:
    """For a delete: why it would lose lines the plan keeps in other files, or None."""
    if planned.command != "delete" or planned.index not in checked.kept_elsewhere:
        return None
    kept = checked.kept_elsewhere[planned.index]
    missing = kept - holders.elsewhere(kept, excluding=deleted_paths(planned))
    if not missing:
        return None
    example = min(missing)
    them = "it" if len(missing) == 1 else "them"
    return (
        f"{plural(len(missing), 'line')} of what it deletes would be left in no memory file "
        f"(“{example}”): the plan keeps {them} in another file, but no other file holds "
        f"{them} now"
    )


def _execute(
    guard: ConsolidationGuard, store: RunStore, planned: PlannedOp
) -> tuple[JournalOp, list[RecordedChange]]:
    """Run the op's call through the guard: the op as journaled and what it changed."""
    attempts = len(guard.ops)
    with store.collecting_changes() as collected:
        guard.execute(planned.arguments)
        changes = list(collected)
    if len(guard.ops) == attempts:  # the arguments did not even parse: nothing attempted
        return _refused(planned, INVALID_CALL_NOTE), changes
    op = guard.ops[-1]
    reason = planned.arguments.get(REASON_ARGUMENT)
    if op.applied and op.note is None and isinstance(reason, str) and reason.strip():
        op = op.replaced(note=" ".join(reason.split()))  # as a direct run notes it
    return op, changes


def applied_summary(plan: ConsolidationPlan, applied: AppliedOps) -> str:
    """What applying the plan did, in words — only what was applied, then what was not
    and why (the journal's summary: the plan's own summary told what it proposed)."""
    done = {planned.index for planned, op in zip(plan.ops, applied.ops, strict=True) if op.applied}
    notes = {planned.index: op.note for planned, op in zip(plan.ops, applied.ops, strict=True)}
    parts: list[str] = []
    left_out = refused = unattempted = 0
    first_refusal: str | None = None
    for unit in plan.units:
        taken = [index for index in unit.indexes if index in done]
        if len(taken) == len(unit.indexes):
            parts.append(unit.description)
            continue
        parts.extend(plan.ops[index - 1].description for index in taken)
        note = next((notes[i] or "" for i in unit.indexes if i not in done), "")
        if applied.stopped_at in unit.indexes:
            continue  # said with the stop
        if note == NOT_ACCEPTED_NOTE:
            left_out += 1
        elif note.startswith("not attempted"):
            unattempted += 1
        else:
            refused += 1
            first_refusal = first_refusal or note
    if not plan.proposed:
        return plan.summary or NO_CHANGES_SUMMARY
    text = f"{join_words(parts)}." if parts else "Nothing applied."
    if left_out:
        text += f" Not accepted in review: {plural(left_out, 'change')}."
    if refused:
        why = f" ({first_refusal})" if first_refusal else ""
        text += f" Not applied: {plural(refused, 'change')}{why}."
    if applied.stopped is not None:
        text += f" Stopped: {applied.stopped}"
        text += f"; {plural(unattempted, 'change')} not attempted." if unattempted else "."
    return text


def _refused(planned: PlannedOp, note: str) -> JournalOp:
    """The op as journaled when it is not applied: its command and paths, and why."""
    command, path, new_path = planned.command, planned.path, planned.new_path
    return JournalOp(command=command, path=path, applied=False, new_path=new_path, note=note)
