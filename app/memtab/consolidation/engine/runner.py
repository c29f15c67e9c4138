"""One consolidation run: a provider, the `memory` tool behind the guard, and the tool loop."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any, Protocol, runtime_checkable

from memtab.consolidation.declined import DeclinedMatcher
from memtab.consolidation.engine.judged import Judging, paced_judge
from memtab.consolidation.engine.prompts import (
    listed_files,
    load_system_prompt,
    reminder_prompt,
    run_message,
)
from memtab.consolidation.engine.reading import ReadingPlace, RunReading, text_digest
from memtab.consolidation.engine.window import ContextWindow, FitToContext
from memtab.consolidation.errors import FailureKind, RunCancelledError, RunFailedError
from memtab.consolidation.guard import (
    DRY_RUN_NOTE,
    MUTATION_BUDGET,
    BeforeDispatch,
    ConsolidationGuard,
    MutationBudget,
)
from memtab.consolidation.offline.provider import REASON_ARGUMENT
from memtab.consolidation.records import join_words
from memtab.fs.clock import Clock, now_ms
from memtab.humanize import plural
from memtab.llm.local_servers import ServedContext, served_context
from memtab.llm.loop import (
    DEFAULT_MAX_STEPS,
    DEFAULT_TIMEOUT_S,
    LoopResult,
    Redacted,
    StepCallback,
    run_tool_loop,
)
from memtab.llm.pace import (
    Paced,
    estimated_tokens,
    file_tokens,
    pace_of,
    remember_run_speed,
    unread_instructions,
)
from memtab.llm.speed import Speed
from memtab.llm.types import (
    OFFLINE_PROVIDER,
    ChatProvider,
    Message,
    ToolCall,
    ToolOutcome,
    ToolResultsMessage,
    ToolSpec,
    Usage,
    UserMessage,
)
from memtab.markdown import text_lines
from memtab.redact import redact_outgoing
from memtab.store.errors import MemoryStoreError
from memtab.store.history.describe import OpTexts, describe_ops, op_texts, op_units
from memtab.store.history.recorder import RecordedChange
from memtab.store.history.records import RunOp
from memtab.store.home import Home
from memtab.store.paths import SHARED_SCOPES, PathError, Scope, parse_file_path
from memtab.store.scopes.memory import MemoryStore
from memtab.store.scopes.tool import TOOL_DESCRIPTION, TOOL_NAME, ToolRequest, tool_input_schema
from memtab.store.scopes.tool_args import CreateArgs, InsertArgs, StrReplaceArgs
from memtab.store.sidecars.journal import ConsolidationRecord, JournalOp, RunUsage, Trigger
from memtab.trust.rails import Rails

UNSTATED_RULE = "it is a standing rule no memory file states"
UNHEARD = "it says what no memory file says"


class ConsolidationRails:
    """The rails of one run over `store`'s `scopes`, the model told `instructions`; the
    memory is read when a change first needs it."""

    def __init__(self, store: MemoryStore, scopes: Sequence[Scope], instructions: str) -> None:
        self.store = store
        self.scopes = tuple(scopes)
        self.instructions = instructions
        self._rails: Rails | None = None
        self._held: frozenset[str] = frozenset()

    def refusal(self, request: ToolRequest) -> str | None:
        """Why the guard refuses a change (None: it may be made)."""
        args = request.args
        if isinstance(args, StrReplaceArgs):
            before = {line.strip() for line in text_lines(args.old_str)}
            new_text = args.new_str
        elif isinstance(args, InsertArgs):
            before, new_text = set(), args.insert_text
        elif isinstance(args, CreateArgs):
            before, new_text = set(), args.file_text
        else:
            return None
        rails = self._ready()
        lines = text_lines(new_text)
        added = [
            number
            for number, line in enumerate(lines)
            if line.strip() and line.strip() not in before and line.strip() not in self._held
        ]
        refused = rails.refusals(new_text, added)
        if not refused:
            return None
        first = refused[min(refused)]
        more = f" (and {len(refused) - 1} more)" if len(refused) > 1 else ""
        line = redact_outgoing(first.line.strip())
        return f"refused: the new line “{line}”{more}: {first.why}"

    def _ready(self) -> Rails:
        if self._rails is None:
            texts = list(self._memory_texts())
            lines = [line for text in texts for line in text_lines(text)]
            self._held = frozenset(line.strip() for line in lines if line.strip())
            self._rails = Rails(
                self.instructions,
                lines,
                lines,
                unstated_rule=UNSTATED_RULE,
                heard="\n".join(texts),
                unheard=UNHEARD,
            )
        return self._rails

    def _memory_texts(self) -> list[str]:
        """The text of every file of the run's scopes, as the run started."""
        texts = []
        for listing in self.store.list_all(scopes=self.scopes):
            for file in listing.files:
                try:
                    data = self.store.read_whole(file.path)
                except (MemoryStoreError, PathError):
                    continue
                if data is not None:
                    texts.append(data.decode("utf-8", "replace"))
        return texts


