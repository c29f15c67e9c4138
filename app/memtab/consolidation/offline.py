"""Memtab's offline consolidator: a `ChatProvider` that needs no model.

It drives the same tool loop, guard and budget as a model does, one "turn" at a time:

1. survey — `view` each scope root, then each directory the 2-level trees cut off;
2. read — `view` every file (all in one turn; reads are free and count as usage);
3. edit — the plan's edits (see `offline_plan`), at most one per file;
4. delete — the plan's deletes whose merge edit succeeded (never before: a file's lines
   are carried into the file that keeps them first);
5. reply — one line saying what was done, or "no changes needed".

Its state is the conversation itself: every turn is decided from the tool results in
`messages`, so it behaves like a model that remembers what it saw. Pins and usage counts
(which the tool does not show) come from the store's memory-meta.json, read-only.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field
from typing import Any

from memtab.consolidation.guard import MUTATION_BUDGET
from memtab.consolidation.offline_plan import MemoryFile, Plan, plan_consolidation, summarize
from memtab.llm.types import (
    AssistantMessage,
    Message,
    ModelReply,
    ProviderError,
    ToolCall,
    ToolOutcome,
    ToolResultsMessage,
    ToolSpec,
)
from memtab.store.memory import MemoryStore
from memtab.store.paths import SCOPE_ORDER, PathError, parse_virtual_path
from memtab.store.tool import TOOL_NAME

logger = logging.getLogger(__name__)

OFFLINE_PROVIDER = "offline"
OFFLINE_MODEL_LABEL = "consolidator"
_PHASES = ("survey", "read", "edit", "delete")


@dataclass
class _Conversation:
    """What the consolidator asked so far and what came back, by phase."""

    calls: dict[str, list[tuple[ToolCall, ToolOutcome | None]]] = field(
        default_factory=lambda: {phase: [] for phase in _PHASES}
    )
    call_count: int = 0

    @classmethod
    def from_messages(cls, messages: list[Message]) -> _Conversation:
        outcomes: dict[str, ToolOutcome] = {}
        asked: list[ToolCall] = []
        for message in messages:
            if isinstance(message, AssistantMessage):
                asked.extend(message.tool_calls)
            elif isinstance(message, ToolResultsMessage):
                outcomes.update({result.call_id: result for result in message.results})
        conversation = cls(call_count=len(asked))
        for call in asked:
            phase = call.id.split("-")[1] if call.id.startswith("offline-") else ""
            if phase in conversation.calls:
                conversation.calls[phase].append((call, outcomes.get(call.id)))
        return conversation

    def succeeded(self, phase: str) -> list[tuple[ToolCall, str]]:
        """(call, output) of the phase's calls that succeeded."""
        return [
            (call, outcome.content)
            for call, outcome in self.calls[phase]
            if outcome is not None and not outcome.is_error
        ]

    def asked_paths(self, phase: str) -> set[str]:
        return {_path_of(call) for call, _ in self.calls[phase]}


def _path_of(call: ToolCall) -> str:
    value = (call.arguments or {}).get("path")
    return value if isinstance(value, str) else ""


def parse_tree(output: str) -> tuple[list[str], list[str]]:
    """(files, directories whose content the tree cut off) from a `view` of a directory."""
    lines = output.split("\n")
    if not lines or not lines[0].startswith("Directory: "):
        return [], []
    root = lines[0][len("Directory: ") :]
    files: list[str] = []
    unexplored: list[str] = []
    stack: list[str] = []  # directory names from the root down to the current depth
    for line in lines[1:]:
        stripped = line.lstrip(" ")
        depth = (len(line) - len(stripped)) // 2
        if not stripped.startswith("- "):
            continue
        name = stripped[2:]
        del stack[depth:]
        is_dir = name.endswith("/")
        name = name.rstrip("/")
        path = "/".join([root, *stack, name])
        if is_dir:
            stack.append(name)
            unexplored.append(path)  # cleared below if the tree showed its children
        else:
            files.append(path)
    shown_parents = {path.rsplit("/", 1)[0] for path in files + unexplored}
    return files, [path for path in unexplored if path not in shown_parents]


def parse_file_view(output: str) -> list[str] | None:
    """A file's lines from a `view` of it (`N<TAB>line` each), None if it is not one."""
    if output.startswith("(empty file: "):
        return []
    lines: list[str] = []
    for expected, row in enumerate(output.split("\n"), start=1):
        number, tab, text = row.partition("\t")
        if not tab or number != str(expected):
            return None
        lines.append(text)
    return lines


