"""Review before apply: a consolidation's plan, and applying the ops a user accepts.

`build_plan` runs the consolidator for real against a scratch copy of the workspace's
three scopes (and its pins), so each op sees the effects of the ones before it and its
diff is exact; the real home is not touched. The plan lists each mutation attempt with
its tool call, whether the guard let it through, and for each file it changes the
content it expects (`baseSha256`) and the diff.

`apply_plan` replays the accepted ops' tool calls on the real scopes through the same
guard and budget, in plan order: an op whose files no longer hold what the plan
expected (changed since, or an earlier op was not accepted) is refused with a note,
never applied to something else. The caller (`ConsolidationService.apply_plan`) holds
the run lock and journals the result like any run.

A plan is JSON (`memtab consolidate --plan-out FILE`, `--apply-plan FILE`).

The setting `consolidation.review` in Memtab's settings.json chooses what "Consolidate
now" does: `review-first` (the default) or `apply-directly`.
"""

from __future__ import annotations

import logging
import tempfile
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from memtab.consolidation.errors import ConsolidationError
from memtab.consolidation.guard import ConsolidationGuard, MutationBudget
from memtab.consolidation.offline import REASON_ARGUMENT
from memtab.consolidation.run_store import RunStore
from memtab.consolidation.runner import RunResult
from memtab.fs.atomic import atomic_write_json
from memtab.fs.jsonfile import JsonError, parse_json
from memtab.store.errors import MemoryStoreError
from memtab.store.history.blobs import sha256_of
from memtab.store.history.describe import describe_op, merge_targets, op_texts, unified_diff
from memtab.store.history.recorder import RecordedChange
from memtab.store.history.runs import RunOp
from memtab.store.home import Home
from memtab.store.journal import TRIGGERS, JournalOp, Trigger, is_trigger
from memtab.store.memory import MemoryStore
from memtab.store.paths import SCOPE_ORDER, PathError
from memtab.store.registry import Workspace

logger = logging.getLogger(__name__)

PLAN_KIND = "memtab-consolidation-plan"
PLAN_VERSION = 1
NOT_ACCEPTED_NOTE = "not accepted in review"


class PlanError(ConsolidationError):
    """A plan file that cannot be used (unreadable, another home, malformed)."""


# --- the plan ------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlannedFile:
    """A file an op changes: what it must hold first (None: no file), and the change."""

    path: str
    base_sha256: str | None
    result_sha256: str | None
    diff: str

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "baseSha256": self.base_sha256,
            "resultSha256": self.result_sha256,
            "diff": self.diff,
        }


@dataclass(frozen=True)
class PlannedOp:
    """One mutation attempt of the plan (`index` from 1, as the user accepts them)."""

    index: int
    command: str
    path: str
    arguments: dict[str, Any]
    proposed: bool
    new_path: str | None = None
    note: str | None = None
    description: str = ""
    files: tuple[PlannedFile, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "command": self.command,
            "path": self.path,
            "newPath": self.new_path,
            "proposed": self.proposed,
            "note": self.note,
            "description": self.description,
            "arguments": self.arguments,
            "files": [file.to_json() for file in self.files],
        }


@dataclass(frozen=True)
class ConsolidationPlan:
    """What a consolidation would do, op by op (see the module doc)."""

    id: str
    created_at: int
    home: str
    workspace_id: str
    trigger: Trigger
    summary: str
    ops: tuple[PlannedOp, ...] = ()
    provider: str | None = None
    model: str | None = None
    input_tokens: int | None = None
    output_tokens: int | None = None
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def proposed(self) -> tuple[PlannedOp, ...]:
        """The ops the guard let through: the ones a user may accept."""
        return tuple(op for op in self.ops if op.proposed)

    def to_json(self) -> dict[str, Any]:
        return {
            **self.extra,
            "kind": PLAN_KIND,
            "version": PLAN_VERSION,
            "id": self.id,
            "createdAt": self.created_at,
            "home": self.home,
            "workspaceId": self.workspace_id,
            "trigger": self.trigger,
            "provider": self.provider,
            "model": self.model,
            "summary": self.summary,
            "usage": {"inputTokens": self.input_tokens, "outputTokens": self.output_tokens},
            "ops": [op.to_json() for op in self.ops],
        }


