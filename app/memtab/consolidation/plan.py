"""Review before apply: a consolidation's plan, and applying the ops a user accepts.

`build_plan` runs the consolidator for real against a scratch copy of the workspace's
three scopes (and its pins), so each op sees the effects of the ones before it and its
diff is exact; the real home is not touched. The plan lists each mutation attempt with
its tool call, whether the guard let it through, and for each file it changes the
content it expects (`baseSha256`) and the diff.

Ops that cannot be taken without each other are one *unit* (`PlanUnit`): a merge's
edit and the delete of the file it merged (the delete alone would lose the lines the
edit carries), ops that change one file. The engine that knows says which (the offline
consolidator names its merges); a model's ops are grouped by what they did
(`history.describe.op_units`). A review accepts or leaves whole units.

Applying (`plan_apply.apply_ops`) first checks that every op does what the plan shows
(`plan_check.check_ops`), then replays the accepted ops on the real scopes. The caller
(`ConsolidationService.apply_plan`) holds the run lock and journals the result like any
run.

A plan is JSON (`memtab consolidate --plan-out FILE`, `--apply-plan FILE`), read only
from a regular file of at most `MAX_PLAN_BYTES` holding at most `MAX_PLAN_OPS` ops.

The setting `consolidation.review` in Memtab's settings.json chooses what "Consolidate
now" does: `review-first` (the default) or `apply-directly`.
"""

from __future__ import annotations

import logging
import os
import stat
import tempfile
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from memtab.consolidation.errors import ConsolidationError
from memtab.consolidation.runner import RunResult
from memtab.fs.atomic import atomic_write_json
from memtab.fs.jsonfile import JsonError, parse_json
from memtab.store.errors import MemoryStoreError
from memtab.store.free_text import MAX_NOTE_BYTES, MAX_SUMMARY_BYTES, cap_optional, cap_text
from memtab.store.history.describe import describe_ops, op_texts, op_units, unified_diff
from memtab.store.history.records import RunOp
from memtab.store.home import Home
from memtab.store.journal import TRIGGERS, Trigger, is_trigger
from memtab.store.memory import MemoryStore
from memtab.store.paths import SCOPE_ORDER, PathError, VirtualPath
from memtab.store.registry import Workspace

logger = logging.getLogger(__name__)

PLAN_KIND = "memtab-consolidation-plan"
PLAN_VERSION = 1
NOT_ACCEPTED_NOTE = "not accepted in review"
MAX_PLAN_BYTES = 32 * 1024 * 1024
"""A plan file bigger than this is refused unread (a real one is a few MB at most: eight
changed files of at most 100 KiB, their diffs, and the refused attempts)."""
MAX_PLAN_OPS = 1000
"""A plan holds at most this many ops (eight applied ones, the rest refused attempts)."""


class PlanError(ConsolidationError):
    """A plan file that cannot be used (unreadable, another home, malformed, altered)."""


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
    """One mutation attempt of the plan (`index` from 1, as the user accepts them).
    `unit`: the unit a proposed op belongs to (None: it stands alone)."""

    index: int
    command: str
    path: str
    arguments: dict[str, Any]
    proposed: bool
    new_path: str | None = None
    note: str | None = None
    description: str = ""
    files: tuple[PlannedFile, ...] = ()
    unit: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "command": self.command,
            "path": self.path,
            "newPath": self.new_path,
            "proposed": self.proposed,
            "unit": self.unit,
            "note": self.note,
            "description": self.description,
            "arguments": self.arguments,
            "files": [file.to_json() for file in self.files],
        }


@dataclass(frozen=True)
class PlanUnit:
    """Proposed ops taken or left together (see the module doc), in plan order."""

    ops: tuple[PlannedOp, ...]

    @property
    def indexes(self) -> tuple[int, ...]:
        return tuple(op.index for op in self.ops)

    @property
    def description(self) -> str:
        """What the unit does: its deletes in words (a merge reads "Merged a.md into
        b.md"), else its ops' words."""
        deletes = [op.description for op in self.ops if op.command == "delete"]
        return join_words(deletes or [op.description for op in self.ops])

    def numbers(self) -> str:
        """`ops 1 and 4`, `op 2`."""
        return _numbered(self.indexes)


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

    @property
    def units(self) -> tuple[PlanUnit, ...]:
        """The proposed ops in units, in the order of each unit's first op."""
        grouped: dict[object, list[PlannedOp]] = {}
        for op in self.proposed:
            key: object = op.unit if op.unit is not None else ("alone", op.index)
            grouped.setdefault(key, []).append(op)
        return tuple(PlanUnit(tuple(ops)) for ops in grouped.values())

    def unit_of(self, index: int) -> PlanUnit | None:
        """The unit of proposed op number `index` (None: not a proposed op)."""
        return next((unit for unit in self.units if index in unit.indexes), None)

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
    if len(raw_ops) > MAX_PLAN_OPS:
        raise PlanError(
            f"the plan holds {len(raw_ops):,} ops; a plan holds at most {MAX_PLAN_OPS:,}"
        )
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
        summary=cap_text(_text(raw, "summary", optional=True) or "", MAX_SUMMARY_BYTES),
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
    unit = raw.get("unit")
    if unit is not None and (isinstance(unit, bool) or not isinstance(unit, int) or unit < 1):
        raise PlanError(f"op {number} of the plan has a malformed unit {unit!r}")
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
        note=cap_optional(_text(raw, "note", optional=True), MAX_NOTE_BYTES),
        description=cap_text(_text(raw, "description", optional=True) or "", MAX_NOTE_BYTES),
        files=tuple(planned_files),
        unit=unit if raw.get("proposed") is True else None,
    )


