"""Consolidation runs as the app and the CLI start them: locks, debounce, provider, journal.

`ConsolidationService.run(workspace_id, trigger=...)` is the one entry point:

- One run per workspace at a time in this process: a second trigger gets
  `RunInFlightError` ("a consolidation run is already in flight"), except `archive`,
  which waits for the running one and then runs. Runs of different workspaces of one
  home also take turns in this process (every run may edit the global scope). This
  service is the one owner of that rule: a caller that queues a run for later (the GUI)
  takes its place with `reserve()` at once and hands the reservation to `run()`, so a
  queued run counts as in flight too (`is_running`).
- Across processes, a lock (`lock.ConsolidationLock`) keeps two Memtab processes from
  consolidating one home at once; the OS releases a crashed holder's lock at once. A run
  refused by another process's lock gets `LockHeldError` — an archive run waits for it
  instead (up to the run timeout plus a minute).
- Debounce: automatic triggers (launch, compaction) wait 6 h after
  `workspaces[id].lastRunAt`; manual and archive bypass it (`DebouncedError` says when the
  next automatic run may start). The launch sweep applies its own rules and bypasses this.
- A finished run is journaled under the workspace, and under its project when it has
  one — also when it changed nothing (`ops: []`, "no changes needed"). A failed,
  timed-out or cancelled run raises `RunFailedError` and writes nothing, so it sets no
  debounce anchor. A dry run is returned but not journaled and records no usage: it
  must not count as coverage, and it leaves the home as it found it.
- Archived workspaces: manual (and archive) runs are allowed — the user asked, and an
  archived workspace's memory still exists; only the launch sweep skips them.
- Every run that is not a dry run — failed ones too, with what they changed before they
  failed — is added to Memtab's runs log (`memtab.store.history.runs`) with its ops and
  the history versions each made; its changes are recorded as the `consolidator`'s
  under the run's id.
- Review before apply: `plan` runs the consolidator on a scratch copy of the scopes and
  returns a `ConsolidationPlan`; `apply_plan` applies the accepted ops under the same
  locks, guard, budget, journal and runs log (`memtab.consolidation.review.plan`).
- One scope alone (`scope`: "Consolidate this scope", docs/formats.md §9.8): the run, its
  plan and its apply see and change that scope's files only (`guard.run_scopes`), and it
  is journaled where mux's journal reads that scope alone — a project's run under its
  project only — or, global and workspace, in `memtab/scope-runs.json`
  (`store.sidecars.scope_runs`); the runs log has it with its `scope`.

The provider comes from `memtab.llm.settings` (flags > env > settings file), "offline"
meaning Memtab's built-in consolidator; a `provider_factory` replaces that (tests).
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
from collections.abc import Callable, Collection, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from memtab.consolidation.engine.lock import CATCH_UP_WAIT_S, ConsolidationLock, check_scopes_free
from memtab.consolidation.engine.run_books import RunBooks, RunIdentity
from memtab.consolidation.engine.run_store import RunStore
from memtab.consolidation.errors import (
    ConsolidationError,
    DebouncedError,
    RunCancelledError,
    RunFailedError,
    RunInFlightError,
)
from memtab.consolidation.guard import check_run_scope, run_scopes
from memtab.fs.clock import Clock, now_ms
from memtab.fs.config.settings_file import SettingsFileError
from memtab.humanize import absolute_time, relative_time
from memtab.llm.settings import ProviderSettings, create_provider, resolve_provider_settings
from memtab.llm.types import ChatProvider, ProviderError
from memtab.store.catch_up.runs_log import catch_up_runs
from memtab.store.history.runs import new_run_id
from memtab.store.home import Home
from memtab.store.paths import SHARED_SCOPES, Scope
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.journal import (
    TRIGGERS,
    ConsolidationRecord,
    Journal,
    RunScope,
    RunUsage,
    Trigger,
)
from memtab.store.sidecars.registry import Workspace, load_registry

if TYPE_CHECKING:  # lazy: the engine (~1 MiB) and httpx (~8 MiB): see below
    # The engine (the runner, the offline consolidator, plans) and the HTTP client are
    # imported by the first run in this process: the window only reserves runs here, and
    # runs them in a child process (`job.py`), so it never loads them.
    from memtab.consolidation.engine.runner import RunLimits
    from memtab.consolidation.records import ConsolidationPlan
    from memtab.llm.http import HttpOptions
    from memtab.llm.loop import StepCallback

logger = logging.getLogger(__name__)

HOUR_MS = 60 * 60 * 1000
DEBOUNCE_MS = 6 * HOUR_MS
AUTOMATIC_TRIGGERS: tuple[Trigger, ...] = ("launch", "compaction")
_WAIT_SLICE_S = 0.05
LOCK_WAIT_MARGIN_S = 60.0

RunAt = tuple[str, Workspace, int]
"""A run's id, its workspace and when it started."""

