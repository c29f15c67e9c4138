"""Consolidation's jobs in the window: a run, a plan to review or a reviewed plan
applied (`consolidate`), here or in a child process (`consolidation/job.py`), and the
declines of earlier reviews forgotten (`forget_declined`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from memtab.components.jobs import JobContext
from memtab.consolidation.job import JobMode, PlanChoice, RunOutcome, run_for_outcome, run_isolated
from memtab.consolidation.review.review_setting import load_review_mode
from memtab.consolidation.service import ConsolidationService, RunReservation
from memtab.store.sidecars.journal import RunScope, Trigger


@dataclass(frozen=True)
class RunRequest:
    """What a job does: a run, a plan (`review` True; None: as the setting says), or the
    application of a reviewed plan (`choice`); `scope`: a run or plan of that scope alone
    ("Consolidate this scope", docs/formats.md §9.8)."""

    trigger: Trigger
    review: bool | None = False
    choice: PlanChoice | None = None
    scope: RunScope | None = None

    def mode(self) -> JobMode:
        """`run`, `plan` or `apply` (the setting is read here, on the lane: it is on disk)."""
        if self.choice is not None:
            return "apply"
        review = self.review
        if review is None:
            review = load_review_mode() == "review-first"
        return "plan" if review else "run"


def consolidate(
    service: ConsolidationService,
    reservation: RunReservation,
    request: RunRequest,
    isolated: bool,
    ctx: JobContext,
) -> RunOutcome:
    """One run, plan or apply, here or in a child process (see `consolidation/job.py`); in
    a child, this process keeps holding the reservation until it ends."""
    workspace_id = reservation.workspace_id
    trigger, mode = request.trigger, request.mode()
    last: list[tuple[int, str]] = []

    def report(step: int, message: str) -> None:
        # A step that reads 1000 files says "running memory" 1000 times: say it once.
        if last != [(step, message)]:
            last[:] = [(step, message)]
            ctx.report_progress(step, message)

    # The same run either way: what it is, and where its steps and cancel go.
    run: dict[str, Any] = dict(mode=mode, choice=request.choice, scope=request.scope)
    run.update(cancel=ctx.cancel_event, on_step=report)
    if isolated:
        return run_isolated(service.home.root, workspace_id, trigger, **run)
    return run_for_outcome(service, workspace_id, trigger, reservation=reservation, **run)


def forget_declined(home_root: str, workspace_id: str, _ctx: JobContext) -> int:
    """Forget what earlier reviews of `workspace_id` declined; how many were forgotten."""
    # lazy: the engine's declines (~0.8 MiB, ~12 ms: the offline consolidator) only when asked
    from memtab.consolidation.declined import forget_workspace_declined

    return forget_workspace_declined(home_root, workspace_id)