logger = logging.getLogger(__name__)

NO_CHANGES_SUMMARY = "no changes needed"
JUDGE_STEPS = 2
"""A judged run's requests: its answer, and once more when that was cut at its limit."""
RUN_LIMIT_HINT = "memtab consolidate --timeout raises it"


@dataclass(frozen=True)
class RunLimits:
    """Bounds of one run: model steps, wall-clock time, and accepted mutations."""

    max_steps: int = DEFAULT_MAX_STEPS
    timeout_s: float = DEFAULT_TIMEOUT_S
    budget: int = MUTATION_BUDGET


@dataclass(frozen=True)
class RunResult:
    """How a run ended: a record to journal, or the failure; the ops either way."""

    record: ConsolidationRecord | None
    ops: tuple[JournalOp, ...]
    loop: LoopResult
    failure: RunFailedError | None = None
    run_ops: tuple[RunOp, ...] = ()
    """The ops with the history versions each applied one made."""
    calls: tuple[dict[str, Any], ...] = field(default=())
    """The tool arguments of each op, in the order of `ops`."""
    system_prompt: str = ""
    """What the consolidator was told (its trace dump keeps it)."""

    @property
    def ok(self) -> bool:
        return self.failure is None


@runtime_checkable
class KnowsUnits(Protocol):
    """An engine that knows which of its changes belong together (the offline
    consolidator: a merge's edit and deletes). A model does not say; its units are read
    from what its ops did (`history.describe.op_units`)."""

    def unit_keys(self, calls: Sequence[Mapping[str, Any]]) -> list[str | None]:
        """For each mutation call of the run, a key shared by the calls of one unit
        (None: the call stands alone)."""
        ...


def memory_tool_spec() -> ToolSpec:
    """The one tool a consolidator sees: the store's `memory` tool (docs/formats.md §5)."""
    return ToolSpec(TOOL_NAME, TOOL_DESCRIPTION, tool_input_schema())


