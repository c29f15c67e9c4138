"""The run-time half of `ConsolidationService` (`service.py`): one run, a plan, a plan applied —
what imports the engine (the runner, the review's plans, the offline consolidator, the declines, the
model providers' settings)."""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memtab import __version__
from memtab.consolidation.declined import DeclinedMatcher, record_declined
from memtab.consolidation.engine.run_books import RunBooks, RunIdentity, RunStore
from memtab.consolidation.engine.runner import RunLimits, RunResult, run_consolidation
from memtab.consolidation.errors import (
    ConsolidationError,
    LockHeldError,
    RunCancelledError,
    RunFailedError,
)
from memtab.consolidation.guard import check_run_scope, run_scopes
from memtab.consolidation.offline.provider import OfflineConsolidator
from memtab.consolidation.records import ConsolidationPlan
from memtab.consolidation.reservations import RunReservation, claim, reserve
from memtab.consolidation.review.plan import check_plan, copy_scopes, plan_from_run, scratch_home
from memtab.consolidation.review.plan_apply import applied_summary, apply_ops
from memtab.consolidation.review.plan_check import check_ops
from memtab.fs.clock import Clock
from memtab.fs.config.settings_file import SettingsFileError
from memtab.fs.locking.locks import LockUnavailableError, OwnedLock, interprocess_lock, lock_holder
from memtab.llm.loop import StepCallback
from memtab.llm.settings import ProviderSettings, create_provider, resolve_provider_settings
from memtab.llm.settings_model import CONSOLIDATION_JOB
from memtab.llm.types import OFFLINE_PROVIDER, ChatProvider, ProviderError, close_provider
from memtab.store.catch_up.runs_log import catch_up_runs
from memtab.store.history.runs import new_run_id
from memtab.store.home import CONSOLIDATION_LOCK, Home
from memtab.store.paths import SHARED_SCOPES, Scope
from memtab.store.scopes.memory import MemoryStore
from memtab.store.scopes.scope_store import ScopeStore
from memtab.store.sidecars.journal import TRIGGERS, ConsolidationRecord, RunUsage, Trigger
from memtab.store.sidecars.registry import Workspace, load_registry
from memtab.traces.names import trace_file_name
from memtab.traces.schema import CONSOLIDATION_KIND, DUMP_SCHEMA_VERSION, DumpRecord
from memtab.writer.config import DEFAULT_MAX_DUMPS
from memtab.writer.job.dumps import AttemptTrace, save_dump

if TYPE_CHECKING:  # lazy: httpx2 (~6 MiB) loads with a model's provider, never offline
    from memtab.llm.http import HttpOptions

logger = logging.getLogger(__name__)

# While waiting for another process's run, how often to look again (and at `cancel`).
_WAIT_SLICE_S = 0.25
# A run that cannot start says so within 2 s (docs/formats.md §9.1): a short wait for the
# runs log (an append holds it a millisecond; its catch-up is done next time otherwise),
# then the rest for the scopes.
CATCH_UP_WAIT_S = 0.2
SCOPE_WAIT_S = 1.8
"""How long a run waits for a scope another program holds before failing (an edit holds
it about a millisecond)."""


