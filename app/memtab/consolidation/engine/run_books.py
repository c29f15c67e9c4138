"""What a run that changes memory writes down, from before its first change to its end. `RunBooks`
keeps the records of one run or plan apply (docs/formats.md §9.1, §14.3)."""

from __future__ import annotations

import logging
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from memtab.consolidation.errors import RunFailedError, RunStoppedError
from memtab.fs.clock import Clock, now_ms
from memtab.humanize import plural
from memtab.store.errors import MemoryStoreError
from memtab.store.history.blobs import sha256_of
from memtab.store.history.records import RunEntry, RunOp, TokenUsage
from memtab.store.history.runs import CHECK_FIX_PROVIDER, RunsLog, journal_fingerprint
from memtab.store.history.started import StartedRun
from memtab.store.home import Home
from memtab.store.paths import PathError, VirtualPath, parse_file_path
from memtab.store.scopes.memory import MemoryStore
from memtab.store.scopes.scope_dir import ScopeDir
from memtab.store.sidecars.journal import ConsolidationRecord, RunScope, Trigger
from memtab.store.sidecars.registry import Workspace
from memtab.store.sidecars.scope_runs import journal_run

logger = logging.getLogger(__name__)


class RunStore(MemoryStore):
    """A workspace's store for one run: reads batched, or no usage at all (dry run)."""

    def __init__(
        self,
        home: Home,
        workspace: Workspace,
        *,
        count_usage: bool = True,
        clock: Clock = now_ms,
        run_id: str | None = None,
    ) -> None:
        """Changes are recorded in history as the `consolidator`'s, under `run_id`."""
        super().__init__(home, workspace, clock=clock, actor="consolidator", run_id=run_id)
        self.count_usage = count_usage
        self._reads: list[VirtualPath] = []
        self._reads_lock = threading.Lock()

    def record_read(self, path: VirtualPath) -> None:
        """Remember the read; `flush_reads` records it."""
        if self.count_usage:
            with self._reads_lock:
                self._reads.append(path)

    def record_write(
        self, path: VirtualPath, *, where: ScopeDir | None = None, created: bool = False
    ) -> None:
        """Record the write now (it anchors the launch sweep's coverage)."""
        if self.count_usage:
            super().record_write(path, where=where, created=created)

    def flush_reads(self) -> None:
        """Record every read so far in one update of memory-meta.json (best effort)."""
        with self._reads_lock:
            reads, self._reads = self._reads, []
        if not reads:
            return
        try:
            self.meta.record_reads([self.meta_key(path) for path in reads])
        except (OSError, MemoryStoreError) as error:
            logger.warning("Could not record %d memory reads: %s", len(reads), error)


@dataclass(frozen=True)
class RunIdentity:
    """Which run the books are for."""

    run_id: str
    started_at: int
    workspace: Workspace
    trigger: Trigger
    provider: str
    model: str
    plan_id: str | None = None
    planned: int | None = None
    """How many changes it sets out to make, when known (a plan's accepted ops)."""
    scope: RunScope | None = None
    """The one scope it is limited to (None: the whole workspace)."""