ConsolidationProviderFactory = Callable[[MemoryStore], ChatProvider]
"""Makes the provider of one consolidation run, given the store it will consolidate."""


class RunReservation:
    """A workspace's place in this process's consolidation runs, held from the moment a
    run is asked for until it has ended (`ConsolidationService.reserve`)."""

    def __init__(self, slots: _RunSlots, home_key: str, workspace_id: str) -> None:
        self._slots = slots
        self.home_key = home_key
        self.workspace_id = workspace_id

    def release(self) -> None:
        """Give the place up (the run ended, or will never start); safe to repeat."""
        self._slots.release(self)


class _RunSlots:
    """Which workspaces have a run reserved or going in this process, in order, and which
    home is busy."""

    def __init__(self) -> None:
        self._condition = threading.Condition()
        self._reserved: dict[tuple[str, str], list[RunReservation]] = {}
        self._busy_homes: dict[str, str] = {}

    def reserve(self, home_key: str, workspace_id: str, *, queue: bool) -> RunReservation:
        """A place for a run; RunInFlightError when the workspace has one, unless `queue`."""
        with self._condition:
            holders = self._reserved.setdefault((home_key, workspace_id), [])
            if holders and not queue:
                raise RunInFlightError(workspace_id)
            reservation = RunReservation(self, home_key, workspace_id)
            holders.append(reservation)
            return reservation

    def release(self, reservation: RunReservation) -> None:
        key = (reservation.home_key, reservation.workspace_id)
        with self._condition:
            holders = self._reserved.get(key, [])
            if reservation in holders:
                holders.remove(reservation)
                if not holders:
                    del self._reserved[key]
                self._condition.notify_all()

    def running(self, home_key: str, workspace_id: str) -> bool:
        with self._condition:
            return (home_key, workspace_id) in self._reserved

    def _wait(self, cancel: threading.Event | None) -> None:
        if cancel is not None and cancel.is_set():
            raise RunCancelledError("the consolidation run was cancelled while it waited")
        self._condition.wait(_WAIT_SLICE_S)

    def _first(self, reservation: RunReservation) -> bool:
        holders = self._reserved.get((reservation.home_key, reservation.workspace_id), [])
        if reservation not in holders:
            raise RunCancelledError("the consolidation run was withdrawn before it started")
        return holders[0] is reservation

    @contextlib.contextmanager
    def claim(
        self,
        reservation: RunReservation,
        *,
        cancel: threading.Event | None,
        on_wait: Callable[[str], None],
    ) -> Iterator[None]:
        """Wait for the reservation's turn in its workspace, then the home's turn, for the
        block; the reservation is released after it."""
        home_key, workspace_id = reservation.home_key, reservation.workspace_id
        try:
            with self._condition:
                if not self._first(reservation):
                    on_wait(f"waiting for the running consolidation of {workspace_id}")
                while not self._first(reservation):
                    self._wait(cancel)
                if home_key in self._busy_homes:
                    on_wait(f"waiting for the consolidation of {self._busy_homes[home_key]}")
                while home_key in self._busy_homes:
                    self._wait(cancel)
                self._busy_homes[home_key] = workspace_id
            try:
                yield
            finally:
                with self._condition:
                    del self._busy_homes[home_key]
                    self._condition.notify_all()
        finally:
            reservation.release()


_slots = _RunSlots()


def _check_trigger(trigger: Trigger) -> None:
    """Refuse a trigger mux does not know (callers pass text from a command line)."""
    if trigger not in TRIGGERS:
        raise ConsolidationError(
            f"unknown trigger {trigger!r}; expected one of {', '.join(TRIGGERS)}"
        )


def _home_key(home: Home) -> str:
    return os.path.realpath(home.root)


def _in_text(ms: int) -> str:
    minutes = max(1, round(ms / 60_000))
    hours, minutes = divmod(minutes, 60)
    if hours and minutes:
        return f"in {hours} h {minutes} min"
    return f"in {hours} h" if hours else f"in {minutes} min"


