"""Consolidate now on a model server too slow to read the store in the run's time
(docs/formats.md §9.1, "Time"): code proposes, the model judges. The offline consolidator
reads every file and plans its changes; the model is shown as many of them as the time holds,
numbered, each with the lines it touches, and keeps some with `keep_changes`; each kept change
is made through the run's guard, whose rails check it as they check a model's own. What the
model was not asked is left for the next run, and the run's summary says so."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from memtab.consolidation.engine.prompts import bundled_prompt
from memtab.consolidation.guard import Declined
from memtab.consolidation.offline.inputs import collect_memory_files, current_sha256
from memtab.consolidation.offline.plan import (
    Plan,
    PlannedChange,
    plan_consolidation,
    short,
    unit_keys,
)
from memtab.consolidation.offline.provider import with_reason
from memtab.fs.heap import collector_paused
from memtab.humanize import plural
from memtab.llm.pace import (
    Paced,
    RunPace,
    estimated_tokens,
    unread_instructions,
)
from memtab.llm.types import (
    Cancel,
    ChatProvider,
    Message,
    ModelReply,
    ProviderWrapper,
    ToolCall,
    ToolOutcome,
    ToolSpec,
)
from memtab.redact import redact_outgoing
from memtab.store.paths import PathError, Scope, parse_virtual_path
from memtab.store.scopes.memory import MemoryStore
from memtab.store.scopes.tool import TOOL_NAME

JUDGE_PROMPT = "dream-judge.md"
KEEP_CHANGES = "keep_changes"
KEEP_DESCRIPTION = (
    "Keep the proposed changes by their numbers; Memtab checks each and makes the kept "
    "ones. An empty list keeps none."
)
ANSWERED_STOP = "memtab:judged"
JUDGE_REPLY_TOKENS = 32
"""What a `keep_changes` call keeping none or one writes (Qwen2.5-Coder-1.5B's: 27–29 tokens,
`<tool_call>` and `{"name": "keep_changes", "arguments": {"keep": [1]}}`)."""
TOKENS_PER_NUMBER = 2
SHOWN_LINES = 3
"""Of each side of a change (its lines removed, its lines added), the most shown."""
SHOWN_CHARS = 100
NOT_PROPOSED = "not one of the proposed changes"


def keep_changes_spec(count: int) -> ToolSpec:
    """`keep_changes`, its numbers those shown: a server asked by schema writes no other."""
    number = {"type": "integer", "minimum": 1, "maximum": max(count, 1)}
    schema = {
        "type": "object",
        "properties": {"keep": {"type": "array", "maxItems": count, "items": number}},
        "required": ["keep"],
        "additionalProperties": False,
    }
    return ToolSpec(KEEP_CHANGES, KEEP_DESCRIPTION, schema)


def judge_reply_tokens(count: int) -> int:
    """What a `keep_changes` reply keeping up to `count` changes writes, at most, about."""
    return JUDGE_REPLY_TOKENS + TOKENS_PER_NUMBER * count


@dataclass(frozen=True)
class Proposal:
    """One change the model keeps or not: an edit with the deletes that need it (a merge),
    or one change alone."""

    changes: tuple[PlannedChange, ...]


def proposals_of(plan: Plan) -> tuple[Proposal, ...]:
    """The plan's changes as the model is asked about them, in the plan's order (the most
    worth first: merges, then cleanups), a description alone after them."""
    needing: dict[str, list[PlannedChange]] = {}
    for delete in plan.deletes:
        if delete.requires is not None:
            needing.setdefault(delete.requires, []).append(delete)
    proposals = [Proposal((edit, *needing.pop(edit.path, ()))) for edit in plan.edits]
    proposals += [Proposal((delete,)) for delete in plan.deletes if delete.requires is None]
    return tuple(sorted(proposals, key=_only_describes))  # what a description adds: last


def declined_before(proposal: Proposal, declined: Declined) -> bool:
    """Whether the user declined one of the proposal's changes in review and its files still
    hold what they held then (formats §9.7): the guard would refuse it, so it is not shown."""
    return any(
        declined(
            str(change.arguments.get("command", "")),
            str(change.arguments.get("path", change.path)),
            change.arguments.get("new_path"),
            change.arguments,
        )
        for change in proposal.changes
    )


def _only_describes(proposal: Proposal) -> bool:
    """Whether a proposal only adds a description (worth less than a merge or a cleanup)."""
    return all(
        change.kind == "edit"
        and change.effects.described
        and not (change.effects.carried or change.effects.repeated or change.effects.redundant)
        for change in proposal.changes
    )


def _clipped(line: str) -> str:
    line = " ".join(redact_outgoing(line).split())
    return line if len(line) <= SHOWN_CHARS else line[: SHOWN_CHARS - 1] + "…"


def _side(mark: str, lines: Sequence[str]) -> list[str]:
    lines = [line for line in lines if line.strip()]
    shown = [f"   {mark} {_clipped(line)}" for line in lines[:SHOWN_LINES]]
    if len(lines) > SHOWN_LINES:
        shown.append(f"   {mark} … and {plural(len(lines) - SHOWN_LINES, 'more line')}")
    return shown


def _touched(change: PlannedChange, lines_of: Mapping[str, Sequence[str]]) -> list[str]:
    """The lines a change removes and adds, as few as say it."""
    arguments = change.arguments
    if change.kind == "delete":
        return _side("-", lines_of.get(change.path, ()))
    if arguments.get("command") == "insert":
        return _side("+", str(arguments.get("insert_text", "")).splitlines())
    old = str(arguments.get("old_str", "")).splitlines()
    new = str(arguments.get("new_str", "")).splitlines()
    removed = [line for line in old if line not in new]
    added = [line for line in new if line not in old]
    if not removed and not added:  # lines moved: their order is the change
        removed, added = old, new
    return [*_side("-", removed), *_side("+", added)]


def shown_proposal(number: int, proposal: Proposal, lines_of: Mapping[str, Sequence[str]]) -> str:
    """A proposal as the model is shown it: what each change does and why, on one line,
    then the lines it touches."""
    parts: list[str] = []
    for change in proposal.changes:
        verb = "Delete" if change.kind == "delete" else "Edit"
        why = f": {_clipped(change.reason)}" if change.reason else ""
        parts.append(f"{verb} {short(change.path)}{why}")
    lines = [f"{number}. " + " Then: ".join(parts)]
    for change in proposal.changes:
        if change.kind == "edit" or len(proposal.changes) == 1:
            lines.extend(_touched(change, lines_of))
    return "\n".join(lines)


def judge_message(
    workspace: str, proposals: Sequence[Proposal], lines_of: Mapping[str, Sequence[str]]
) -> str:
    """The judging run's one user message: the proposals shown, numbered from 1."""
    shown = "\n".join(
        shown_proposal(number, proposal, lines_of)
        for number, proposal in enumerate(proposals, start=1)
    )
    return f"Workspace: {workspace}\n\nThe proposed changes:\n{shown}"