class RunBooks:
    """The records of one run that changes memory (see the module doc)."""

    def __init__(self, home: Home, store: MemoryStore, run: RunIdentity, clock: Clock) -> None:
        self.home = home
        self.store = store
        self.run = run
        self.clock = clock
        self.trace_dump: str | None = None
        self.started = StartedRun(
            home,
            run_id=run.run_id,
            trigger=run.trigger,
            workspace_id=run.workspace.id,
            project_path=run.workspace.project_identity,
            started_at=run.started_at,
            provider=run.provider,
            model=run.model,
            plan_id=run.plan_id,
            planned=run.planned,
            scope=run.scope,
        )

    def begin(self) -> None:
        """Record the run's intent; RunFailedError (nothing changed) when it cannot."""
        try:
            self.started.begin()
        except OSError as error:
            where = f": {error.filename}" if error.filename else ""
            raise RunFailedError(
                "error",
                f"the run did not start: Memtab could not record it first "
                f"({error.strerror or error}{where}); nothing was changed",
            ) from None

    def attempt(
        self, command: str, path: str, new_path: str | None, arguments: Mapping[str, Any]
    ) -> None:
        """The guard's `before_dispatch`: record the change about to be made and what its
        files hold now. Raises OSError (the change is then not made)."""
        before: dict[str, str | None] = {}
        for name in (path, new_path):
            if name is None:
                continue
            try:
                data = self.store.read_whole(parse_file_path(name))
            except (MemoryStoreError, PathError):
                continue  # a directory, or unreadable: its versions will tell
            before[name] = sha256_of(data) if data is not None else None
        self.started.attempt(command, path, new_path, arguments, before)

    def discard(self) -> None:
        """The run changed nothing and logs nothing (a plan found altered)."""
        self.started.close()

    def finish(
        self,
        record: ConsolidationRecord | None,
        run_ops: tuple[RunOp, ...],
        *,
        failure: RunFailedError | None = None,
        stopped: str | None = None,
        trace_dump: str | None = None,
    ) -> ConsolidationRecord:
        """Journal and log how the run ended (see the module doc; `trace_dump`: the name
        of its trace dump, for the runs log); returns the record of a run that went
        through, raises otherwise."""
        self.trace_dump = trace_dump
        applied = sum(1 for op in run_ops if op.applied)
        problem = str(failure) if failure is not None else stopped
        if problem is not None and not applied:  # changed nothing: logged, not journaled
            self._log(record, run_ops, problem, None)
            if failure is not None:
                raise failure
            raise RunStoppedError(self._message(run_ops, problem, None, logged=True), record)
        if problem is not None and (record is None or failure is not None):
            record = self._stopped_record(run_ops, problem)
        assert record is not None
        record = record.replaced(scope=self.run.scope)
        fingerprint: str | None = journal_fingerprint(record)
        status = "ok" if problem is None else "failed"
        self.started.end(status, record.summary, problem, fingerprint)
        journal_error: str | None = None
        try:
            if self.run.provider != CHECK_FIX_PROVIDER:  # fixes are no consolidation of mux's
                journal_run(
                    self.home, self.run.workspace.notebook_id, self.store.project_path, record
                )
        except (OSError, TimeoutError) as error:
            journal_error = f"mux's journal could not record it ({_why(error)})"
            fingerprint = None
        error_text = "; ".join(part for part in (problem, journal_error) if part) or None
        logged = self._log(record, run_ops, error_text, fingerprint)
        if problem is None and journal_error is None:
            return record
        message = self._message(run_ops, problem, journal_error, logged=logged)
        if failure is not None:
            failure.record = record
            raise failure
        raise RunStoppedError(message, record)

    # --- the records ------------------------------------------------------------------------

    def _stopped_record(self, run_ops: tuple[RunOp, ...], problem: str) -> ConsolidationRecord:
        """The journal record of a run that stopped midway after changing something."""
        applied = sum(1 for op in run_ops if op.applied)
        return ConsolidationRecord(
            last_run_at=self.clock(),
            trigger=self.run.trigger,
            summary=f"Stopped midway after {plural(applied, 'change')} "
            f"of {len(run_ops)} attempted: {problem}",
            ops=tuple(op.journal_op() for op in run_ops),
        )

    def _log(
        self,
        record: ConsolidationRecord | None,
        run_ops: tuple[RunOp, ...],
        error: str | None,
        fingerprint: str | None,
    ) -> bool:
        """Add the run to the runs log, then drop its started-run file; when the log
        cannot take it, the file stays and the next start logs the run (False)."""
        entry = RunEntry(
            id=self.run.run_id,
            at=record.last_run_at if record is not None else self.clock(),
            kind="consolidation",
            trigger=self.run.trigger,
            workspace_id=self.run.workspace.id,
            project_path=self.run.workspace.project_identity,
            summary=record.summary if record is not None else "",
            ops=run_ops,
            provider=self.run.provider,
            model=self.run.model,
            status="ok" if error is None else "failed",
            error=error,
            started_at=self.run.started_at,
            journal_fingerprint=fingerprint,
            plan_id=self.run.plan_id,
            usage=TokenUsage.of(record.input_tokens, record.output_tokens) if record else None,
            scope=self.run.scope,
            trace_dump=self.trace_dump,
        )
        try:
            RunsLog(self.home).append(entry)
        except (OSError, TimeoutError) as error_:
            logger.warning(
                "Could not add run %s to the runs log (%s): it is logged at the next start",
                self.run.run_id,
                _why(error_),
            )
            return False
        self.started.close()
        return True

    def _message(
        self,
        run_ops: tuple[RunOp, ...],
        problem: str | None,
        journal_error: str | None,
        *,
        logged: bool,
    ) -> str:
        """What was and was not done, in one line."""
        applied = sum(1 for op in run_ops if op.applied)
        meant = self.run.planned if self.run.planned is not None else len(run_ops)
        parts = []
        if problem is not None:
            parts.append(f"the run stopped midway: {problem}")
            parts.append(
                f"{plural(applied, 'change')} applied, "
                f"{plural(max(meant - applied, 0), 'change')} not made"
            )
        if journal_error is not None:
            made = "every change listed as applied was made, but " if problem is None else ""
            parts.append(f"{made}{journal_error}")
        parts.append(
            "Memtab's runs log has the run"
            if logged
            else "Memtab's runs log could not take it either: it is logged the next time "
            "Memtab starts with room on the disk"
        )
        return "; ".join(parts)


def _why(error: BaseException) -> str:
    return getattr(error, "strerror", None) or str(error)