class ConsolidationService:
    """Starts consolidation runs for the workspaces of one memory home (thread-safe)."""

    def __init__(
        self,
        home: Home,
        *,
        settings: ProviderSettings | None = None,
        provider_factory: ConsolidationProviderFactory | None = None,
        http_options: HttpOptions | None = None,
        limits: RunLimits | None = None,
        clock: Clock = now_ms,
    ) -> None:
        """`settings` None: resolved for every run (env and settings file may change)."""
        self.home = home
        self.settings = settings
        self._limits = limits
        self.clock = clock
        self.journal = Journal(home)
        self._provider_factory = provider_factory
        self._http_options = http_options

    @property
    def limits(self) -> RunLimits:
        """Bounds of every run (the runner's defaults unless given)."""
        if self._limits is None:
            from memtab.consolidation.engine.runner import RunLimits  # lazy: the engine

            self._limits = RunLimits()
        return self._limits

    # --- queries --------------------------------------------------------------------------

    def is_running(self, workspace_id: str) -> bool:
        """Whether a run of this workspace is in flight (or reserved) in this process."""
        return _slots.running(_home_key(self.home), workspace_id)

    def reserve(self, workspace_id: str, trigger: Trigger = "manual") -> RunReservation:
        """Take the workspace's place for a run that starts later (hand it to `run`).

        Raises RunInFlightError when the workspace has a run reserved or going, except
        for `archive`, which queues behind it. Release the reservation if the run never
        starts; `run` releases it when it ends.
        """
        return _slots.reserve(_home_key(self.home), workspace_id, queue=trigger == "archive")

    def describe_provider(self) -> str:
        """What runs will use, safe to show (never a key)."""
        if self._provider_factory is not None:
            return "custom provider"
        try:
            settings = self.settings or resolve_provider_settings()
        except (ProviderError, SettingsFileError) as error:
            return f"misconfigured: {error}"
        return settings.describe()

    # --- running ----------------------------------------------------------------------------

    def run(
        self,
        workspace_id: str,
        *,
        trigger: Trigger = "manual",
        dry_run: bool = False,
        cancel: threading.Event | None = None,
        on_step: StepCallback | None = None,
        check_debounce: bool | None = None,
        reservation: RunReservation | None = None,
        run_id: str | None = None,
        scope: str | None = None,
    ) -> ConsolidationRecord:
        """Consolidate one workspace's scopes (`scope`: that one alone) and journal the
        record (see module doc).

        Raises HomeError (unknown workspace), RunInFlightError, DebouncedError,
        LockHeldError, or RunFailedError / RunCancelledError; never journals a failure.
        `check_debounce` None applies the 6 h debounce to automatic triggers only.
        `reservation` is the place `reserve` took for this run (else one is taken now).
        `run_id` names the run in history and the runs log (default: a new id).
        """
        # lazy: the engine (~1.5 MiB, ~25 ms) loads with a run, never in a settled window
        from memtab.consolidation.declined import DeclinedMatcher
        from memtab.consolidation.engine.runner import run_consolidation

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
                books = None
                if not dry_run:
                    check_scopes_free(store, scopes=scopes)
                    books = self._books(
                        store, run_id, started_at, workspace, trigger, provider, scope=run_scope
                    )
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
                if books is None:
                    if result.failure is not None:
                        raise result.failure
                    assert result.record is not None
                    record = result.record
                else:  # under the lock: the next holder sees this record
                    record = books.finish(result.record, result.run_ops, failure=result.failure)
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

    def _books(
        self,
        store: RunStore,
        run_id: str,
        started_at: int,
        workspace: Workspace,
        trigger: Trigger,
        provider: ChatProvider | tuple[str | None, str | None],
        plan_id: str | None = None,
        planned: int | None = None,
        *,
        scope: RunScope | None = None,
    ) -> RunBooks:
        """The records of a run that changes memory (`run_books`)."""
        name, model = provider if isinstance(provider, tuple) else (provider.name, provider.model)
        run = (run_id, started_at, workspace, trigger, name or "unknown", model or "")
        identity = RunIdentity(*run, plan_id, planned, scope)
        return RunBooks(self.home, store, identity, self.clock)

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
            reservation = self.reserve(workspace_id, trigger)
        elif reservation.workspace_id != workspace_id:
            raise ConsolidationError(f"the reservation is for {reservation.workspace_id}")
        with _slots.claim(reservation, cancel=cancel, on_wait=report_wait):
            # An archive pass is the workspace's last chance: it waits out another
            # process's run instead of being refused.
            wait_s = self.limits.timeout_s + LOCK_WAIT_MARGIN_S if trigger == "archive" else 0.0
            with ConsolidationLock(self.home).hold(workspace_id, wait_s=wait_s, cancel=cancel):
                # The journal keeps one record per workspace: log the one this run's
                # record will replace (mux's, say) before it is gone.
                catch_up_runs(self.home, consolidation_held=True, wait_s=CATCH_UP_WAIT_S)
                yield

    # --- review before apply ----------------------------------------------------------------

    def plan(
        self,
        workspace_id: str,
        *,
        trigger: Trigger = "manual",
        cancel: threading.Event | None = None,
        on_step: StepCallback | None = None,
        reservation: RunReservation | None = None,
        scope: str | None = None,
        journal_nothing: bool = False,
    ) -> ConsolidationPlan:
        """What a run would do (`scope`: of that scope alone), op by op with diffs, without
        touching the home (see `memtab.consolidation.review.plan`). Raises like `run`;
        journals and logs nothing — but with `journal_nothing` (the window's review), a
        plan proposing nothing is the whole run, one that changed nothing: journaled and
        logged as `run` journals one, in the same turn (formats §9.4)."""
        # lazy: the engine (~1.5 MiB, ~25 ms) loads with a run, never in a settled window
        from memtab.consolidation.declined import DeclinedMatcher
        from memtab.consolidation.engine.runner import run_consolidation
        from memtab.consolidation.review.plan import copy_scopes, plan_from_run, scratch_home

        _check_trigger(trigger)
        workspace = load_registry(self.home).require_workspace(workspace_id)
        plan_id = new_run_id(self.clock()).replace("run-", "plan-", 1)
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
                if result.failure is not None:
                    raise result.failure
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
                )
            finally:
                _close(provider)
            if journal_nothing and not plan.proposed:
                run_id = new_run_id(self.clock())
                store = RunStore(self.home, workspace, clock=self.clock, run_id=run_id)
                self._apply(plan, set(), store, (run_id, workspace, self.clock()))
            return plan

    def apply_plan(
        self,
        plan: ConsolidationPlan,
        accepted: Collection[int] | None = None,
        *,
        cancel: threading.Event | None = None,
        on_step: StepCallback | None = None,
        run_id: str | None = None,
        reservation: RunReservation | None = None,
    ) -> ConsolidationRecord:
        """Apply the accepted ops of a plan (None: every proposed op) and journal the run.

        Each op is refused (not applied, with a note) when its files changed since the
        plan. Raises PlanError (another home, unknown op numbers), HomeError, and the
        errors of `run` about locks; journaled and logged like a run otherwise.
        """
        # lazy: the engine (~1.5 MiB, ~25 ms) loads with a run, never in a settled window
        from memtab.consolidation.declined import record_declined
        from memtab.consolidation.review.plan import check_plan

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
            return self._apply(plan, chosen, store, (run_id, workspace, started_at))

    def _apply(
        self, plan: ConsolidationPlan, chosen: set[int], store: RunStore, run: RunAt
    ) -> ConsolidationRecord:
        """Apply `chosen` of `plan` to `store` as the run `run` (its id, workspace and
        start) and journal and log it, in the workspace's turn its caller holds."""
        run_id, workspace, started_at = run
        # lazy: the engine (~1.5 MiB, ~25 ms) loads with a run, never in a settled window
        from memtab.consolidation.review.plan_apply import applied_summary, apply_ops
        from memtab.consolidation.review.plan_check import check_ops

        try:
            provider = (plan.provider, plan.model)
            books = self._books(
                store,
                run_id,
                started_at,
                workspace,
                plan.trigger,
                provider,
                plan.id,
                len(chosen),
                scope=plan.scope,
            )
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
            record = books.finish(record, applied.run_ops, stopped=applied.stopped)
        finally:
            store.flush_reads()
        logger.info("applied plan %s to %s: %s", plan.id, workspace.id, record.summary)
        return record

    def _check_debounce(self, workspace_id: str) -> None:
        record = self.journal.load().workspaces.get(workspace_id)
        if record is None:
            return
        now = self.clock()
        next_at = record.last_run_at + DEBOUNCE_MS
        if next_at <= now:
            return
        raise DebouncedError(
            workspace_id,
            f"workspace {workspace_id} was consolidated {relative_time(record.last_run_at, now)} "
            f"({record.trigger}); automatic runs wait 6 h, the next may start "
            f"{_in_text(next_at - now)} ({absolute_time(next_at)}); a manual run may start now",
            next_at,
        )

    def _make_provider(
        self, store: MemoryStore, scopes: Sequence[Scope] = SHARED_SCOPES
    ) -> ChatProvider:
        if self._provider_factory is not None:
            return self._provider_factory(store)
        try:
            settings = self.settings or resolve_provider_settings()
            if settings.is_offline:
                # lazy: the offline consolidator (~0.9 MiB) only for an offline run
                from memtab.consolidation.offline.provider import OfflineConsolidator

                return OfflineConsolidator(store, budget=self.limits.budget, scopes=scopes)
            return create_provider(settings, options=self._http_options)
        except (ProviderError, SettingsFileError) as error:
            raise RunFailedError("config", str(error)) from None


def _close(provider: ChatProvider) -> None:
    close = getattr(provider, "close", None)
    if callable(close):
        try:
            close()
        except Exception:  # closing must never hide the run's own result
            logger.exception("closing the %s provider failed", provider.name)
