"""Review before apply: a consolidation's plan, and applying the ops a user accepts."""

from __future__ import annotations

import logging
import tempfile
from collections.abc import Callable, Collection, Mapping, Sequence
from pathlib import Path
from typing import Any

from memtab.consolidation.engine.runner import RunResult, described
from memtab.consolidation.errors import PlanError
from memtab.consolidation.records import (
    MAX_PLAN_OPS,
    ConsolidationPlan,
    PlannedFile,
    PlannedOp,
    PlanUsage,
    held_back,
    numbered,
    plan_problem,
)
from memtab.fs.atomic import encode_utf8, json_document
from memtab.fs.jsonfile import JsonError, parse_json
from memtab.fs.records import RecordError
from memtab.fs.user_files import read_regular_file, write_output_file
from memtab.humanize import plural
from memtab.store.errors import MemoryStoreError
from memtab.store.history.describe import unified_diff
from memtab.store.history.records import RunOp
from memtab.store.home import Home
from memtab.store.paths import SHARED_SCOPES, PathError, Scope, VirtualPath
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.journal import RunScope, Trigger
from memtab.store.sidecars.registry import Workspace

logger = logging.getLogger(__name__)

NOT_ACCEPTED_NOTE = "not accepted in review"
MAX_PLAN_BYTES = 32 * 1024 * 1024
"""A plan file bigger than this is refused unread (a real one is a few MB at most: eight
changed files of at most 100 KiB, their diffs, and the refused attempts)."""


def write_plan(path: Path, plan: ConsolidationPlan) -> None:
    """Write the plan to the file the user named (a FIFO or `/dev/null` is written into,
    never replaced: docs/formats.md §16.1); PlanError (one line) when it cannot be."""
    try:
        write_output_file(path, encode_utf8(json_document(plan.to_json())))
    except OSError as error:
        raise PlanError(f"cannot write the plan {path}: {error.strerror or error}") from None


def read_plan(path: Path) -> ConsolidationPlan:
    """The plan in file `path`; PlanError (one line) when it is not a regular file of at
    most MAX_PLAN_BYTES holding a plan. Never blocks on a FIFO or a device, never reads
    more than the cap."""
    try:
        data = read_regular_file(path, limit=MAX_PLAN_BYTES)
    except OSError as error:
        raise PlanError(f"cannot read the plan {path}: {error.strerror or error}") from None
    try:
        return ConsolidationPlan.read_or_raise(parse_json(data))
    except JsonError as error:
        raise PlanError(f"the plan {path} is {error}") from None
    except RecordError as problem:
        raise PlanError(plan_problem(problem)) from None


# --- making a plan ---------------------------------------------------------------------------


def copy_scopes(
    store: MemoryStore,
    scratch: Home,
    only: Callable[[VirtualPath], bool] | None = None,
    scopes: Sequence[Scope] = SHARED_SCOPES,
) -> None:
    """Copy what the store sees of its scopes (of `scopes`: those a run sees) and the pins into a
    scratch home: every file and directory, or those `only` takes."""
    target = MemoryStore(scratch, store.workspace, record_history=False)
    for scope in scopes:
        if store.unavailable_reason(scope):
            continue
        listing = store.list_scope(scope, read_files=only is None)
        target.root(scope).mkdir(parents=True, exist_ok=True)
        for directory in listing.directories:
            if only is None or only(directory):
                (target.root(scope) / Path(*directory.segments)).mkdir(parents=True, exist_ok=True)
        for file in listing.files:
            if only is not None and not only(file.path):
                continue
            try:
                data = store.read_whole(file.path)
            except (MemoryStoreError, PathError) as error:
                logger.warning("The plan leaves out %s: %s", file.path, error)
                continue
            if data is not None:
                destination = target.root(scope) / Path(*file.path.segments)
                destination.parent.mkdir(parents=True, exist_ok=True)
                destination.write_bytes(data)
    if store.home.meta_path.exists():
        scratch.meta_path.write_bytes(store.home.meta_path.read_bytes())


def scratch_home() -> tempfile.TemporaryDirectory[str]:
    return tempfile.TemporaryDirectory(prefix="memtab-plan-")