def run_consolidation(
    provider: ChatProvider,
    store: MemoryStore,
    *,
    trigger: Trigger,
    dry_run: bool = False,
    limits: RunLimits | None = None,
    cancel: threading.Event | None = None,
    on_step: StepCallback | None = None,
    clock: Clock = now_ms,
    prompt_home: Home | None = None,
    before_dispatch: BeforeDispatch | None = None,
    declined: DeclinedMatcher | None = None,
    scopes: Sequence[Scope] = SHARED_SCOPES,
) -> RunResult:
    """Run the consolidator over the store's workspace, project (if any) and global scopes — or
    `scopes` alone (a run of one scope, docs/formats.md §9.8: `guard.run_scopes`)."""
    limits = limits or RunLimits()
    started = time.monotonic()
    model = provider.name != OFFLINE_PROVIDER
    guard = ConsolidationGuard(
        store,
        budget=MutationBudget(limits.budget),
        dry_run=dry_run,
        before_dispatch=before_dispatch,
        declined=declined.refusal if declined is not None else None,
        scopes=scopes,
        read_first=model,
        keeps_content=model,
    )
    system = load_system_prompt(prompt_home or store.home, trigger)
    if model:  # a model's new text passes the rails (the offline consolidator moves lines)
        guard.rails = ConsolidationRails(store, guard.scopes, system.text).refusal
    # The offline consolidator reads the files as data, never this message's listing.
    files = listed_files(store, guard.scopes) if model else []
    served = _served(provider) if model else None
    window = ContextWindow.of(provider, served) if model else None
    pause = cancel.wait if cancel is not None else time.sleep  # for a busy server
    pace = pace_of(provider, limits.timeout_s, served, clock, pause) if model else None
    place = reading = None
    if pace is not None and store.workspace is not None:  # where earlier runs left off first
        place = ReadingPlace((prompt_home or store.home).root, store.workspace.id, guard.scopes)
        reading = RunReading.start(files, place.earlier(), lambda path: _digest(store, path))
        files = reading.files

    def message_listing(count: int) -> str:
        return run_message(
            store,
            trigger=trigger,
            budget=limits.budget,
            dry_run=dry_run,
            with_files=model,
            files=files[:count],
            declined=[op.description for op in declined.in_force()] if declined else (),
            scopes=guard.scopes,
            unlisted=len(files) - count,
        )

    # What a cold server reads before the listing: the instructions (a warm one has them).
    instructions = (
        unread_instructions(provider, system.text, [memory_tool_spec()]) if pace is not None else 0
    )
    judging = None
    sizes = [file_tokens(file.size_bytes) for file in files]
    listing = instructions + estimated_tokens(message_listing(len(files)))
    if pace is not None and files and not pace.reads_whole(listing, sizes):
        # No time to read the store: code reads every file and proposes, the model judges.
        judging = Judging.of(store, guard.scopes, limits.budget, len(files), guard.declined)
        guard.read_first = False
        reading = None
    message = message_listing(len(files))
    if window is not None:
        message = _fitted_listing(window, system.text, message_listing, len(files))
    changes_of_op: dict[int, list[RecordedChange]] = {}
    calls: dict[int, dict[str, Any]] = {}
    views: list[tuple[ToolOutcome, object, str | None, int, str]] = []  # path, text, from, shown

    reasons: dict[int, str] = {}  # op index → why the consolidator made that change

    def execute(call: ToolCall) -> ToolOutcome:
        ops_before = len(guard.ops)
        arguments, resumed = (
            reading.viewing(call.arguments or {}) if reading else (call.arguments, "")
        )
        with store.collecting_changes() as changes:
            result = guard.execute(arguments)
        if len(guard.ops) > ops_before:  # a mutation attempt: remember what it made
            changes_of_op[ops_before] = list(changes)
            calls[ops_before] = dict(call.arguments or {})
        reason = (call.arguments or {}).get(REASON_ARGUMENT)
        if isinstance(reason, str) and reason.strip() and len(guard.ops) == ops_before + 1:
            reasons[ops_before] = " ".join(reason.split())
        text = result.text
        command = (arguments or {}).get("command")
        path = (arguments or {}).get("path")
        if window is not None:  # a result that does not fit is cut, saying where to read on
            text = window.fitted(text, command)
        if pace is not None:  # and one the run has no time to read, saying what is left
            text = pace.fitted(text, command, path)
        if resumed and result.success:
            text = f"{resumed}\n{text}"
        outcome = ToolOutcome(call.id, text, is_error=not result.success)
        if reading is not None and result.success and command == "view":
            offset = (arguments or {}).get("offset")
            first = offset if isinstance(offset, int) else 1
            views.append((outcome, path, _text_now(store, path), first, text))
        return outcome

    logger.info(
        "consolidating workspace %s (%s, %s%s, prompt: %s)",
        store.workspace.id if store.workspace else "-",
        trigger,
        provider.name,
        ", dry run" if dry_run else "",
        system.source,
    )
    outgoing = _outgoing(provider, model, window)
    paced = Paced(outgoing, provider, pace, instructions=instructions) if pace is not None else None
    prompt, tools, executor = system.text, [memory_tool_spec()], execute
    if judging is not None and pace is not None:  # one request: the proposals, numbered
        paced = paced_judge(outgoing, provider, pace, judging)
        prompt, tools = judging.system, judging.specs
        message = judging.message(judging.shown)
        executor = partial(judging.execute, make=execute)

    def ask(messages: list[Message], max_steps: int) -> LoopResult:
        return run_tool_loop(
            paced or outgoing,
            prompt,
            messages,
            tools,
            executor,
            max_steps=max_steps,
            timeout_s=max(limits.timeout_s - (time.monotonic() - started), 0.001),
            cancel=cancel,
            on_step=on_step,
            timeout_hint=RUN_LIMIT_HINT,
            may_ask=paced.may_ask if paced is not None else None,
        )

    if judging is not None and judging.shown == 0:  # nothing to ask, or no time to: not asked
        loop = LoopResult(text="", stop_reason="final", steps=0, usage=Usage(), messages=[])
    elif judging is not None:  # its answer, and a cut one asked again
        loop = ask([UserMessage(message)], JUDGE_STEPS)
    else:
        loop = ask([UserMessage(message)], limits.max_steps)
    asked_nothing = model and files and loop.ok and not loop.tool_executions
    if judging is None and asked_nothing and loop.steps < limits.max_steps:
        # It answered in words without reading a file: once more, reminded of the tool.
        reminded = [*loop.messages, UserMessage(reminder_prompt(str(files[0].path)))]
        again = ask(reminded, limits.max_steps - loop.steps)
        loop = _joined(loop, again)
    ops = _with_reasons(guard.ops, reasons)
    op_calls = tuple(calls.get(index, {}) for index in range(len(ops)))
    run_ops = _with_units(
        tuple(RunOp.from_journal(op, changes_of_op.get(index, ())) for index, op in enumerate(ops)),
        judging or provider,
        op_calls,
    )
    failure = _failure(loop, pace.measured if pace is not None else None)
    if reading is not None:  # what the model read: not the results a loop stopped before
        last = loop.messages[-1] if loop.messages else None
        unsent = last.results if isinstance(last, ToolResultsMessage) else ()
        for outcome, path, text, first, shown in views:
            if not any(outcome is result for result in unsent):
                reading.viewed(path, text, first, shown)
    # A round of runs the time cuts short: this one's, or one an earlier run left.
    in_round = reading is not None and (
        (pace is not None and pace.cut) or loop.stop_reason == "spent" or bool(reading.earlier)
    )
    if pace is not None:  # what the run measured and where it left off, whatever ended it
        remember_run_speed(provider, pace, clock)
        if place is not None and reading is not None and in_round and not dry_run:
            place.keep(reading.reads())
    if failure is not None:
        if isinstance(failure, RunCancelledError):  # the user asked: not a problem
            logger.info("consolidation run cancelled at step %d", loop.steps)
        else:
            logger.warning("consolidation run failed: %s", failure)
        return RunResult(None, ops, loop, failure, run_ops, op_calls, prompt)
    if judging is not None:
        changes = tools_summary(store.home, run_ops, len(files), len(files)) if ops else None
        summary = judging.summary(changes)
    elif model:
        read = sum(1 for file in files if str(file.path) in guard.read_paths)
        earlier, left = 0, ""
        if reading is not None and in_round:
            read, earlier, left = reading.summary()
        summary = tools_summary(store.home, run_ops, read, len(files), earlier=earlier, left=left)
        if loop.stop_reason == "max_steps":
            summary = f"Stopped after {limits.max_steps} steps: {summary}"
        if window is not None and window.said():  # what the model was not shown is said
            summary = f"{summary} {window.said()}"
    else:
        summary = _summary(loop, ops, limits.max_steps)
    record = ConsolidationRecord(
        last_run_at=clock(),
        trigger=trigger,
        summary=summary,
        ops=ops,
        usage=RunUsage.of(loop.usage.input_tokens, loop.usage.output_tokens) if model else None,
    )
    return RunResult(record, ops, loop, None, run_ops, op_calls, prompt)