class ConsolidationLock:
    """The home's consolidation lock: `with lock.hold(workspace_id):` around a run."""

    def __init__(self, home: Home) -> None:
        self._lock = OwnedLock(home.lock_path(CONSOLIDATION_LOCK))

    @property
    def held(self) -> bool:
        return self._lock.held

    @contextlib.contextmanager
    def hold(
        self, workspace_id: str, *, wait_s: float = 0.0, cancel: threading.Event | None = None
    ) -> Iterator[None]:
        """Hold the lock for the block, waiting up to `wait_s` for another holder. Raises
        LockHeldError when the wait runs out (naming the holder), and RunCancelledError when
        `cancel` is set while waiting."""
        deadline = time.monotonic() + wait_s
        while True:
            try:
                self._lock.acquire(
                    min(_WAIT_SLICE_S, max(deadline - time.monotonic(), 0.0)),
                    workspaceId=workspace_id,
                )
                break
            except LockUnavailableError:
                if time.monotonic() >= deadline:
                    raise LockHeldError(self._busy_message()) from None
            if cancel is not None and cancel.is_set():
                raise RunCancelledError("the consolidation run was cancelled while it waited")
        try:
            yield
        finally:
            self._lock.release()

    def _busy_message(self) -> str:
        holder = self._lock.holder()
        if holder is None:
            who, what = "another Memtab process", ""
        else:
            who = f"another Memtab process ({holder.describe()})"
            what = f" (workspace {holder.details.get('workspaceId') or '?'})"
        return f"{who} is consolidating this memory home{what}; try again when it has finished"


def check_scopes_free(
    store: ScopeStore, wait_s: float = SCOPE_WAIT_S, scopes: Sequence[Scope] = SHARED_SCOPES
) -> None:
    """LockHeldError, naming the holder where the system tells, when another program has
    kept one of the store's scopes (of `scopes`: those the run changes) locked for
    `wait_s` (see the module doc)."""
    for scope in scopes:  # a run never changes a session scope
        if store.unavailable_reason(scope):
            continue
        path = store.scope_lock_path(scope)
        try:
            with interprocess_lock(path, timeout_s=wait_s):
                pass
        except LockUnavailableError:
            who = lock_holder(path) or "another program"
            raise LockHeldError(
                f"the {scope.value} memory scope is locked by {who}, for over {wait_s:g} s; "
                "the run did not start and nothing was changed — try again once it lets go "
                f"(its lock: {path})"
            ) from None


def dump_record(
    run: RunIdentity, timeout_s: float, provider: ChatProvider, result: RunResult
) -> DumpRecord:
    """The dump of a run: its header, the messages of its one conversation, its replies
    and tool calls, and what its tools did."""
    loop = result.loop
    changed = any(op.applied for op in result.ops)
    failure = str(result.failure) if result.failure is not None else None
    attempt = AttemptTrace(
        attempt_index=1,
        messages=list(loop.messages),
        replies=list(loop.replies),
        tool_executions=list(loop.tool_executions),
        finish_reason=loop.stop_reason,
        wrote=changed,
        aborted=loop.stop_reason in ("timeout", "cancelled"),
        error=failure,
    )
    first = loop.messages[0] if loop.messages else None
    optional: dict[str, Any] = {"error": failure} if failure is not None else {}
    if result.record is not None:
        optional["summary"] = result.record.summary
    return DumpRecord(
        schema_version=DUMP_SCHEMA_VERSION,
        run_started_at=run.started_at,
        workspace_id=run.workspace.id,
        workspace_name=run.workspace.display_name,
        trigger_message_id=run.run_id,
        model_string=f"{provider.name}:{provider.model}",
        timeout_ms=round(timeout_s * 1000),
        timed_out=loop.stop_reason == "timeout",
        did_write_memory=changed,
        project_path=run.workspace.project_identity,
        workspace_path=run.workspace.path,
        system_prompt=result.system_prompt,
        user_message=getattr(first, "text", None),
        attempts=(attempt.to_record(),),
        outcome="failed" if failure is not None else "changed" if changed else "no_changes",
        memtab={"version": __version__},
        kind=CONSOLIDATION_KIND,
        run_id=run.run_id,
        trigger=run.trigger,
        **optional,
    )


AUTOMATIC_TRIGGERS: tuple[Trigger, ...] = ("launch", "compaction")
LOCK_WAIT_MARGIN_S = 60.0

ConsolidationProviderFactory = Callable[[MemoryStore], ChatProvider]
"""Makes the provider of one consolidation run, given the store it will consolidate."""


