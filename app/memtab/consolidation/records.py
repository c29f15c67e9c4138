"""Consolidation's records (`memtab.fs.records`): the plan file (docs/formats.md §9.4).
`ConsolidationPlan` is the file `memtab consolidate --plan-out` writes and `--apply-plan` reads
(`plan.read_plan`/`write_plan`), with its `PlannedOp`s and each op's `PlannedFile`s; and the
request of a window's run (`ConsolidationRequest`), passed whole to the child that runs it."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Annotated, Any

from memtab.fs.records import AtLeast, Checked, Healed, Lenient, OmitNone, Record, TrueOnly, field
from memtab.fs.records.codec import MISSING, RecordError
from memtab.store.sidecars.journal import TRIGGERS, RunScope, Trigger, changed_files
from memtab.store.text.free_text import MAX_NOTE_BYTES, MAX_SUMMARY_BYTES, cap_text

DECLINED_NOTE = "declined in review"
"""How the note of a call refused as declined in an earlier review starts (§9.7)."""


def held_back(note: str | None) -> bool:
    """Whether an op's note says it was refused as declined in an earlier review."""
    return (note or "").startswith(DECLINED_NOTE)


PLAN_KIND = "memtab-consolidation-plan"
PLAN_VERSION = 1
MAX_PLAN_OPS = 1000
"""A plan holds at most this many ops (eight applied ones, the rest refused attempts)."""


def _capped(max_bytes: int) -> Checked:
    return Checked(lambda text: cap_text(text, max_bytes) if text is not None else None)


def _or_empty(value: Any) -> Any:
    return "" if value is None else value


Text = str
"""Text a plan must hold (PlanError: "the plan's `name` is missing or not text")."""
OptionalText = str | None
Words = Annotated[str, Healed(_or_empty)]
"""Text that may be absent (then "")."""


class PlannedFile(Record):
    """A file an op changes: before and after (None: no file) and the unified diff."""

    path: Text
    base_sha256: OptionalText = None
    result_sha256: OptionalText = None
    diff: Words = ""


class PlannedOp(Record):
    """One op of the plan (`index` from 1); `unit`: the unit it belongs to (None: alone)."""

    index: int
    command: Text
    path: Text
    new_path: OptionalText = None
    proposed: TrueOnly = False
    unit: Annotated[int, AtLeast(1)] | None = None
    note: Annotated[OptionalText, _capped(MAX_NOTE_BYTES)] = None
    description: Annotated[Words, _capped(MAX_NOTE_BYTES)] = ""
    arguments: dict[str, Any]
    files: tuple[PlannedFile, ...] = ()

    def after_read(self) -> PlannedOp:
        """A refused op stands alone: its unit reads as None."""
        return self if self.proposed or self.unit is None else self.replaced(unit=None)


class PlanUsage(Record):
    """What the run a plan was made by cost (unknown: null)."""

    input_tokens: Annotated[int | None, Lenient(None)] = None
    output_tokens: Annotated[int | None, Lenient(None)] = None


def _usage(value: Any) -> Any:
    return value if isinstance(value, dict | PlanUsage) else {}


@dataclass(frozen=True)
class PlanUnit:
    """Proposed ops taken or left together (a merge's edit and delete), in plan order."""

    ops: tuple[PlannedOp, ...]

    @property
    def indexes(self) -> tuple[int, ...]:
        return tuple(op.index for op in self.ops)

    @property
    def description(self) -> str:
        """What the unit does: its deletes in words (a combine reads "Combined a.md into
        b.md"), else its ops' words."""
        deletes = [op.description for op in self.ops if op.command == "delete"]
        return join_words(deletes or [op.description for op in self.ops])

    def numbers(self) -> str:
        """`ops 1 and 4`, `op 2`."""
        return numbered(self.indexes)