def write_plan(path: Path, plan: ConsolidationPlan) -> None:
    atomic_write_json(path, plan.to_json())


def read_plan(path: Path) -> ConsolidationPlan:
    """The plan in file `path`; PlanError (one line) when it is not a regular file of at
    most MAX_PLAN_BYTES holding a plan. Never blocks on a FIFO or a device, never reads
    more than the cap."""
    try:
        data = _read_capped(path)
    except OSError as error:
        raise PlanError(f"cannot read the plan {path}: {error.strerror or error}") from None
    try:
        return plan_from_json(parse_json(data))
    except JsonError as error:
        raise PlanError(f"the plan {path} is {error}") from None


def _read_capped(path: Path) -> bytes:
    # Opened without blocking (a FIFO with no writer would wait forever), then checked
    # to be a regular file before a byte is read.
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    descriptor = os.open(path, flags)
    try:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode):
            raise PlanError(f"the plan {path} is not a regular file")
        if info.st_size > MAX_PLAN_BYTES:
            raise PlanError(
                f"the plan {path} is {info.st_size:,} bytes; a plan is at most {MAX_PLAN_BYTES:,}"
            )
        chunks: list[bytes] = []
        size = 0
        while size <= MAX_PLAN_BYTES:  # the file may grow after the stat
            chunk = os.read(descriptor, min(1 << 20, MAX_PLAN_BYTES + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > MAX_PLAN_BYTES:
            raise PlanError(f"the plan {path} is over {MAX_PLAN_BYTES:,} bytes")
        return b"".join(chunks)
    finally:
        os.close(descriptor)


# --- making a plan ---------------------------------------------------------------------------


def copy_scopes(
    store: MemoryStore,
    scratch: Home,
    only: Callable[[VirtualPath], bool] | None = None,
) -> None:
    """Copy what the store sees of its scopes (and the pins) into a scratch home: every
    file and directory, or those `only` takes.

    Only files the store can read are copied (no links, no hard-linked files); an
    unreadable one is left out of the plan, which then cannot touch it.
    """
    target = MemoryStore(scratch, store.workspace, record_history=False)
    for scope in SCOPE_ORDER:
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


def planned_ops(
    scratch: Home,
    run_ops: Sequence[RunOp],
    calls: Sequence[Mapping[str, Any]],
    read: Callable[[str], str | None] | None = None,
) -> tuple[PlannedOp, ...]:
    """The plan's ops from a run on a scratch home: each with its diffs (from the
    contents the scratch history kept, or `read` gives by sha), its words and its unit.
    The units are the ones the run's ops carry (the engine said), else read from what the
    ops did."""
    texts = [op_texts(scratch, op, read) for op in run_ops]
    units: Sequence[int | None] = [op.unit for op in run_ops]
    if not any(unit is not None for unit in units):
        units = op_units(run_ops, texts)
    words = describe_ops(run_ops, texts, units)
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
) -> ConsolidationPlan:
    """The plan of a run made on a scratch copy (`scratch`) of `home`'s scopes."""
    record = result.record
    return ConsolidationPlan(
        id=plan_id,
        created_at=created_at,
        home=str(home.root),
        workspace_id=workspace.id,
        trigger=trigger,
        summary=record.summary if record is not None else "",
        ops=_within_cap(planned_ops(scratch, result.run_ops, result.calls)),
        provider=provider,
        model=model,
        input_tokens=record.input_tokens if record is not None else None,
        output_tokens=record.output_tokens if record is not None else None,
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
    return tuple(replace(op, index=number) for number, op in enumerate(kept, 1))


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
                f"{_numbered(taken)} {'is' if len(taken) == 1 else 'are'} part of "
                f"“{unit.description}” ({unit.numbers()}), which is applied whole or not "
                f"at all: accept {_numbered(left)} too, or leave out {_numbered(taken)}"
            )


def join_words(parts: Sequence[str]) -> str:
    """Ops' words as one phrase: `Merged a.md into b.md; removed 1 line from c.md`."""
    return "; ".join(
        part[:1].lower() + part[1:] if n and part[1:2].islower() else part
        for n, part in enumerate(parts)
    )


def _numbered(indexes: Sequence[int]) -> str:
    """`op 1`, `ops 1 and 4`."""
    listed = [str(index) for index in indexes]
    if len(listed) == 1:
        return f"op {listed[0]}"
    return f"ops {', '.join(listed[:-1])} and {listed[-1]}"
