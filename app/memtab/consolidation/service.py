"""Consolidation runs as the app and the CLI start them: locks, debounce, provider, journal
(docs/formats.md §9.8)."""

from __future__ import annotations

import threading
from collections.abc import Collection
from typing import TYPE_CHECKING

from memtab.consolidation.errors import DebouncedError
from memtab.consolidation.reservations import RunReservation, reserve, running
from memtab.fs.clock import Clock, now_ms
from memtab.fs.config.settings_file import SettingsFileError
from memtab.humanize import absolute_time, relative_time
from memtab.llm.settings import ProviderSettings, resolve_provider_settings
from memtab.llm.types import ProviderError
from memtab.store.home import Home
from memtab.store.sidecars.journal import ConsolidationRecord, Journal, Trigger

if TYPE_CHECKING:  # lazy: the engine (~1.5 MiB) and httpx2 (~6 MiB): see `_runs`
    from memtab.consolidation.engine.runner import RunLimits
    from memtab.consolidation.records import ConsolidationPlan
    from memtab.consolidation.running import ConsolidationProviderFactory, ServiceRuns
    from memtab.llm.http import HttpOptions
    from memtab.llm.loop import StepCallback

__all__ = ["DEBOUNCE_MS", "ConsolidationService", "RunReservation"]

HOUR_MS = 60 * 60 * 1000
DEBOUNCE_MS = 6 * HOUR_MS


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
        """`settings` None: resolved for every run (env and settings file may change);
        `limits` None: the runner's defaults."""
        self.home = home
        self.settings = settings
        self._limits = limits
        self.clock = clock
        self.journal = Journal(home)
        self._provider_factory = provider_factory
        self._http_options = http_options

    def _runs(self) -> ServiceRuns:
        """The run-time half (`running.py`), with this service's settings."""
        # lazy: the engine (~1.7 MiB) with the first run, plan or apply: the window reserves
        # runs here and a child process runs them
        from memtab.consolidation.running import ServiceRuns

        return ServiceRuns(
            self.home,
            settings=self.settings,
            provider_factory=self._provider_factory,
            http_options=self._http_options,
            limits=self._limits,
            clock=self.clock,
            check_debounce=self._check_debounce,
        )

    # --- queries --------------------------------------------------------------------------

    def is_running(self, workspace_id: str) -> bool:
        """Whether a run of this workspace is in flight (or reserved) in this process."""
        return running(self.home, workspace_id)

    def reserve(self, workspace_id: str, trigger: Trigger = "manual") -> RunReservation:
        """Take the workspace's place for a run that starts later (hand it to `run`). Raises
        RunInFlightError when the workspace has a run reserved or going, except for `archive`, which
        queues behind it."""
        return reserve(self.home, workspace_id, trigger)

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
        """Consolidate one workspace's scopes (`scope`: that one alone) and journal the record (see
        module doc). Raises HomeError (unknown workspace), RunInFlightError, DebouncedError,
        LockHeldError, or RunFailedError / RunCancelledError; never journals a failure."""
        return self._runs().run(
            workspace_id,
            trigger=trigger,
            dry_run=dry_run,
            cancel=cancel,
            on_step=on_step,
            check_debounce=check_debounce,
            reservation=reservation,
            run_id=run_id,
            scope=scope,
        )

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
        run_id: str | None = None,
    ) -> ConsolidationPlan:
        """What a run would do (`scope`: of that scope alone), op by op with diffs, without
        touching the home (see `memtab.consolidation.review.plan`). Raises like `run`, the
        failure logged as a failed run `run_id` (as `run` logs one); journals and logs a
        plan nothing else — but with `journal_nothing` (the window's review), a plan
        proposing nothing is the whole run `run_id`, one that changed nothing: journaled and
        logged as `run` journals one, in the same turn (formats §9.4)."""
        return self._runs().plan(
            workspace_id,
            trigger=trigger,
            cancel=cancel,
            on_step=on_step,
            reservation=reservation,
            scope=scope,
            journal_nothing=journal_nothing,
            run_id=run_id,
        )

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
        return self._runs().apply_plan(
            plan, accepted, cancel=cancel, on_step=on_step, run_id=run_id, reservation=reservation
        )

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