def _outgoing(provider: ChatProvider, model: bool, window: ContextWindow | None) -> ChatProvider:
    """What a run's loop asks: a model is sent nothing unredacted, and each request as its
    server's context holds it."""
    if not model:
        return provider
    if window is None:
        return Redacted(provider)
    return FitToContext(Redacted(provider), window)


def _served(provider: ChatProvider) -> ServedContext | None:
    """What the server of `provider` serves, when it is on this machine and says."""
    base_url = getattr(provider, "base_url", None)
    return served_context(base_url, provider.model) if isinstance(base_url, str) else None


def _text_now(store: MemoryStore, path: object) -> str | None:
    """The text of the memory file at `path` now (None: no readable file there)."""
    if not isinstance(path, str):
        return None
    try:
        return store.read_text(parse_file_path(path))
    except (MemoryStoreError, PathError, OSError):
        return None


def _digest(store: MemoryStore, path: str) -> str | None:
    text = _text_now(store, path)
    return text_digest(text) if text is not None else None


def _fitted_listing(
    window: ContextWindow, system: str, message_of: Callable[[int], str], files: int
) -> str:
    """The run's first message listing as many of the first `files` as its context holds
    (the rest said), the window told what it takes."""

    def size(count: int) -> int:
        return window.measure(system, [UserMessage(message_of(count))], [memory_tool_spec()])

    listed = files
    if not window.listing_fits(size(files)):
        low, high = 0, files  # the most that fit: size grows with the count
        while low < high:
            middle = (low + high + 1) // 2
            low, high = (middle, high) if window.listing_fits(size(middle)) else (low, middle - 1)
        listed = low
    window.started(size(listed), listed, files - listed)
    return message_of(listed)


def _joined(first: LoopResult, second: LoopResult) -> LoopResult:
    """Two loops of one conversation, the second asked after the first, as one."""
    usage = Usage()
    usage.add(first.usage)
    usage.add(second.usage)
    return replace(
        second,
        steps=first.steps + second.steps,
        usage=usage,
        replies=[*first.replies, *second.replies],
        tool_executions=[*first.tool_executions, *second.tool_executions],
    )


def _with_reasons(ops: tuple[JournalOp, ...], reasons: dict[int, str]) -> tuple[JournalOp, ...]:
    """The applied ops with the reason their call gave as note (a refused op keeps the
    note saying why it was refused; a dry-run op keeps its marker)."""
    return tuple(
        op.replaced(note=reasons[index])
        if index in reasons and op.applied and op.note is None
        else op
        for index, op in enumerate(ops)
    )


