"""One run of the background memory writer (docs/formats.md §10.2, §12)."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from memtab.fs.clock import Clock, now_ms
from memtab.llm.local_servers import served_context
from memtab.llm.loop import LoopResult, Redacted, run_tool_loop
from memtab.llm.pace import (
    BUSY,
    Paced,
    Pause,
    RunPace,
    estimated_tokens,
    instruction_tokens,
    pace_of,
    probe_seconds,
    remember_run_speed,
)
from memtab.llm.settings_model import is_local
from memtab.llm.types import (
    Cancel,
    ChatProvider,
    Message,
    ModelReply,
    ProviderWrapper,
    ToolSpec,
    Usage,
    UserMessage,
)
from memtab.redact import redact_view
from memtab.store.history.provenance import log_provenance
from memtab.store.history.recorder import RecordedChange
from memtab.store.history.records import (
    FileVersions,
    NoteOrigin,
    ProvenanceRecord,
    RunEntry,
    RunOp,
    TokenUsage,
    TranscriptWindow,
)
from memtab.store.history.runs import log_run, new_run_id
from memtab.store.home import Home
from memtab.store.paths import PathError, VirtualPath, parse_file_path
from memtab.store.scopes.memory import MemoryStore, MemoryStoreError
from memtab.store.sidecars.registry import Workspace
from memtab.transcripts.budget import DEFAULT_MAX_JSON_CHARS, EventBudget
from memtab.transcripts.events import TranscriptEvent, TranscriptFormat
from memtab.transcripts.window import NewestEvents, read_newest_events
from memtab.writer.config import WriterSettings
from memtab.writer.job.dumps import AttemptTrace, RunTrace, write_trace_dump
from memtab.writer.job.judge_tools import JudgeTools
from memtab.writer.job.lesson_tools import LessonTools
from memtab.writer.job.offline_provider import OfflineWriterProvider
from memtab.writer.job.pacing import WriterPlan, plan_run, unasked_plan
from memtab.writer.job.rails import WriterRails
from memtab.writer.job.result import RunOutcome, WriterRunResult
from memtab.writer.job.rules_task import RulesQuestion, Sentence, rule_candidates
from memtab.writer.lessons.digest import DIGEST_CHARS, Digest, digest_of, shown
from memtab.writer.offline.extract import extract_findings
from memtab.writer.offline.findings import Findings
from memtab.writer.offline.notes import (
    MAX_NOTE_CHARS,
    Note,
    notes_to_propose,
    surest_notes,
)
from memtab.writer.prompts import (
    build_judge_message,
    build_lessons_message,
    build_user_message,
    judge_prompt,
    judge_reminder,
    judge_tool_specs,
    lessons_prompt,
    lessons_reminder,
    lessons_tool_specs,
    reminder_prompt,
    system_prompt,
)
from memtab.writer.records import SuggestionOrigin
from memtab.writer.tools import WriterTools

logger = logging.getLogger(__name__)


def asks_for_lessons(provider: ChatProvider) -> bool:
    """Whether a run gives `provider` the lessons task: its replies are asked by JSON schema
    (`OpenAIProvider.structured`, set for a server on this machine), the other providers
    edit the file with `memory_write`."""
    return getattr(provider, "structured", None) is not None


ATTEMPTS = 2
# read, write, (stale) read, write, and room for one mistake.
MAX_STEPS_PER_ATTEMPT = 6
# The stop reason of the reply Memtab answers itself once the tool policy is satisfied.
POLICY_SATISFIED_STOP = "memtab:policy-satisfied"
MANUAL_TRIGGER_ID = "manual"
RUN_LIMIT_HINT = "writer.timeout_s in settings.json (memtab write --timeout) raises it"
FALLBACK_CALL_ID = "memtab_offline_notes"
# How a model's run ended without a usable answer (a cancelled run writes nothing).
_UNUSABLE = {
    "timeout": "timed out",
    "error": "the model failed",
    "spent": "no time for another request",
}


class _StopWhenSatisfied(ProviderWrapper):
    """Wraps the provider: once the attempt satisfied the tool policy, the next "model
    turn" is answered here with an empty final reply, which ends the tool loop without
    another (paid, slow) model call. Tool calls of the same reply still all run."""

    def __init__(self, provider: ChatProvider, tools: WriterTools) -> None:
        super().__init__(provider)
        self._tools = tools

    def complete(
        self, system: str, messages: list[Message], tools: list[ToolSpec], *, cancel: Cancel = None
    ) -> ModelReply:
        if self._tools.tally.satisfied:
            return ModelReply(text="", stop_reason=POLICY_SATISFIED_STOP)
        return self.provider.complete(system, messages, tools, cancel=cancel)


def is_writer_event(event: TranscriptEvent) -> bool:
    """Whether a run looks at the event: sub-agent (sidechain) chatter is left out."""
    return not event.sidechain


def writer_events(events: Iterable[TranscriptEvent]) -> list[TranscriptEvent]:
    """The events a run looks at (`is_writer_event`)."""
    return [event for event in events if is_writer_event(event)]


def load_writer_events(
    path: Path,
    transcript_format: TranscriptFormat | None = None,
    max_json_chars: int = DEFAULT_MAX_JSON_CHARS,
    observe: Callable[[TranscriptEvent], None] | None = None,
) -> NewestEvents:
    """Read a transcript for a run in bounded memory, whatever its size: the newest events
    that fit the budget, redacted (OSError if it cannot be opened). `observe` sees every
    event the run looks at, once its results are in (the offline writer's digest)."""
    return read_newest_events(
        path,
        transcript_format,
        max_json_chars=max_json_chars,
        redact=True,
        include=is_writer_event,
        observe=observe,
    )


def default_trigger_id(events: NewestEvents) -> str:
    """The id a run is filed under: the newest completed assistant turn, else the newest
    event, else "manual"."""
    event = events.newest_completed_turn or events.newest
    return (event.message_id or event.id) if event is not None else MANUAL_TRIGGER_ID


def run_writer(
    home: Home,
    workspace: Workspace,
    events: Sequence[TranscriptEvent] | NewestEvents,
    provider: ChatProvider,
    *,
    trigger_message_id: str | None = None,
    settings: WriterSettings | None = None,
    cancel: threading.Event | None = None,
    known_secrets: Iterable[str] = (),
    max_json_chars: int | None = None,
    clock: Clock = now_ms,
    transcript_path: Path | None = None,
    whole: Findings | None = None,
    pause: Pause | None = None,
) -> WriterRunResult:
    """Run the writer once for `workspace` over `events` (see the module docstring): a
    transcript's events, or what `load_writer_events` read of one (with the same
    `max_json_chars`, when given). `transcript_path`: the file they were read from, named with the
    lines the run writes or suggests (docs/formats.md §20.1). `whole`: what the offline writer
    found in the whole transcript (`providers.read_for_run`), else it reads `events`: a model's
    run proposes those notes, and writes them when the model's answer is not usable.
    `pause`: how the run waits for a model server busy with an earlier request (by default
    `cancel`'s wait, else a sleep; a test's drives its clock).

    `known_secrets` are API keys Memtab holds: they never reach a dump. Never raises for
    a failed run; raises only for programming errors.
    """
    if not isinstance(events, NewestEvents):
        chars = DEFAULT_MAX_JSON_CHARS if max_json_chars is None else max_json_chars
        events = NewestEvents.of(writer_events(events), chars, redact=True)
    budget = events.budget
    resized = max_json_chars is not None and budget.max_json_chars != max_json_chars
    if not budget.redacted or resized:
        raise ValueError("the events were not selected for this run: unredacted or resized")
    settings = settings or WriterSettings()
    trigger = trigger_message_id or default_trigger_id(events)
    run_started_at = clock()
    run_id = new_run_id(run_started_at)
    transcript = str(transcript_path) if transcript_path is not None else None
    if isinstance(provider, OfflineWriterProvider):
        provider.origin = SuggestionOrigin(
            run_id=run_id, workspace_id=workspace.id, transcript_path=transcript
        )
    store = MemoryStore(home, workspace, actor="writer", run_id=run_id)
    # A model's writes pass the run's rails; the offline writer's notes are the
    # transcript's own (its rules find them there).
    told = build_user_message(  # its header, filled: a note may not restate it
        workspace=workspace.display_name,
        project=workspace.project_identity or "",
        memory_path=settings.memory_path,
        memory="",
        events_json="",
        kept=0,
        total=0,
    )
    offline = isinstance(provider, OfflineWriterProvider)
    lessons = not offline and asks_for_lessons(provider)
    if lessons:
        told = build_lessons_message(workspace=workspace.display_name, project="", digest="")
    rails = None if offline else WriterRails(budget.events, told)
    memory = parse_file_path(settings.memory_path)
    limit_s = settings.limit_s(local=_is_local(provider))
    pace = plan = None
    if lessons:
        digest = digest_of(budget.events, min(DIGEST_CHARS, budget.max_json_chars))
        offline_notes = _offline_notes(store, memory, whole or extract_findings(budget.events))
        if pause is None:
            pause = cancel.wait if cancel is not None else time.sleep
        pace, plan = _plan(
            provider, workspace, budget, digest, offline_notes, limit_s, clock, pause
        )
        tools: WriterTools = LessonTools(store, memory, rails, digest, offline_notes)
        if plan.task == "judge":
            question = RulesQuestion(plan.rules) if plan.rules else None
            tools = JudgeTools(store, memory, rails, digest, plan.proposed, question, offline_notes)
    else:
        tools = WriterTools(store, memory, rails)
    run = _Run(limit_s, plan, pace, clock)
    with store.collecting_changes() as written:
        result = _run(
            home,
            workspace,
            budget,
            provider,
            tools,
            trigger,
            settings,
            cancel,
            known_secrets,
            run_started_at,
            run_id,
            run,
        )
    _log(home, workspace, result, provider, written, clock)
    _log_provenance(home, workspace, result, provider, budget, written, transcript, clock)
    return result


def _is_local(provider: ChatProvider) -> bool:
    base_url = getattr(provider, "base_url", None)
    return isinstance(base_url, str) and is_local(base_url)


@dataclass(frozen=True)
class _Run:
    """A run's time: its limit, and on a server on this machine its plan and pace."""

    limit_s: float
    plan: WriterPlan | None
    pace: RunPace | None
    clock: Clock


def _offline_notes(store: MemoryStore, memory: VirtualPath, findings: Findings) -> tuple[Note, ...]:
    """The notes the offline writer would write into the memory file as it is now."""
    try:
        current = store.read(memory)
    except (MemoryStoreError, PathError):
        current = None
    existing = current.content if current is not None else ""
    return tuple(surest_notes(notes_to_propose(existing, findings))[0])


def _plan(
    provider: ChatProvider,
    workspace: Workspace,
    budget: EventBudget,
    digest: Digest,
    proposed: Sequence[Note],
    limit_s: float,
    clock: Clock,
    pause: Pause,
) -> tuple[RunPace | None, WriterPlan]:
    """The pace of a lessons run (None: not a server on this machine) and its plan: the
    notes the offline writer finds (`proposed`), for judging when the lessons task does not
    fit the time."""
    base_url = getattr(provider, "base_url", None)
    served = served_context(base_url, provider.model) if isinstance(base_url, str) else None
    pace = pace_of(provider, limit_s, served, clock, pause)
    if pace is None:
        return None, WriterPlan("lessons")
    unasked = unasked_plan(pace, proposed, probe_seconds(limit_s))
    if unasked is not None:
        return pace, unasked
    project = workspace.project_identity or ""
    lessons = instruction_tokens(lessons_prompt(), lessons_tool_specs()) + estimated_tokens(
        build_lessons_message(workspace=workspace.display_name, project=project, digest=digest.text)
    )

    def judging(notes: Sequence[Note], sentences: Sequence[Sentence]) -> int:
        question = RulesQuestion(tuple(sentences)) if sentences else None
        message = build_judge_message(
            workspace=workspace.display_name,
            project=project,
            notes=shown_notes(notes),
            sentences=question.shown if question is not None else (),
        )
        return instruction_tokens(judge_prompt(), judge_tool_specs()) + estimated_tokens(message)

    candidates = rule_candidates(budget.events)
    return pace, plan_run(pace, lessons, proposed, judging, candidates)


def shown_notes(notes: Sequence[Note]) -> list[tuple[str, str]]:
    """The notes as the judging task shows them: (section, text), on one line, redacted."""
    return [(note.section, shown(note.text, MAX_NOTE_CHARS)) for note in notes]


def _run(
    home: Home,
    workspace: Workspace,
    budget: EventBudget,
    provider: ChatProvider,
    tools: WriterTools,
    trigger: str,
    settings: WriterSettings,
    cancel: threading.Event | None,
    known_secrets: Iterable[str],
    run_started_at: int,
    run_id: str,
    run: _Run,
) -> WriterRunResult:
    started = time.monotonic()
    deadline = started + run.limit_s
    # A model is sent only what may leave the machine; the offline writer is no model.
    outgoing: ChatProvider = (
        provider if isinstance(provider, OfflineWriterProvider) else Redacted(provider)
    )
    plan = run.plan
    setup_error: str | None = None
    existing = shown = ""
    try:
        current = tools.read_current()
        existing = current.content if current is not None else ""
        shown = redact_view(existing).text  # what the model sees of it
        memory_file = str(tools.physical_path())
    except (MemoryStoreError, PathError) as error:
        setup_error = f"cannot read {settings.memory_path}: {error}"
        memory_file = ""

    project = workspace.project_identity or "(none: multi-project workspace)"
    system, reminder = system_prompt(), reminder_prompt()
    if isinstance(tools, JudgeTools):
        system, reminder = judge_prompt(), judge_reminder()
        user_message = build_judge_message(
            workspace=workspace.display_name,
            project=project,
            notes=shown_notes(tools.proposed),
            sentences=tools.sentences,
        )
    elif isinstance(tools, LessonTools):
        system, reminder = lessons_prompt(), lessons_reminder()
        user_message = build_lessons_message(
            workspace=workspace.display_name, project=project, digest=tools.digest.text
        )
    else:
        user_message = build_user_message(
            workspace=workspace.display_name,
            project=project,
            memory_path=settings.memory_path,
            memory=shown,
            events_json=budget.json_text(),
            kept=budget.trimmed_count,
            total=budget.original_count,
        )
    trace = RunTrace(
        run_started_at=run_started_at,
        workspace_id=workspace.id,
        workspace_name=workspace.name,
        trigger_message_id=trigger,
        model_string=f"{provider.name}:{provider.model}",
        timeout_ms=round(run.limit_s * 1000),
        project_path=workspace.project_path,
        workspace_path=workspace.path,
        memory_path=settings.memory_path,
        memory_file=memory_file,
        system_prompt=system,
        existing_memory=shown,
        events_summary=budget.summary(),
        events=budget.items,
        user_message=user_message,
    )
    usage = Usage()
    unusable = ""  # why the model's answer cannot be used, when it cannot
    paced = None
    if run.pace is not None and not isinstance(provider, OfflineWriterProvider):
        fresh = getattr(provider, "fresh_prompt", False) is True
        instructions = instruction_tokens(system, tools.specs)
        paced = Paced(outgoing, provider, run.pace, instructions=instructions, fresh=fresh)
        outgoing = paced
    if plan is not None and plan.says:
        trace.summary = plan.says
        logger.info("Memory writer for %s: %s", workspace.id, plan.says)
    if setup_error is not None:
        trace.error = setup_error
    elif plan is not None and plan.task == "none":
        if plan.unasked:  # the server busy, or too slow to be timed: nothing sent
            trace.error = unusable = plan.unasked
        elif plan.left_out:  # no time to ask about what code found: said, nothing written
            trace.error = f"{plan.says}; {RUN_LIMIT_HINT}"
            unusable = "no time to ask"
        else:  # nothing to judge: nothing worth keeping
            trace.satisfied_memory_tool_policy = True
    else:
        for index in range(ATTEMPTS):
            attempt = AttemptTrace(attempt_index=index + 1)
            trace.attempts.append(attempt)
            messages: list[Message] = [UserMessage(user_message)]
            if index > 0:
                messages.append(UserMessage(reminder))
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                attempt.messages, attempt.aborted = messages, True
                trace.timed_out = True
                trace.error = attempt.error = (
                    f"timed out after {run.limit_s:g} s, the run's time limit; {RUN_LIMIT_HINT}"
                )
                unusable = "timed out"
                break
            tally = tools.start_attempt()
            loop = run_tool_loop(
                _StopWhenSatisfied(outgoing, tools),
                system,
                messages,
                tools.specs,
                tools.execute,
                max_steps=MAX_STEPS_PER_ATTEMPT,
                timeout_s=remaining,
                cancel=cancel,
                timeout_hint=RUN_LIMIT_HINT,
                run_limit_s=run.limit_s,
                may_ask=paced.may_ask if paced is not None else None,
            )
            usage.add(loop.usage)
            _record_attempt(attempt, loop, tools)
            if tally.satisfied:
                trace.satisfied_memory_tool_policy = True
                break
            if loop.stop_reason in ("timeout", "cancelled", "error", "spent"):
                trace.timed_out = loop.stop_reason == "timeout"
                trace.error = attempt.error or loop.detail
                unusable = _UNUSABLE.get(loop.stop_reason, "")
                if loop.stop_reason == "spent" and run.pace is not None and run.pace.busy:
                    unusable = trace.error = BUSY
                break
            attempt.error = "ended without memory_write or no_new_memories"
        else:
            trace.error = (
                f"the model ended {ATTEMPTS} attempts without a successful memory_write "
                "or no_new_memories"
            )
            unusable = "no valid call"

    fell_back_wrote = False
    # A model without a usable answer costs the user no note the offline writer finds.
    cancelled = cancel is not None and cancel.is_set()
    if unusable and not cancelled and isinstance(tools, LessonTools) and tools.offline_notes:
        tally = tools.start_attempt()
        tools.write_offline_notes(FALLBACK_CALL_ID, unusable)
        fell_back_wrote = tally.wrote
        trace.satisfied_memory_tool_policy = tally.satisfied
    if isinstance(tools, LessonTools) and tools.fell_back:
        says = tools.fell_back
        trace.summary = f"{trace.summary}; {says}" if trace.summary else says
        logger.info("Memory writer for %s: %s", workspace.id, says)

    if run.pace is not None:  # what the run's replies measured, for the next run's plan
        remember_run_speed(provider, run.pace, run.clock)
    if isinstance(tools, JudgeTools) and tools.rules_says:
        trace.summary = (
            f"{trace.summary}; {tools.rules_says}" if trace.summary else tools.rules_says
        )
    wrote = fell_back_wrote or any(attempt.wrote for attempt in trace.attempts)
    trace.did_write_memory = wrote
    trace.refused = list(tools.refused)
    outcome: RunOutcome = "failed"
    offline = provider if isinstance(provider, OfflineWriterProvider) else None
    fell_back = tools.fell_back if isinstance(tools, LessonTools) else ""
    suggested = len(offline.proposed) if offline is not None else 0
    if trace.satisfied_memory_tool_policy:
        outcome = "wrote" if wrote else "suggested" if suggested else "no_new_memories"
        trace.error = None
    # The dump keeps mux's vocabulary: to the tool policy a suggest-only run found nothing.
    trace.outcome = "no_new_memories" if outcome == "suggested" else outcome
    trace_path: Path | None = None
    if outcome == "failed" or settings.dump_successful_runs:
        try:
            trace_path = write_trace_dump(
                home, trace, known_secrets=known_secrets, max_dumps=settings.max_dumps
            )
        except OSError as error:
            logger.warning("Cannot write the memory writer trace for %s: %s", workspace.id, error)
    result = WriterRunResult(
        workspace_id=workspace.id,
        workspace_name=workspace.display_name,
        outcome=outcome,
        memory_path=settings.memory_path,
        trigger_message_id=trigger,
        run_started_at=run_started_at,
        model_string=trace.model_string,
        before=existing,
        after=tools.written if wrote and tools.written is not None else existing,
        timed_out=trace.timed_out,
        error=trace.error,
        trace_path=trace_path,
        attempts=len(trace.attempts),
        duration_ms=int((time.monotonic() - started) * 1000),
        usage=usage,
        run_id=run_id,
        suggested_count=suggested,
        left_out_count=(
            offline.left_out if offline is not None else len(plan.left_out) if plan else 0
        ),
        refused=tuple(tools.refused),
        plan=(trace.summary or None) if plan is not None or fell_back else None,
        fallback=fell_back or None,
    )
    log = logger.info if result.ok else logger.warning
    log("Memory writer for %s: %s", workspace.id, result.summary())
    return result


def _log(
    home: Home,
    workspace: Workspace,
    result: WriterRunResult,
    provider: ChatProvider,
    written: list[RecordedChange],
    clock: Clock,
) -> None:
    """Add the run to the runs log, each write an op with its history versions."""
    ops = tuple(
        RunOp(
            command="memory_write",
            path=change.path,
            applied=True,
            files=(FileVersions.from_change(change),),
        )
        for change in written
    )
    log_run(
        home,
        RunEntry(
            id=result.run_id or new_run_id(result.run_started_at),
            at=clock(),
            kind="writer",
            trigger=result.trigger_message_id,
            workspace_id=workspace.id,
            project_path=workspace.project_identity,
            summary=result.summary(),
            ops=ops,
            provider=provider.name,
            model=provider.model,
            status="failed" if result.outcome == "failed" else "ok",
            error=result.error,
            started_at=result.run_started_at,
            usage=TokenUsage.of(result.usage.input_tokens, result.usage.output_tokens),
            trace_dump=result.trace_path.name if result.trace_path is not None else None,
        ),
    )


def _log_provenance(
    home: Home,
    workspace: Workspace,
    result: WriterRunResult,
    provider: ChatProvider,
    budget: EventBudget,
    written: list[RecordedChange],
    transcript: str | None,
    clock: Clock,
) -> None:
    """Where the lines the run wrote came from (docs/formats.md §20.1): the transcript
    window it was shown and its dump; the offline writer also says it note by note."""
    if not written:
        return
    events = budget.events
    window = TranscriptWindow(
        first_message_id=(events[0].message_id or events[0].id) if events else None,
        last_message_id=(events[-1].message_id or events[-1].id) if events else None,
        message_count=len(events),
        transcript_path=transcript,
    )
    notes = provider.written_notes if isinstance(provider, OfflineWriterProvider) else ()
    record = ProvenanceRecord(
        at=clock(),
        kind="writer-run",
        versions=tuple(change.after.id for change in written),
        run_id=result.run_id,
        workspace_id=workspace.id,
        memory_path=result.memory_path,
        window=window,
        trace_dump=result.trace_path.name if result.trace_path is not None else None,
        notes=tuple(
            NoteOrigin(
                line=note.bullet,
                message_ids=note.message_ids,
                workspace_id=workspace.id,
                transcript_path=transcript,
                run_id=result.run_id,
                section=note.section,
            )
            for note in notes
        ),
    )
    log_provenance(home, record)


def _record_attempt(attempt: AttemptTrace, loop: LoopResult, tools: WriterTools) -> None:
    """Copy what the tool loop did into the attempt's trace (without the synthetic stop)."""
    real_replies = [r for r in loop.replies if r.stop_reason != POLICY_SATISFIED_STOP]
    synthetic = len(loop.replies) - len(real_replies)
    attempt.messages = loop.messages[: len(loop.messages) - synthetic]
    attempt.replies = real_replies
    attempt.tool_executions = list(loop.tool_executions)
    attempt.wrote = tools.tally.wrote
    attempt.no_new_memories = tools.tally.no_new_memories
    if tools.tally.satisfied:
        attempt.finish_reason = real_replies[-1].stop_reason if real_replies else "stop"
        return
    if loop.stop_reason in ("timeout", "cancelled", "error"):
        attempt.aborted = loop.stop_reason != "error"
        attempt.finish_reason = "error" if loop.stop_reason == "error" else "aborted"
        attempt.error = loop.detail
    elif loop.stop_reason == "max_steps":
        attempt.finish_reason = "max-steps"
    else:
        attempt.finish_reason = real_replies[-1].stop_reason if real_replies else None