class OfflineConsolidator:
    """The built-in rule-based consolidator, spoken to like a model (a `ChatProvider`)."""

    def __init__(self, store: MemoryStore, *, budget: int = MUTATION_BUDGET) -> None:
        self.store = store
        self.budget = budget
        self._plans: dict[tuple[str, ...], Plan] = {}

    @property
    def name(self) -> str:
        return OFFLINE_PROVIDER

    @property
    def model(self) -> str:
        return OFFLINE_MODEL_LABEL

    def complete(
        self,
        system: str,
        messages: list[Message],
        tools: list[ToolSpec],
        *,
        cancel: threading.Event | None = None,
    ) -> ModelReply:
        """The next turn, decided from the conversation so far."""
        if cancel is not None and cancel.is_set():
            raise ProviderError("cancelled", "offline consolidator: cancelled")
        if not any(tool.name == TOOL_NAME for tool in tools):
            return ModelReply("no changes needed (the memory tool was not offered)")
        conversation = _Conversation.from_messages(messages)
        calls = self._survey(conversation) or self._read(conversation)
        if calls:
            return self._reply(conversation, calls)
        return self._change(conversation)

    # --- reading ----------------------------------------------------------------------------

    def _survey(self, conversation: _Conversation) -> list[tuple[str, dict[str, Any]]]:
        asked = conversation.asked_paths("survey")
        if not asked:
            targets = [scope.virtual_root for scope in SCOPE_ORDER]
        else:
            targets = []
            for _, output in conversation.succeeded("survey"):
                _, unexplored = parse_tree(output)
                targets.extend(path for path in unexplored if path not in asked)
        return [("survey", {"command": "view", "path": path}) for path in sorted(set(targets))]

    def _read(self, conversation: _Conversation) -> list[tuple[str, dict[str, Any]]]:
        outputs = [output for _, output in conversation.succeeded("survey")]
        files = sorted({path for output in outputs for path in parse_tree(output)[0]})
        asked = conversation.asked_paths("read")
        return [("read", {"command": "view", "path": path}) for path in files if path not in asked]

    def _files(self, conversation: _Conversation) -> list[MemoryFile]:
        entries = self.store.meta_entries()
        files = []
        for call, output in conversation.succeeded("read"):
            lines = parse_file_view(output)
            try:
                path = parse_virtual_path(_path_of(call))
                entry = entries.get(self.store.meta_key(path))
            except (PathError, ValueError) as error:
                logger.debug("offline consolidator skips %s: %s", _path_of(call), error)
                continue
            if lines is None or path.scope is None:
                continue
            files.append(
                MemoryFile(
                    path=str(path),
                    scope=path.scope,
                    lines=tuple(lines),
                    pinned=bool(entry and entry.pinned),
                    uses=entry.access_count if entry else 0,
                )
            )
        return files

    def _plan(self, conversation: _Conversation) -> Plan:
        key = tuple(call.id for call, _ in conversation.calls["read"])
        if key not in self._plans:
            self._plans = {key: plan_consolidation(self._files(conversation), budget=self.budget)}
        return self._plans[key]

    # --- changing ---------------------------------------------------------------------------

    def _change(self, conversation: _Conversation) -> ModelReply:
        plan = self._plan(conversation)
        if not conversation.calls["edit"] and not conversation.calls["delete"]:
            if plan.edits:
                return self._reply(
                    conversation, [("edit", change.arguments) for change in plan.edits]
                )
            deletes = self._ready_deletes(plan, conversation)
            if deletes:
                return self._reply(conversation, deletes)
        elif not conversation.calls["delete"]:
            deletes = self._ready_deletes(plan, conversation)
            if deletes:
                return self._reply(conversation, deletes)
        return ModelReply(self._summary(plan, conversation))

    def _ready_deletes(
        self, plan: Plan, conversation: _Conversation
    ) -> list[tuple[str, dict[str, Any]]]:
        edited = {_path_of(call) for call, _ in conversation.succeeded("edit")}
        return [
            ("delete", change.arguments)
            for change in plan.deletes
            if change.requires is None or change.requires in edited
        ]

    def _summary(self, plan: Plan, conversation: _Conversation) -> str:
        done = {
            (phase, _path_of(call)): output
            for phase in ("edit", "delete")
            for call, output in conversation.succeeded(phase)
        }
        applied = [
            change for change in (*plan.edits, *plan.deletes) if (change.kind, change.path) in done
        ]
        dry_run = any(output.startswith("Dry run:") for output in done.values())
        asked = len(conversation.calls["edit"]) + len(conversation.calls["delete"])
        return summarize(applied, dry_run=dry_run, refused=asked - len(done))

    def _reply(
        self, conversation: _Conversation, calls: list[tuple[str, dict[str, Any]]]
    ) -> ModelReply:
        first = conversation.call_count
        tool_calls = tuple(
            ToolCall(id=f"offline-{phase}-{first + index}", name=TOOL_NAME, arguments=arguments)
            for index, (phase, arguments) in enumerate(calls)
        )
        return ModelReply("", tool_calls=tool_calls, stop_reason="tool_use")