def _with_units(
    run_ops: tuple[RunOp, ...], engine: object, calls: Sequence[Mapping[str, Any]]
) -> tuple[RunOp, ...]:
    """The ops with their units, when the engine knows them (else they stay unsaid): the
    offline consolidator, or the code that proposed a judged run's changes."""
    if not isinstance(engine, KnowsUnits):
        return run_ops
    keys = engine.unit_keys(calls)
    units = op_units(run_ops, [{} for _ in run_ops], keys)
    return tuple(op.replaced(unit=unit) for op, unit in zip(run_ops, units, strict=True))


def _failure(loop: LoopResult, speed: Speed | None) -> RunFailedError | None:
    if loop.stop_reason == "cancelled":
        return RunCancelledError()
    if loop.stop_reason == "timeout":
        measured = (
            f"; the model server here reads about {speed.prompt_per_s:.0f} tokens a second "
            f"and writes {speed.output_per_s:.1f}"
            if speed is not None
            else ""
        )
        return RunFailedError("timeout", f"the consolidation run {loop.detail}{measured}")
    if loop.stop_reason == "error":
        error = loop.error
        kind: FailureKind = "config" if error is not None and error.kind == "config" else "error"
        return RunFailedError(kind, error.message if error is not None else loop.detail)
    return None  # "final", "max_steps" or "spent": its changes happened and are journaled


def tools_summary(
    home: Home,
    run_ops: Sequence[RunOp],
    read: int,
    listed: int,
    *,
    earlier: int = 0,
    left: str = "",
) -> str:
    """What a model's run did, from its tools alone: the changes made (a merge's edit and
    delete said as one), the changes refused and why the first was, and — when it
    changed nothing, or its time ran out first — how many of the `listed` files it `read`
    (`earlier`: read whole by earlier runs of its round) and what it `left` for the next."""
    reading = f"read {'none' if read == 0 else read} of the {plural(listed, 'file')}"
    if earlier:
        reading += f", {earlier} in earlier runs"
    if left:
        reading += f"; the rest next run: {left}"
    _texts, units, words = described(home, run_ops)
    grouped: dict[object, list[int]] = {}
    for index, op in enumerate(run_ops):
        if op.applied or op.note == DRY_RUN_NOTE:
            key = units[index] if units[index] is not None else ("alone", index)
            grouped.setdefault(key, []).append(index)
    phrases = []
    for indexes in grouped.values():
        deletes = [words[index] for index in indexes if run_ops[index].command == "delete"]
        phrases.append(join_words(deletes or [words[index] for index in indexes]))
    if phrases:
        parts = [join_words(phrases), *([reading] if left or earlier else [])]
    elif read + earlier == listed and not left:
        parts = [f"{NO_CHANGES_SUMMARY} ({reading})" if earlier else NO_CHANGES_SUMMARY]
    else:
        parts = [f"no changes made ({reading})"]
    refused = [op for op in run_ops if not op.applied and op.note != DRY_RUN_NOTE]
    if refused:
        why = f" (the first: {refused[0].note.rstrip('.')})" if refused[0].note else ""
        parts.append(f"{plural(len(refused), 'change')} refused{why}")
    text = "; ".join(parts)
    return text if text == NO_CHANGES_SUMMARY else f"{text.rstrip('.')}."


def described(
    home: Home, run_ops: Sequence[RunOp], read: Callable[[str], str | None] | None = None
) -> tuple[list[OpTexts], Sequence[int | None], list[str]]:
    """Each op's texts (`op_texts`), its unit (the engine's, else read from what the ops did)
    and its words."""
    texts = [op_texts(home, op, read) for op in run_ops]
    units: Sequence[int | None] = [op.unit for op in run_ops]
    if not any(unit is not None for unit in units):
        units = op_units(run_ops, texts)
    return texts, units, describe_ops(run_ops, texts, units)


def _summary(loop: LoopResult, ops: tuple[JournalOp, ...], max_steps: int) -> str:
    """The offline consolidator's summary: its own words for what its calls did."""
    changed = sum(1 for op in ops if op.applied or op.note == DRY_RUN_NOTE)
    if loop.stop_reason == "max_steps":
        return (
            f"Stopped after {max_steps} steps without a final summary "
            f"({plural(changed, 'change')} made)."
        )
    if loop.text:
        return loop.text
    if changed == 0:
        return NO_CHANGES_SUMMARY
    return f"{plural(changed, 'change')} made; the consolidator wrote no summary."