@dataclass
class Judging:
    """A judged run: what code read and proposed, what the model is shown, what it kept."""

    store: MemoryStore
    listed: int
    plan: Plan
    proposals: tuple[Proposal, ...]
    lines_of: dict[str, tuple[str, ...]]
    system: str
    workspace: str
    shown: int = 0
    at: str = ""
    """The time and speed the run planned with, as its summary says them."""
    kept: list[int] = field(default_factory=list)
    strays: list[str] = field(default_factory=list)
    answered: bool = False
    changed_on_disk: list[str] = field(default_factory=list)
    declined: int = 0
    """Proposals left out because the user declined them in review."""

    @classmethod
    def of(
        cls,
        store: MemoryStore,
        scopes: Sequence[Scope],
        budget: int,
        listed: int,
        declined: Declined | None = None,
    ) -> Judging:
        """Every file of `scopes` read by code and the offline consolidator's plan of them
        (within the run's `budget` of changes), less what the user `declined`; `listed`: the
        files the run lists."""
        with collector_paused():  # thousands of small objects that all live on
            files = collect_memory_files(store, scopes)
        plan = plan_consolidation(files, budget=budget)
        lines_of = {file.path: file.lines for file in files if file.lines is not None}
        workspace = store.workspace.display_name if store.workspace is not None else ""
        system = bundled_prompt(JUDGE_PROMPT)
        proposals = proposals_of(plan)
        asked = tuple(p for p in proposals if not (declined and declined_before(p, declined)))
        judging = cls(store, listed, plan, asked, lines_of, system, workspace)
        judging.declined = len(proposals) - len(asked)
        return judging

    def message(self, count: int) -> str:
        return judge_message(self.workspace, self.proposals[:count], self.lines_of)

    @property
    def specs(self) -> list[ToolSpec]:
        return [keep_changes_spec(self.shown)]

    def size(self, pace: RunPace, instructions: int) -> None:
        """Show as many proposals as one request and its reply fit in the time left."""
        shown = pace.most_asked(
            lambda count: instructions + estimated_tokens(self.message(count)),
            judge_reply_tokens,
            len(self.proposals),
        )
        # and asked by the loop, which waits for no less than a reply's least (`Paced`)
        while shown and not pace.may_ask(estimated_tokens(self.message(shown))):
            shown -= 1
        self.shown = shown
        speed = pace.speed
        if speed is not None:
            self.at = (
                f"{pace.left_s():.0f} s left at {speed.prompt_per_s:.1f} tokens/s read, "
                f"{speed.output_per_s:.1f} written"
            )

    def execute(self, call: ToolCall, make: Callable[[ToolCall], ToolOutcome]) -> ToolOutcome:
        """The model's answer: each change it keeps made by `make` (the run's memory-tool
        call through its guard), a merge's deletes only once its edit was made."""
        if call.name != KEEP_CHANGES:
            return ToolOutcome(call.id, f"Unknown tool {call.name!r}", is_error=True)
        if self.answered:
            return ToolOutcome(call.id, "Already answered: nothing more done.", is_error=True)
        self.answered = True
        numbers = (call.arguments or {}).get("keep")
        for number in numbers if isinstance(numbers, list) else []:
            valid = isinstance(number, int) and not isinstance(number, bool)
            if not valid or not 1 <= number <= self.shown:
                self.strays.append(str(number)[:40])
            elif number not in self.kept:
                self.kept.append(number)
        made = 0
        for number in self.kept:
            made += self._make(call.id, self.proposals[number - 1], make)
        text = f"Kept {plural(len(self.kept), 'change')}; {made} made."
        if self.strays:
            text += f" Not proposed: {', '.join(self.strays)}."
        return ToolOutcome(call.id, text)

    def _make(
        self, call_id: str, proposal: Proposal, make: Callable[[ToolCall], ToolOutcome]
    ) -> int:
        made = 0
        edited: set[str] = set()
        for index, change in enumerate(proposal.changes):
            if change.requires is not None and change.requires not in edited:
                continue  # its lines were not carried into the file that keeps them
            if not self._still_as_read(change):
                continue
            arguments: dict[str, Any] = with_reason(change)
            outcome = make(ToolCall(id=f"{call_id}-{index}", name=TOOL_NAME, arguments=arguments))
            if not outcome.is_error:
                made += 1
                edited.add(change.path)
        return made

    def _still_as_read(self, change: PlannedChange) -> bool:
        """Whether the file is still what code read (else the change is not made: it was
        planned on other text)."""
        try:
            now = current_sha256(self.store, parse_virtual_path(change.path))
        except PathError:
            now = None
        if now == change.sha256:
            return True
        self.changed_on_disk.append(change.path)
        return False

    def unit_keys(self, calls: Sequence[Mapping[str, Any]]) -> list[str | None]:
        """For each change made, the merge it belongs to (`runner.KnowsUnits`)."""
        return unit_keys(self.plan, calls)

    def summary(self, changes: str | None) -> str:
        """What the run did, truthfully: `changes`, the tools' own summary of the changes
        made and refused (None: none attempted), then what code read and proposed and what
        the model was asked and kept."""
        read = f"code read every one of the {plural(self.listed, 'file')}"
        alone = self.plan.left_alone
        if alone:
            why = Counter(reason for _, reason in alone).most_common(1)[0][0]
            alone_said = f"; {plural(len(alone), 'file')} left alone ({why})"
        else:
            alone_said = ""
        if self.declined:
            alone_said += (
                f"; {plural(self.declined, 'change')} you declined before not proposed again"
            )
        proposed = len(self.proposals)
        if not proposed:
            return (
                f"no changes needed ({read} and proposed none: the model was asked "
                f"nothing{alone_said})"
            )
        said = f"{read} and proposed {plural(proposed, 'change')}"
        if self.shown == 0:
            asked = f"no time to ask the model about one ({self.at}): left for the next run"
        else:
            asked = f"the model was asked about {self.shown} and kept {len(self.kept)}"
            if not self.answered:
                asked = f"the model was asked about {self.shown} and answered with no keep_changes"
            if self.strays:
                asked += f" (it named {', '.join(self.strays)}: {NOT_PROPOSED})"
            if self.shown < proposed:
                asked += f"; {proposed - self.shown} not asked, left for the next run"
        asked += alone_said
        if self.changed_on_disk:
            asked += f"; {plural(len(self.changed_on_disk), 'file')} changed on disk: skipped"
        if changes is None:
            return f"no changes made ({said}; {asked})."
        return f"{changes.rstrip('.')} ({said}; {asked})."


class AnsweredOnce(ProviderWrapper):
    """Once the model answered `keep_changes`, the next turn is answered here, empty: the
    run ends without another request (slow, and with nothing left to ask)."""

    def __init__(self, provider: ChatProvider, judging: Judging) -> None:
        super().__init__(provider)
        self._judging = judging

    def complete(
        self, system: str, messages: list[Message], tools: list[ToolSpec], *, cancel: Cancel = None
    ) -> ModelReply:
        if self._judging.answered:
            return ModelReply(text="", stop_reason=ANSWERED_STOP)
        return self.provider.complete(system, messages, tools, cancel=cancel)


def paced_judge(
    outgoing: ChatProvider, provider: ChatProvider, pace: RunPace, judging: Judging
) -> Paced:
    """The judging request's sender, each reply capped to the time left, its cold server's
    instructions counted (`llm.pace.unread_instructions`)."""
    specs = [keep_changes_spec(len(judging.proposals))]  # as long as the one sent, or longer
    instructions = unread_instructions(provider, judging.system, specs)
    judging.size(pace, instructions)
    return Paced(AnsweredOnce(outgoing, judging), provider, pace, instructions=instructions)