def _check_trigger(trigger: Trigger) -> None:
    """Refuse a trigger mux does not know (callers pass text from a command line)."""
    if trigger not in TRIGGERS:
        raise ConsolidationError(
            f"unknown trigger {trigger!r}; expected one of {', '.join(TRIGGERS)}"
        )


class ServiceRuns:
    """Runs, plans and applies plans of one home's workspaces as `ConsolidationService`
    describes them (its module docstring), with the service's settings."""

    def __init__(
        self,
        home: Home,
        *,
        settings: ProviderSettings | None,
        provider_factory: ConsolidationProviderFactory | None,
        http_options: HttpOptions | None,
        limits: RunLimits | None,
        clock: Clock,
        check_debounce: Callable[[str], None],
    ) -> None:
        """`check_debounce(workspace_id)` raises DebouncedError when an automatic run of
        the workspace must wait; `limits` None: the runner's defaults."""
        self.home = home
        self.settings = settings
        self.limits = limits or RunLimits()
        self.clock = clock
        self._provider_factory = provider_factory
        self._http_options = http_options
        self._check_debounce = check_debounce
        self._secrets: tuple[str, ...] = ()

    def run(
        self,
        workspace_id: str,
        *,
        trigger: Trigger,
        dry_run: bool,
        cancel: threading.Event | None,
        on_step: StepCallback | None,
        check_debounce: bool | None,
        reservation: RunReservation | None,
        run_id: str | None,
        scope: str | None,
    ) -> ConsolidationRecord:
        """`ConsolidationService.run`."""
        _check_trigger(trigger)
        workspace = load_registry(self.home).require_workspace(workspace_id)
        if check_debounce if check_debounce is not None else trigger in AUTOMATIC_TRIGGERS:
            self._check_debounce(workspace.notebook_id)  # a task tree's runs are its notebook's
        run_id = run_id or new_run_id(self.clock())
        started_at = self.clock()
        store = RunStore(
            self.home, workspace, count_usage=not dry_run, clock=self.clock, run_id=run_id
        )
        run_scope = check_run_scope(store, scope)
        scopes = run_scopes(run_scope)
        with self._turn(workspace_id, trigger, cancel, on_step, reservation):
            provider = self._make_provider(store, scopes)
            try:
                named = (trigger, provider.name or "unknown", provider.model or "")
                run = RunIdentity(run_id, started_at, workspace, *named, scope=run_scope)
                books = None
                if not dry_run:
                    check_scopes_free(store, scopes=scopes)
                    books = RunBooks(self.home, store, run, self.clock)
                    books.begin()
                result = run_consolidation(
                    provider,
                    store,
                    trigger=trigger,
                    dry_run=dry_run,
                    limits=self.limits,
                    cancel=cancel,
                    on_step=on_step,
                    clock=self.clock,
                    before_dispatch=books.attempt if books is not None else None,
                    declined=DeclinedMatcher.of(self.home, store),
                    scopes=scopes,
                )
                # A dry run is on no record and changes nothing: only a model's words, or
                # a failure, are worth a dump there.
                offline_dry_run = dry_run and provider.name == OFFLINE_PROVIDER
                dump = None
                if not offline_dry_run or result.failure is not None:
                    dump = self._dump(run, provider, result)
                if books is None:
                    if result.failure is not None:
                        raise result.failure
                    assert result.record is not None
                    record = result.record
                else:  # under the lock: the next holder sees this record
                    record = books.finish(
                        result.record, result.run_ops, failure=result.failure, trace_dump=dump
                    )
            finally:
                store.flush_reads()
                _close(provider)
        logger.info(
            "consolidated %s (%s): %d of %d ops applied — %s",
            workspace.id,
            trigger,
            record.applied_count,
            len(record.ops),
            record.summary,
        )
        return record

    @contextlib.contextmanager
    def _turn(
        self,
        workspace_id: str,
        trigger: Trigger,
        cancel: threading.Event | None,
        on_step: StepCallback | None,
        reservation: RunReservation | None = None,
    ) -> Iterator[None]:
        """The workspace's turn in this process (`reservation`, else one taken now), then
        the home's cross-process lock."""

        def report_wait(message: str) -> None:
            if on_step is not None:
                on_step(0, message)

        if reservation is None:
            reservation = reserve(self.home, workspace_id, trigger)
        elif reservation.workspace_id != workspace_id:
            raise ConsolidationError(f"the reservation is for {reservation.workspace_id}")
        with claim(reservation, cancel=cancel, on_wait=report_wait):
            # An archive pass is the workspace's last chance: it waits out another
            # process's run instead of being refused.
            wait_s = self.limits.timeout_s + LOCK_WAIT_MARGIN_S if trigger == "archive" else 0.0
            with ConsolidationLock(self.home).hold(workspace_id, wait_s=wait_s, cancel=cancel):
                # The journal keeps one record per workspace: log the one this run's
                # record will replace (mux's, say) before it is gone.
                catch_up_runs(self.home, consolidation_held=True, wait_s=CATCH_UP_WAIT_S)
                yield

    def plan(
        self,
        workspace_id: str,
        *,
        trigger: Trigger,
        cancel: threading.Event | None,
        on_step: StepCallback | None,
        reservation: RunReservation | None,
        scope: str | None,
        journal_nothing: bool,
        run_id: str | None,
    ) -> ConsolidationPlan:
        """`ConsolidationService.plan`."""
        _check_trigger(trigger)
        workspace = load_registry(self.home).require_workspace(workspace_id)
        plan_started = self.clock()
        plan_id = new_run_id(plan_started).replace("run-", "plan-", 1)
        run_id = run_id or new_run_id(plan_started)
        real = MemoryStore(self.home, workspace, record_history=False)
        run_scope = check_run_scope(real, scope)
        scopes = run_scopes(run_scope)
        with (
            self._turn(workspace_id, trigger, cancel, on_step, reservation),
            scratch_home() as scratch_dir,
        ):
            scratch = Home(Path(scratch_dir) / "home")
            copy_scopes(real, scratch, scopes=scopes)
            store = RunStore(scratch, workspace, clock=self.clock, run_id=plan_id)
            provider = self._make_provider(store, scopes)
            try:
                result = run_consolidation(
                    provider,
                    store,
                    trigger=trigger,
                    limits=self.limits,
                    cancel=cancel,
                    on_step=on_step,
                    clock=self.clock,
                    prompt_home=self.home,
                    declined=DeclinedMatcher.of(self.home, store),
                    scopes=scopes,
                )
                named = (trigger, provider.name, provider.model)
                planning = RunIdentity(plan_id, plan_started, workspace, *named, scope=run_scope)
                dump = self._dump(planning, provider, result)
                if result.failure is not None:  # on record as a failed run, then raised
                    failed = replace(planning, run_id=run_id, plan_id=plan_id)
                    books = RunBooks(self.home, store, failed, self.clock)
                    books.finish(None, (), failure=result.failure, trace_dump=dump)
                    raise result.failure  # (finish raised it already)
                plan = plan_from_run(
                    plan_id=plan_id,
                    created_at=self.clock(),
                    home=self.home,
                    scratch=scratch,
                    workspace=workspace,
                    trigger=trigger,
                    result=result,
                    provider=provider.name,
                    model=provider.model,
                    scope=run_scope,
                    trace_dump=dump,
                )
            finally:
                _close(provider)
            if journal_nothing and not plan.proposed:
                store = RunStore(self.home, workspace, clock=self.clock, run_id=run_id)
                self._apply(plan, set(), store, workspace, run_id, self.clock())
            return plan

    def apply_plan(
        self,
        plan: ConsolidationPlan,
        accepted: Collection[int] | None,
        *,
        cancel: threading.Event | None,
        on_step: StepCallback | None,
        run_id: str | None,
        reservation: RunReservation | None,
    ) -> ConsolidationRecord:
        """`ConsolidationService.apply_plan`."""
        chosen = {op.index for op in plan.proposed} if accepted is None else set(accepted)
        check_plan(plan, self.home, chosen)
        workspace = load_registry(self.home).require_workspace(plan.workspace_id)
        run_id = run_id or new_run_id(self.clock())
        started_at = self.clock()
        store = RunStore(self.home, workspace, clock=self.clock, run_id=run_id)
        try:  # the changes left out are not proposed again (formats §9.7)
            record_declined(self.home, store, plan, chosen)
        except OSError as error:  # a lock's timeout too
            logger.warning("Could not write down the changes declined in review: %s", error)
        with self._turn(workspace.id, plan.trigger, cancel, on_step, reservation):
            return self._apply(plan, chosen, store, workspace, run_id, started_at)

    def _apply(
        self,
        plan: ConsolidationPlan,
        chosen: set[int],
        store: RunStore,
        workspace: Workspace,
        run_id: str,
        started_at: int,
    ) -> ConsolidationRecord:
        """Apply `chosen` of `plan` to `store` as the run `run_id` and journal and log it, in
        the workspace's turn its caller holds."""
        try:
            named = (plan.trigger, plan.provider or "unknown", plan.model or "")
            planned = (plan.id, len(chosen), plan.scope)
            run = RunIdentity(run_id, started_at, workspace, *named, *planned)
            books = RunBooks(self.home, store, run, self.clock)
            checked = check_ops(store, plan)  # a plan changed since: nothing applied
            check_scopes_free(store, scopes=run_scopes(plan.scope))
            books.begin()
            budget, before = self.limits.budget, books.attempt
            applied = apply_ops(store, plan, chosen, checked, budget=budget, before_dispatch=before)
            record = ConsolidationRecord(
                last_run_at=self.clock(),
                trigger=plan.trigger,
                summary=applied_summary(plan, applied),
                ops=applied.ops,
                usage=RunUsage.of(plan.input_tokens, plan.output_tokens),
            )
            record = books.finish(
                record, applied.run_ops, stopped=applied.stopped, trace_dump=plan.trace_dump
            )
        finally:
            store.flush_reads()
        logger.info("applied plan %s to %s: %s", plan.id, workspace.id, record.summary)
        return record

    def _dump(self, run: RunIdentity, provider: ChatProvider, result: RunResult) -> str | None:
        """Write the run's trace dump (a model's or the offline consolidator's, whatever
        its end) and name it in the failure; the dump's file name, or None (logged)."""
        try:
            path = save_dump(
                self.home.consolidation_trace_dir(run.workspace.id),
                trace_file_name(run.started_at, run.run_id),
                dump_record(run, self.limits.timeout_s, provider, result),
                known_secrets=self._secrets,
                max_dumps=DEFAULT_MAX_DUMPS,
            )
        except OSError as error:
            why = error.strerror or error
            logger.warning("Cannot write the consolidation trace of %s: %s", run.workspace.id, why)
            return None
        if result.failure is not None:
            result.failure.trace_path = path
        return path.name

    def _make_provider(
        self, store: MemoryStore, scopes: Sequence[Scope] = SHARED_SCOPES
    ) -> ChatProvider:
        if self._provider_factory is not None:
            return self._provider_factory(store)
        try:
            settings = self.settings or resolve_provider_settings()
            self._secrets = (settings.api_key,) if settings.api_key else ()
            if settings.is_offline:
                return OfflineConsolidator(store, budget=self.limits.budget, scopes=scopes)
            return create_provider(settings, options=self._http_options, job=CONSOLIDATION_JOB)
        except (ProviderError, SettingsFileError) as error:
            raise RunFailedError("config", str(error)) from None


def _close(provider: ChatProvider) -> None:
    try:
        close_provider(provider)
    except Exception:  # closing must never hide the run's own result
        logger.exception("closing the %s provider failed", provider.name)