class ConsolidationPlan(Record, keep_unknown=True):
    """What a consolidation would do, op by op: the plan file (docs/formats.md §9.4)."""

    kind: Annotated[str, Healed(lambda _: PLAN_KIND)] = PLAN_KIND
    version: Annotated[int, Healed(lambda _: PLAN_VERSION)] = PLAN_VERSION
    id: Text
    created_at: Annotated[int, Lenient(0)] = 0
    home: Text
    workspace_id: Text
    trigger: Trigger
    provider: OptionalText = None
    model: OptionalText = None
    summary: Annotated[Words, _capped(MAX_SUMMARY_BYTES)] = ""
    usage: Annotated[PlanUsage, Healed(_usage)] = field(default_factory=PlanUsage)
    ops: tuple[PlannedOp, ...] = ()
    scope: Annotated[RunScope | None, OmitNone] = None
    """The one scope the run is limited to (§9.8; absent: the whole workspace): applied,
    the plan changes that scope alone."""
    trace_dump: Annotated[OptionalText, Lenient(None), OmitNone] = None
    """The file name of the trace dump of the run that made the plan (§10.3): the run that
    applies it names it in the runs log."""

    def after_read(self) -> ConsolidationPlan:
        """Its ops are numbered from 1, in order (ValueError: one is not)."""
        for number, op in enumerate(self.ops, 1):
            if op.index != number:
                raise ValueError(f"op {number} of the plan is numbered {op.index!r}")
        return self

    @property
    def input_tokens(self) -> int | None:
        return self.usage.input_tokens

    @property
    def output_tokens(self) -> int | None:
        return self.usage.output_tokens

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

    @property
    def held_back_count(self) -> int:
        """How many of its calls were refused as declined in an earlier review (§9.7)."""
        return sum(1 for op in self.ops if held_back(op.note))

    def files_changed(self, accepted: Collection[int] | None = None) -> int:
        """How many files its proposed ops (those numbered in `accepted`) change: the
        review's count, the one Runs… says once they are applied (`changed_files`)."""
        chosen = (op for op in self.proposed if accepted is None or op.index in accepted)
        return len(changed_files(chosen))

    def unit_of(self, index: int) -> PlanUnit | None:
        """The unit of proposed op number `index` (None: not a proposed op)."""
        return next((unit for unit in self.units if index in unit.indexes), None)

    @classmethod
    def before_read(cls, raw: Any) -> Any:
        """A plan file is read strictly, its first problem named (`plan_problem`): the
        kind, the version, the ops one by one (each in `_OP_ORDER`), then the plan's own
        fields in the order they are declared."""
        if isinstance(raw, ConsolidationPlan):
            return raw
        if not isinstance(raw, dict) or raw.get("kind") != PLAN_KIND:
            raise RecordError("this is not a Memtab consolidation plan", raw)
        if raw.get("version") != PLAN_VERSION:
            raise RecordError(f"plan version {raw.get('version')!r} is not supported", raw)
        ops = raw.get("ops")
        if not isinstance(ops, list):
            raise RecordError("the plan has no list of ops", ops)
        if len(ops) > MAX_PLAN_OPS:
            raise RecordError(
                f"the plan holds {len(ops):,} ops; a plan holds at most {MAX_PLAN_OPS:,}", ops
            )
        for position, op in enumerate(ops):
            problem = _op_problem(op)
            if problem is not None:
                raise problem.at("ops", position)
        return raw


# What an op's reader checks first: its shape, then its number and unit, then its text.
_OP_ORDER = ("arguments", "files", "index", "unit", "command", "path", "newPath", "note")


def _op_problem(op: Any) -> RecordError | None:
    """What is wrong with an op of a plan file, the first thing in `_OP_ORDER` (an op
    built in memory may leave out its files; one read from a plan file must list them)."""
    if not isinstance(op, dict):
        return RecordError("not an object", op)
    problems = PlannedOp.read_problems(op)
    if "files" not in op:
        problems.append(RecordError(MISSING, None, ("files",)))

    def rank(problem: RecordError) -> int:
        key = problem.where[0] if problem.where else ""
        return _OP_ORDER.index(key) if key in _OP_ORDER else len(_OP_ORDER)

    return min(problems, key=rank, default=None)


def plan_problem(problem: RecordError) -> str:
    """What `ConsolidationPlan.read_or_raise` refused, as PlanError says it."""
    where = problem.where
    value = None if problem.reason == MISSING else problem.value
    if not where:  # the plan as a whole
        return problem.reason
    if where[0] == "ops" and len(where) >= 2:
        number = int(where[1]) + 1
        if len(where) == 2:
            return f"op {number} of the plan is not an object"
        field = where[2]
        if field in ("arguments", "files") and len(where) == 3:
            return f"op {number} of the plan has no arguments or files"
        if field == "files" and len(where) == 4:
            return f"op {number} of the plan has a malformed file"
        if field == "index":
            return f"op {number} of the plan is numbered {value!r}"
        if field == "unit":
            return f"op {number} of the plan has a malformed unit {value!r}"
        return f"the plan's `{where[-1]}` is missing or not text"
    if where[0] == "trigger" and isinstance(value, str):
        return f"the plan's trigger {value!r} is not one of {', '.join(TRIGGERS)}"
    return f"the plan's `{where[0]}` is missing or not text"


def join_words(parts: Sequence[str]) -> str:
    """Ops' words as one phrase: `Combined a.md into b.md; removed 1 line from c.md`."""
    return "; ".join(
        part[:1].lower() + part[1:] if n and part[1:2].islower() else part
        for n, part in enumerate(parts)
    )


def numbered(indexes: Sequence[int]) -> str:
    """`op 1`, `ops 1 and 4`."""
    listed = [str(index) for index in indexes]
    if len(listed) == 1:
        return f"op {listed[0]}"
    return f"ops {', '.join(listed[:-1])} and {listed[-1]}"


@dataclass(frozen=True)
class PlanChoice:
    """A reviewed plan and the op numbers the user accepted (None: every proposed op)."""

    plan: ConsolidationPlan
    accepted: tuple[int, ...] | None = None


@dataclass(frozen=True)
class ConsolidationRequest:
    """One run the window asks for, declared once and passed whole from the footer through the
    child process to the service (`consolidation/job.py`): a run, a plan to review (`review`
    True; None: as the setting says) or a reviewed plan applied (`choice`); `scope`: that scope
    alone ("Consolidate this scope", docs/formats.md §9.8); `run_id`: given once it starts."""

    workspace_id: str
    trigger: Trigger = "manual"
    review: bool | None = False
    choice: PlanChoice | None = None
    scope: RunScope | None = None
    run_id: str | None = None
