"""One consolidation run the window asks for (a `ConsolidationRequest`) as a job for a background
worker, in this process or in a child (docs/formats.md §9.4, §9.8)."""

from __future__ import annotations

import logging
import multiprocessing
import threading
import time
from dataclasses import dataclass, field, replace
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, Protocol

from memtab.consolidation.errors import ConsolidationError, RunCancelledError, RunFailedError
from memtab.consolidation.records import ConsolidationPlan, ConsolidationRequest
from memtab.consolidation.review.review_setting import load_review_mode
from memtab.consolidation.service import ConsolidationService, RunReservation
from memtab.fs.clock import now_ms
from memtab.fs.sidecar import notify_kept_aside, on_kept_aside
from memtab.llm.loop import StepCallback
from memtab.log_rotation import start_rotating
from memtab.logs import log_file, setup_logging
from memtab.store.history.runs import new_run_id
from memtab.store.home import Home, HomeError
from memtab.store.scopes.memory import MemoryStoreError
from memtab.store.sidecars.journal import ConsolidationRecord

logger = logging.getLogger(__name__)

# How long a cancelled child may take to stop on its own before it is terminated.
_CANCEL_GRACE_S = 2.0
_POLL_S = 0.1


@dataclass(frozen=True)
class RunOutcome:
    """What a consolidation job returns: its record, its plan or why it failed; the run's id."""

    record: ConsolidationRecord | None = None
    error: str | None = None
    cancelled: bool = False
    run_id: str | None = None
    plan: ConsolidationPlan | None = None


class JobControls(Protocol):
    """What a running job is given (the window's job context has both): its cancel, its progress."""

    @property
    def cancel_event(self) -> threading.Event: ...
    def report_progress(self, step: int, message: str) -> None: ...


def _unheard(_step: int, _message: str) -> None:
    """Progress nobody follows."""


@dataclass(frozen=True)
class RunControls:
    """`JobControls` of a run outside the window's jobs: a command's, or the child's (its cancel
    the parent's multiprocessing Event, its progress sent over the pipe)."""

    cancel_event: Any = field(default_factory=threading.Event)
    on_step: StepCallback = _unheard

    def report_progress(self, step: int, message: str) -> None:
        self.on_step(step, message)


def run_for_outcome(
    request: ConsolidationRequest,
    service: ConsolidationService,
    ctx: JobControls,
    reservation: RunReservation | None = None,
) -> RunOutcome:
    """The request's `service.run`, `plan` or `apply_plan` (with the `reservation` its caller
    took, if any), its expected failures turned into plain text. A plan to review is journaled
    as the whole run when it proposes nothing (`journal_nothing`)."""
    run_id = request.run_id or new_run_id(now_ms())
    last: list[tuple[int, str]] = []

    def report(step: int, message: str) -> None:
        # A step that reads 1000 files says "running memory" 1000 times: say it once.
        if last != [(step, message)]:
            last[:] = [(step, message)]
            ctx.report_progress(step, message)

    common: dict[str, Any] = dict(
        cancel=ctx.cancel_event, on_step=report, reservation=reservation, run_id=run_id
    )
    review = request.review
    if review is None:  # read here, off the window's thread: it is on disk
        review = load_review_mode() == "review-first"
    try:
        if request.choice is not None:
            choice = request.choice
            record = service.apply_plan(choice.plan, choice.accepted, **common)
        elif review:
            workspace, trigger, scope = request.workspace_id, request.trigger, request.scope
            plan = service.plan(
                workspace, trigger=trigger, scope=scope, journal_nothing=True, **common
            )
            return RunOutcome(plan=plan)
        else:
            record = service.run(
                request.workspace_id, trigger=request.trigger, scope=request.scope, **common
            )
    except RunCancelledError as error:
        return RunOutcome(error=str(error), cancelled=True, run_id=run_id)
    except (ConsolidationError, HomeError, MemoryStoreError) as error:
        message = str(error)
        if isinstance(error, RunFailedError) and error.trace_path is not None:
            message += " (its trace is in the Traces tab)"
        return RunOutcome(error=message, run_id=run_id)
    return RunOutcome(record=record, run_id=run_id)


def _child_main(
    request: ConsolidationRequest,
    home_root: str,
    connection: Connection,
    cancel: Any,
    log_to_file: bool,
) -> None:
    """The child process: a fresh service on the home, progress, files kept aside and the
    result over the pipe."""
    if log_to_file:  # a spawned child starts with no logging set up
        setup_logging()
        start_rotating()
    on_kept_aside(lambda kept: connection.send(("kept_aside", kept)))
    try:
        service = ConsolidationService(Home(Path(home_root)))
        progress = RunControls(cancel, lambda step, said: connection.send(("progress", step, said)))
        outcome = run_for_outcome(request, service, progress)
        connection.send(("outcome", outcome))
    except BaseException as error:  # reported to the parent instead of a silent exit
        connection.send(("crash", f"{type(error).__name__}: {error}"))
    finally:
        connection.close()


def run_isolated(request: ConsolidationRequest, home_root: Path, ctx: JobControls) -> RunOutcome:
    """Run `request` in a child process (see `run_for_outcome`) on a fresh service of the home
    at `home_root`; returns when it ends or is cancelled."""
    request = replace(request, run_id=request.run_id or new_run_id(now_ms()))
    run_id, cancel = request.run_id, ctx.cancel_event
    context = multiprocessing.get_context("spawn")
    receiver, sender = context.Pipe(duplex=False)
    child_cancel = context.Event()
    process = context.Process(
        target=_child_main,
        args=(request, str(home_root), sender, child_cancel, log_file() is not None),
        name=f"memtab-consolidation-{request.workspace_id}",
        daemon=True,
    )
    process.start()
    sender.close()  # the child holds the only writing end: EOF means it is gone
    cancel_deadline: float | None = None
    try:
        while True:
            if cancel.is_set() and cancel_deadline is None:
                child_cancel.set()
                cancel_deadline = time.monotonic() + _CANCEL_GRACE_S
            if cancel_deadline is not None and time.monotonic() > cancel_deadline:
                process.terminate()
                return RunOutcome(
                    error="the consolidation run was cancelled", cancelled=True, run_id=run_id
                )
            if not receiver.poll(_POLL_S):
                continue
            try:
                message = receiver.recv()
            except EOFError:
                process.join(1.0)
                return RunOutcome(
                    error="the consolidation process stopped unexpectedly "
                    f"(exit code {process.exitcode})",
                    run_id=run_id,
                )
            kind = message[0]
            if kind == "progress":
                ctx.report_progress(message[1], message[2])
            elif kind == "kept_aside":
                notify_kept_aside(message[1])
            elif kind == "outcome":
                outcome: RunOutcome = message[1]
                return outcome
            else:
                logger.error("consolidation process failed: %s", message[1])
                return RunOutcome(
                    error=f"the consolidation process failed: {message[1]}", run_id=run_id
                )
    finally:
        receiver.close()
        process.join(_CANCEL_GRACE_S)
        if process.is_alive():
            process.terminate()
            process.join(1.0)