def planned_ops(
    scratch: Home,
    run_ops: Sequence[RunOp],
    calls: Sequence[Mapping[str, Any]],
    read: Callable[[str], str | None] | None = None,
) -> tuple[PlannedOp, ...]:
    """The plan's ops from a run on a scratch home: each with its diffs (from the contents the
    scratch history kept, or `read` gives by sha), its words and its unit. The units are the ones
    the run's ops carry (the engine said), else read from what the ops did."""
    texts, units, words = described(scratch, run_ops, read)
    ops = []
    for index, run_op in enumerate(run_ops):
        files = tuple(
            PlannedFile(
                path=file.path,
                base_sha256=file.before_sha256,
                result_sha256=None if file.deleted else file.after_sha256,
                diff=unified_diff(
                    texts[index][file.path].before or "",
                    texts[index][file.path].after or "",
                    before_name=file.path if file.before_sha256 else "/dev/null",
                    after_name="/dev/null" if file.deleted else file.path,
                ),
            )
            for file in run_op.files
        )
        ops.append(
            PlannedOp(
                index=index + 1,
                command=run_op.command,
                path=run_op.path,
                new_path=run_op.new_path,
                arguments=dict(calls[index]) if index < len(calls) else {},
                proposed=run_op.applied,
                note=run_op.note,
                description=words[index].removeprefix("Not applied — "),
                files=files,
                unit=units[index] if run_op.applied else None,
            )
        )
    return tuple(ops)


def plan_from_run(
    *,
    plan_id: str,
    created_at: int,
    home: Home,
    scratch: Home,
    workspace: Workspace,
    trigger: Trigger,
    result: RunResult,
    provider: str,
    model: str,
    scope: RunScope | None = None,
    trace_dump: str | None = None,
) -> ConsolidationPlan:
    """The plan of a run made on a scratch copy (`scratch`) of `home`'s scopes (`scope`:
    the one it was limited to; `trace_dump`: the file name of the run's trace dump)."""
    record = result.record
    summary = record.summary if record is not None else ""
    held = sum(1 for op in result.ops if held_back(op.note))
    if held:  # said, or "Nothing to change" would not say why (formats §9.7)
        summary = (
            f"{summary} ({plural(held, 'change')} you declined before "
            f"{'is' if held == 1 else 'are'} not proposed again: `memtab declined`)"
        ).strip()
    return ConsolidationPlan(
        id=plan_id,
        created_at=created_at,
        home=str(home.root),
        workspace_id=workspace.id,
        trigger=trigger,
        summary=summary,
        ops=_within_cap(planned_ops(scratch, result.run_ops, result.calls)),
        provider=provider,
        model=model,
        usage=PlanUsage(
            input_tokens=record.input_tokens if record is not None else None,
            output_tokens=record.output_tokens if record is not None else None,
        ),
        scope=scope,
        trace_dump=trace_dump,
    )


def _within_cap(ops: tuple[PlannedOp, ...]) -> tuple[PlannedOp, ...]:
    """At most MAX_PLAN_OPS ops, so the plan can be read back: every proposed op, then
    the first refused attempts (a model that keeps failing may make thousands)."""
    if len(ops) <= MAX_PLAN_OPS:
        return ops
    room = MAX_PLAN_OPS - sum(1 for op in ops if op.proposed)
    kept = []
    for op in ops:
        if op.proposed or room > 0:
            room -= 0 if op.proposed else 1
            kept.append(op)
    logger.warning("The plan keeps %d of %d refused attempts", MAX_PLAN_OPS, len(ops))
    return tuple(op.replaced(index=number) for number, op in enumerate(kept, 1))


# --- checking what is accepted ---------------------------------------------------------------


def check_plan(plan: ConsolidationPlan, home: Home, accepted: Collection[int]) -> None:
    """PlanError when the plan is for another home, `accepted` names no proposed op, or
    takes part of a unit without the rest (naming the unit)."""
    if Path(plan.home).resolve() != home.root.resolve():
        raise PlanError(f"the plan was made for the memory home {plan.home}, not {home.root}")
    proposed = {op.index for op in plan.proposed}
    unknown = sorted(set(accepted) - proposed)
    if unknown:
        listed = ", ".join(str(index) for index in sorted(proposed)) or "none"
        raise PlanError(
            f"op {', '.join(map(str, unknown))} is not a proposed op of the plan "
            f"(proposed: {listed})"
        )
    for unit in plan.units:
        taken = [index for index in unit.indexes if index in accepted]
        if taken and len(taken) < len(unit.indexes):
            left = [index for index in unit.indexes if index not in accepted]
            raise PlanError(
                f"{numbered(taken)} {'is' if len(taken) == 1 else 'are'} part of "
                f"“{unit.description}” ({unit.numbers()}), which is applied whole or not "
                f"at all: accept {numbered(left)} too, or leave out {numbered(taken)}"
            )
