"""One consolidation run as a job for a background worker, in this process or in a child
(docs/formats.md §9.4, §9.8)."""

from __future__ import annotations

import logging
import multiprocessing
import threading
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, Literal

from memtab.consolidation.errors import ConsolidationError, RunCancelledError, RunFailedError
from memtab.consolidation.records import ConsolidationPlan
from memtab.consolidation.service import ConsolidationService, RunReservation
from memtab.fs.clock import now_ms
from memtab.fs.sidecar import notify_kept_aside, on_kept_aside
from memtab.llm.loop import StepCallback
from memtab.log_rotation import start_rotating
from memtab.logs import log_file, setup_logging
from memtab.store.history.runs import new_run_id
from memtab.store.home import Home, HomeError
from memtab.store.scopes.memory import MemoryStoreError
from memtab.store.sidecars.journal import ConsolidationRecord, RunScope, Trigger

logger = logging.getLogger(__name__)

# How long a cancelled child may take to stop on its own before it is terminated.
_CANCEL_GRACE_S = 2.0
_POLL_S = 0.1


JobMode = Literal["run", "plan", "apply"]


@dataclass(frozen=True)
class RunOutcome:
    """What a consolidation job returns: its record, its plan or why it failed; the run's id."""

    record: ConsolidationRecord | None = None
    error: str | None = None
    cancelled: bool = False
    run_id: str | None = None
    plan: ConsolidationPlan | None = None


@dataclass(frozen=True)
class PlanChoice:
    """A reviewed plan and the op numbers the user accepted (None: every proposed op)."""

    plan: ConsolidationPlan
    accepted: tuple[int, ...] | None = None


def run_for_outcome(
    service: Any,
    workspace_id: str,
    trigger: Trigger,
    *,
    cancel: threading.Event | Any,
    on_step: StepCallback,
    reservation: RunReservation | None = None,
    mode: JobMode = "run",
    choice: PlanChoice | None = None,
    run_id: str | None = None,
    scope: RunScope | None = None,
) -> RunOutcome:
    """One `service.run` (with the `reservation` its caller took, if any), or `plan`, or
    `apply_plan` of `choice`, with its expected failures turned into plain text; `scope`:
    a run or plan of that scope alone."""
    run_id = run_id or new_run_id(now_ms())
    common = {"cancel": cancel, "on_step": on_step, "reservation": reservation}
    try:
        if mode == "plan":
            # journal_nothing: nothing to review means the run is done, and journaled
            plan = service.plan(
                workspace_id,
                trigger=trigger,
                scope=scope,
                journal_nothing=True,
                run_id=run_id,
                **common,
            )
            return RunOutcome(plan=plan)
        if mode == "apply":
            if choice is None:
                raise ValueError("applying a plan needs the plan")
            record = service.apply_plan(choice.plan, choice.accepted, run_id=run_id, **common)
        else:
            record = service.run(
                workspace_id, trigger=trigger, run_id=run_id, scope=scope, **common
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
    home_root: str,
    workspace_id: str,
    trigger: Trigger,
    connection: Connection,
    cancel: Any,
    log_to_file: bool,
    job: dict[str, Any],
) -> None:
    """The child process: a fresh service on the home, progress, files kept aside and the
    result over the pipe."""
    if log_to_file:  # a spawned child starts with no logging set up
        setup_logging()
        start_rotating()

    def report(step: int, message: str) -> None:
        connection.send(("progress", step, message))

    on_kept_aside(lambda kept: connection.send(("kept_aside", kept)))
    try:
        service = ConsolidationService(Home(Path(home_root)))
        outcome = run_for_outcome(
            service, workspace_id, trigger, cancel=cancel, on_step=report, **job
        )
        connection.send(("outcome", outcome))
    except BaseException as error:  # reported to the parent instead of a silent exit
        connection.send(("crash", f"{type(error).__name__}: {error}"))
    finally:
        connection.close()


def run_isolated(
    home_root: Path,
    workspace_id: str,
    trigger: Trigger,
    *,
    cancel: threading.Event,
    on_step: StepCallback,
    mode: JobMode = "run",
    choice: PlanChoice | None = None,
    run_id: str | None = None,
    scope: RunScope | None = None,
) -> RunOutcome:
    """Run one consolidation job in a child process; returns when it ends or is
    cancelled. See `run_for_outcome` for the modes and `scope`."""
    run_id = run_id or new_run_id(now_ms())
    context = multiprocessing.get_context("spawn")
    receiver, sender = context.Pipe(duplex=False)
    child_cancel = context.Event()
    process = context.Process(
        target=_child_main,
        args=(str(home_root), workspace_id, trigger, sender, child_cancel, log_file() is not None),
        kwargs={"job": {"mode": mode, "choice": choice, "run_id": run_id, "scope": scope}},
        name=f"memtab-consolidation-{workspace_id}",
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
                on_step(message[1], message[2])
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
