"""When the writer runs: every N completed assistant turns per workspace (docs/formats.md §10.1).
The state is re-read from disk on every turn, so an edit by hand or by another process is honoured.
Thread-safe: the app counts turns on one worker thread and ends runs on another."""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memtab.fs.clock import Clock, now_ms
from memtab.fs.sidecar import edit_sidecar, read_sidecar
from memtab.store.home import Home
from memtab.store.sidecars.registry import MAX_WRITER_INTERVAL, MIN_WRITER_INTERVAL
from memtab.store.xum_locks import workspace_removed
from memtab.writer.records import WriterState

logger = logging.getLogger(__name__)


def sanitize_state(raw: Any) -> WriterState:
    """The state in any JSON value (the default state for one that is not an object)."""
    return WriterState.read(raw) or WriterState()


def read_state_document(path: Path) -> Any:
    """The file's JSON object; None when it is missing, unreadable or not a JSON object."""
    read = read_sidecar(path)
    if read.problem is not None:
        logger.debug(
            "The writer state %s cannot be used (%s); starting from zero", path, read.problem
        )
        return None
    return read.document if read.exists else None


def load_state(path: Path) -> WriterState:
    """The healed state in `path` (the default state when there is none)."""
    return sanitize_state(read_state_document(path))


def save_state(path: Path, state: WriterState) -> None:
    """Write the state atomically (parent directory created), keeping other fields. No interprocess
    lock: the scheduler keeps this process's writes apart, and the writer lock keeps other Memtab
    processes' writers out of the home."""
    fields = state.to_json()
    with edit_sidecar(path, None) as document:
        for field in type(state).fields():  # absent fields are left out, as mux
            if field.key not in fields:
                document.pop(field.key, None)
        document.update(fields)


@dataclass(frozen=True)
class RunTicket:
    """A run the policy started: which workspace, triggered by which message, when."""

    workspace_id: str
    message_id: str
    run_started_at: int


class WriterScheduler:
    """The interval policy over the state files of one home (see the module docstring)."""

    def __init__(self, home: Home, *, clock: Clock = now_ms) -> None:
        self.home = home
        self._clock = clock
        self._lock = threading.Lock()
        self._in_flight: dict[str, int] = {}  # workspace id → run_started_at
        self._last_written: dict[str, dict[str, Any]] = {}

    def is_in_flight(self, workspace_id: str) -> bool:
        """Whether a run of this workspace started here and has not ended."""
        with self._lock:
            return workspace_id in self._in_flight

    def state(self, workspace_id: str) -> WriterState:
        """The workspace's state as it is on disk now (sanitized)."""
        return load_state(self.home.writer_state_path(workspace_id))

    def on_completed_turn(
        self, workspace_id: str, message_id: str, interval: int
    ) -> RunTicket | None:
        """Count one completed assistant message; return a ticket if a run must start now. The
        caller must then run the writer and end the ticket with `finish_run` (or `abandon_run` if
        the run never got to start)."""
        interval = max(MIN_WRITER_INTERVAL, min(MAX_WRITER_INTERVAL, interval))
        with self._lock:
            if workspace_removed(self.home, workspace_id):
                return None  # xum removed it: no run, nothing written (docs/formats.md §21.3)
            state = self.state(workspace_id)
            in_flight = workspace_id in self._in_flight
            if state.has_incomplete_run and not in_flight:
                # Restart-safe: the last run never recorded its end, so we crashed mid-run.
                state = state.with_turns(max(state.turns_since_last_run, interval - 1))
            state = state.with_turns(state.turns_since_last_run + 1)
            if in_flight or state.turns_since_last_run < interval:
                self._save(workspace_id, state)
                return None
            started_at = self._clock()
            state = state.replaced(
                turns_since_last_run=0,
                last_run_started_at=started_at,
                last_run_completed_at=None,
                last_run_message_id=message_id.strip() or None,
            )
            self._save(workspace_id, state)
            self._in_flight[workspace_id] = started_at
            return RunTicket(workspace_id, message_id, started_at)

    def finish_run(self, ticket: RunTicket) -> None:
        """The run ended (either way): record its completion if it is still the last run."""
        with self._lock:
            if self._in_flight.get(ticket.workspace_id) == ticket.run_started_at:
                del self._in_flight[ticket.workspace_id]
            state = self.state(ticket.workspace_id)
            if state.last_run_started_at != ticket.run_started_at:
                return  # a newer run started (or the file was reset): not ours to complete
            completed_at = max(self._clock(), ticket.run_started_at)
            self._save(ticket.workspace_id, state.replaced(last_run_completed_at=completed_at))

    def abandon_run(self, ticket: RunTicket) -> None:
        """The run never ran (the app closed first): forget it without completing it, so
        the next turn — in this process or after a restart — runs instead."""
        with self._lock:
            if self._in_flight.get(ticket.workspace_id) == ticket.run_started_at:
                del self._in_flight[ticket.workspace_id]

    def is_foreign_change(self, workspace_id: str) -> bool:
        """Whether the state file now holds something this scheduler did not write. False when the
        file is missing or unreadable (nothing to attribute), or when it holds what was last written
        here."""
        with self._lock:
            document = read_state_document(self.home.writer_state_path(workspace_id))
            if document is None:
                return False
            return sanitize_state(document).to_json() != self._last_written.get(workspace_id)

    def _save(self, workspace_id: str, state: WriterState) -> None:
        path = self.home.writer_state_path(workspace_id)
        if workspace_removed(self.home, workspace_id):
            # Saving would make its session dir again, which xum deleted.
            logger.info("Not saving the writer state of removed workspace %s", workspace_id)
            return
        try:
            save_state(path, state)
        except OSError as error:
            # The schedule is advisory: a read-only home must not stop the writer.
            logger.warning("Cannot save the writer state %s: %s", path, error)
            return
        self._last_written[workspace_id] = state.to_json()