def _text(raw: Mapping[str, Any], name: str, *, optional: bool = False) -> Any:
    value = raw.get(name)
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise PlanError(f"the plan's `{name}` is missing or not text")
    return value


def _trigger(raw: Mapping[str, Any]) -> Trigger:
    value = _text(raw, "trigger")
    if not is_trigger(value):  # it would be journaled: mux's journal takes only these
        raise PlanError(f"the plan's trigger {value!r} is not one of {', '.join(TRIGGERS)}")
    return value


def plan_from_json(raw: Any) -> ConsolidationPlan:
    """A plan from its JSON; PlanError saying what is wrong."""
    if not isinstance(raw, dict) or raw.get("kind") != PLAN_KIND:
        raise PlanError("this is not a Memtab consolidation plan")
    if raw.get("version") != PLAN_VERSION:
        raise PlanError(f"plan version {raw.get('version')!r} is not supported")
    raw_ops = raw.get("ops")
    if not isinstance(raw_ops, list):
        raise PlanError("the plan has no list of ops")
    ops = [_op_from_json(op, number) for number, op in enumerate(raw_ops, 1)]
    created, usage = raw.get("createdAt"), raw.get("usage")
    usage = usage if isinstance(usage, dict) else {}
    known = {"kind", "version", "id", "createdAt", "home", "workspaceId", "trigger"}
    known |= {"provider", "model", "summary", "usage", "ops"}
    return ConsolidationPlan(
        id=_text(raw, "id"),
        created_at=created if isinstance(created, int) and not isinstance(created, bool) else 0,
        home=_text(raw, "home"),
        workspace_id=_text(raw, "workspaceId"),
        trigger=_trigger(raw),
        summary=_text(raw, "summary", optional=True) or "",
        ops=tuple(ops),
        provider=_text(raw, "provider", optional=True),
        model=_text(raw, "model", optional=True),
        input_tokens=_count(usage.get("inputTokens")),
        output_tokens=_count(usage.get("outputTokens")),
        extra={key: value for key, value in raw.items() if key not in known},
    )


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _op_from_json(raw: Any, number: int) -> PlannedOp:
    if not isinstance(raw, dict):
        raise PlanError(f"op {number} of the plan is not an object")
    arguments, files = raw.get("arguments"), raw.get("files")
    if not isinstance(arguments, dict) or not isinstance(files, list):
        raise PlanError(f"op {number} of the plan has no arguments or files")
    index = raw.get("index")
    if index != number:
        raise PlanError(f"op {number} of the plan is numbered {index!r}")
    planned_files = []
    for item in files:
        if not isinstance(item, dict):
            raise PlanError(f"op {number} of the plan has a malformed file")
        planned_files.append(
            PlannedFile(
                path=_text(item, "path"),
                base_sha256=_text(item, "baseSha256", optional=True),
                result_sha256=_text(item, "resultSha256", optional=True),
                diff=_text(item, "diff", optional=True) or "",
            )
        )
    return PlannedOp(
        index=number,
        command=_text(raw, "command"),
        path=_text(raw, "path"),
        arguments=arguments,
        proposed=raw.get("proposed") is True,
        new_path=_text(raw, "newPath", optional=True),
        note=_text(raw, "note", optional=True),
        description=_text(raw, "description", optional=True) or "",
        files=tuple(planned_files),
    )


def write_plan(path: Path, plan: ConsolidationPlan) -> None:
    atomic_write_json(path, plan.to_json())


def read_plan(path: Path) -> ConsolidationPlan:
    try:
        return plan_from_json(parse_json(path.read_bytes()))
    except OSError as error:
        raise PlanError(f"cannot read the plan {path}: {error.strerror or error}") from None
    except JsonError as error:
        raise PlanError(f"the plan {path} is {error}") from None


# --- making a plan ---------------------------------------------------------------------------


