"""Memtab's offline consolidator: a `ChatProvider` that needs no model."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from memtab.consolidation.guard import MUTATION_BUDGET
from memtab.consolidation.offline.inputs import collect_memory_files, current_sha256
from memtab.consolidation.offline.plan import (
    Plan,
    PlannedChange,
    plan_consolidation,
    summarize,
    unit_keys,
)
from memtab.fs.heap import collector_paused
from memtab.llm.types import CallsSoFar, ModelReply, OfflineProvider, ToolCall, ToolOutcome
from memtab.store.paths import SHARED_SCOPES, PathError, Scope, parse_virtual_path
from memtab.store.scopes.memory import MemoryStore
from memtab.store.scopes.tool import TOOL_NAME

logger = logging.getLogger(__name__)

OFFLINE_MODEL_LABEL = "consolidator"
REASON_ARGUMENT = "reason"
"""The tool-call argument a consolidator may use to say why it makes a change."""
_PHASES = ("edit", "delete")


@dataclass
class _Conversation:
    """The consolidator's own calls so far, by phase, with their outcomes."""

    calls: dict[str, list[tuple[ToolCall, ToolOutcome | None]]] = field(
        default_factory=lambda: {phase: [] for phase in _PHASES}
    )
    call_count: int = 0

    @classmethod
    def of(cls, calls: CallsSoFar) -> _Conversation:
        conversation = cls(call_count=len(calls))
        for call, outcome in calls:
            phase = call.id.split("-")[1] if call.id.startswith("offline-") else ""
            if phase in conversation.calls:
                conversation.calls[phase].append((call, outcome))
        return conversation

    @property
    def started(self) -> bool:
        return any(self.calls.values())

    def succeeded(self, phase: str) -> list[tuple[ToolCall, str]]:
        """(call, output) of the phase's calls that succeeded."""
        return [
            (call, outcome.content)
            for call, outcome in self.calls[phase]
            if outcome is not None and not outcome.is_error
        ]


def _path_of(call: ToolCall) -> str:
    value = (call.arguments or {}).get("path")
    return value if isinstance(value, str) else ""


class OfflineConsolidator(OfflineProvider):
    """The built-in rule-based consolidator, spoken to like a model (a `ChatProvider`)."""

    label = "offline consolidator"
    model_label = OFFLINE_MODEL_LABEL
    needs = frozenset((TOOL_NAME,))

    def __init__(
        self,
        store: MemoryStore,
        *,
        budget: int = MUTATION_BUDGET,
        scopes: Sequence[Scope] = SHARED_SCOPES,
    ) -> None:
        """`scopes`: the scopes whose files it reads and plans for (a run of one scope
        alone: that one, docs/formats.md §9.8)."""
        self.store = store
        self.budget = budget
        self.scopes = tuple(scopes)
        self._plan: Plan | None = None
        self._changed_on_disk: set[str] = set()

    def without(self, missing: frozenset[str]) -> ModelReply:
        return ModelReply("no changes needed (the memory tool was not offered)")

    def next_turn(self, calls: CallsSoFar) -> ModelReply:
        """The next turn, decided from the plan and the outcomes of the calls so far."""
        conversation = _Conversation.of(calls)
        if self._plan is None or not conversation.started:
            with collector_paused():  # thousands of small objects that all live on
                files = collect_memory_files(self.store, self.scopes)
            self._plan = plan_consolidation(files, budget=self.budget)
            self._changed_on_disk = set()
        plan = self._plan
        if not conversation.calls["edit"] and not conversation.calls["delete"]:
            edits = self._still_as_read(plan.edits)
            if edits:
                return self._reply(conversation, [("edit", change) for change in edits])
        if not conversation.calls["delete"]:
            deletes = self._still_as_read(self._ready_deletes(plan, conversation))
            if deletes:
                return self._reply(conversation, [("delete", change) for change in deletes])
        return ModelReply(self._summary(plan, conversation))

    def unit_keys(self, calls: Sequence[Mapping[str, Any]]) -> list[str | None]:
        """For each call of the run (its arguments), the merge it belongs to: the path of
        the file the merge keeps, for that file's edit and the deletes that need it;
        None for a change that stands alone (`runner.KnowsUnits`)."""
        plan = self._plan
        return unit_keys(plan, calls) if plan is not None else [None] * len(calls)

    def _still_as_read(self, changes: tuple[PlannedChange, ...]) -> list[PlannedChange]:
        """The changes whose file is still exactly what the plan read."""
        kept = []
        for change in changes:
            try:
                current = current_sha256(self.store, parse_virtual_path(change.path))
            except PathError:
                current = None
            if current == change.sha256:
                kept.append(change)
            else:
                logger.info("offline consolidator skips %s: changed on disk", change.path)
                self._changed_on_disk.add(change.path)
        return kept

    def _ready_deletes(self, plan: Plan, conversation: _Conversation) -> tuple[PlannedChange, ...]:
        edited = {_path_of(call) for call, _ in conversation.succeeded("edit")}
        return tuple(
            change
            for change in plan.deletes
            if change.requires is None or change.requires in edited
        )

    def _summary(self, plan: Plan, conversation: _Conversation) -> str:
        done = {
            (phase, _path_of(call)): output
            for phase in _PHASES
            for call, output in conversation.succeeded(phase)
        }
        applied = [
            change for change in (*plan.edits, *plan.deletes) if (change.kind, change.path) in done
        ]
        dry_run = any(output.startswith("Dry run:") for output in done.values())
        asked = len(conversation.calls["edit"]) + len(conversation.calls["delete"])
        return summarize(
            applied,
            dry_run=dry_run,
            refused=asked - len(done),
            changed_on_disk=len(self._changed_on_disk),
            left_alone=len(plan.left_alone),
        )

    def _reply(
        self, conversation: _Conversation, calls: list[tuple[str, PlannedChange]]
    ) -> ModelReply:
        first = conversation.call_count
        tool_calls = tuple(
            ToolCall(
                id=f"offline-{phase}-{first + index}",
                name=TOOL_NAME,
                arguments=with_reason(change),
            )
            for index, (phase, change) in enumerate(calls)
        )
        return ModelReply("", tool_calls=tool_calls, stop_reason="tool_use")


def with_reason(change: PlannedChange) -> dict[str, Any]:
    """The memory-tool arguments of a planned change, its reason said with them."""
    arguments = dict(change.arguments)
    if change.reason:
        arguments[REASON_ARGUMENT] = change.reason
    return arguments