def copy_scopes(store: MemoryStore, scratch: Home) -> None:
    """Copy what the store sees of its scopes (and the pins) into a scratch home.

    Only files the store can read are copied (no links, no hard-linked files); an
    unreadable one is left out of the plan, which then cannot touch it.
    """
    target = MemoryStore(scratch, store.workspace, record_history=False)
    for scope in SCOPE_ORDER:
        if store.unavailable_reason(scope):
            continue
        listing = store.list_scope(scope)
        target.root(scope).mkdir(parents=True, exist_ok=True)
        for directory in listing.directories:
            (target.root(scope) / Path(*directory.segments)).mkdir(parents=True, exist_ok=True)
        for file in listing.files:
            try:
                data = store.read_whole(str(file.path))
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
) -> ConsolidationPlan:
    """The plan of a run made on a scratch copy (`scratch`) of `home`'s scopes."""
    texts = [op_texts(scratch, op) for op in result.run_ops]
    merges = merge_targets(result.run_ops, texts)
    ops = []
    for index, run_op in enumerate(result.run_ops):
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
                arguments=result.calls[index] if index < len(result.calls) else {},
                proposed=run_op.applied,
                note=run_op.note,
                description=describe_op(
                    run_op, texts[index], merged_into=merges.get(index)
                ).removeprefix("Not applied — "),
                files=files,
            )
        )
    record = result.record
    return ConsolidationPlan(
        id=plan_id,
        created_at=created_at,
        home=str(home.root),
        workspace_id=workspace.id,
        trigger=trigger,
        summary=record.summary if record is not None else "",
        ops=tuple(ops),
        provider=provider,
        model=model,
        input_tokens=record.input_tokens if record is not None else None,
        output_tokens=record.output_tokens if record is not None else None,
    )


# --- applying a plan -------------------------------------------------------------------------


@dataclass(frozen=True)
class AppliedOps:
    """What applying a plan did: every op as journaled, with its versions."""

    ops: tuple[JournalOp, ...]
    run_ops: tuple[RunOp, ...]


def check_plan(plan: ConsolidationPlan, home: Home, accepted: Collection[int]) -> None:
    """PlanError when the plan is for another home, or `accepted` names no proposed op."""
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


def apply_ops(
    store: RunStore, plan: ConsolidationPlan, accepted: Collection[int], *, budget: int
) -> AppliedOps:
    """Replay the accepted ops on the real scopes, in plan order (see the module doc)."""
    guard = ConsolidationGuard(store, budget=MutationBudget(budget))
    ops: list[JournalOp] = []
    run_ops: list[RunOp] = []
    for planned in plan.ops:
        note: str | None = None
        if not planned.proposed:
            note = planned.note or "refused when the plan was made"
        elif planned.index not in accepted:
            note = NOT_ACCEPTED_NOTE
        else:
            note = _base_problem(store, planned)
        if note is not None:
            op = JournalOp(planned.command, planned.path, False, planned.new_path, note)
            ops.append(op)
            run_ops.append(RunOp.from_journal(op))
            continue
        changes: list[RecordedChange] = []
        ops_before = len(guard.ops)
        with store.collecting_changes() as collected:
            guard.execute(planned.arguments)
            changes = list(collected)
        if len(guard.ops) > ops_before:
            op = guard.ops[-1]
            reason = planned.arguments.get(REASON_ARGUMENT)
            if op.applied and op.note is None and isinstance(reason, str) and reason.strip():
                op = replace(op, note=" ".join(reason.split()))  # as a direct run notes it
        else:  # the arguments did not even parse: nothing was attempted
            op = JournalOp(planned.command, planned.path, False, planned.new_path, "invalid call")
        ops.append(op)
        run_ops.append(RunOp.from_journal(op, changes))
    return AppliedOps(tuple(ops), tuple(run_ops))


def _base_problem(store: MemoryStore, planned: PlannedOp) -> str | None:
    """Why an op's files are not what the plan expected, or None."""
    for file in planned.files:
        try:
            current = store.read_whole(file.path)
        except (MemoryStoreError, PathError) as error:
            return f"cannot check {file.path}: {error}"
        current_sha = sha256_of(current) if current is not None else None
        if current_sha != file.base_sha256:
            if file.base_sha256 is None:
                return f"{file.path} exists now; the plan expected no file there"
            if current is None:
                return f"{file.path} no longer exists"
            return f"{file.path} changed since the plan was made"
    return None
