"""Which workspaces have a consolidation run reserved or going in this process. One run per
workspace at a time in this process: a second trigger gets `RunInFlightError` ("a consolidation run
is already in flight"), except `archive`, which waits for the running one and then runs."""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable, Iterator

from memtab.consolidation.errors import RunCancelledError, RunInFlightError
from memtab.store.home import Home
from memtab.store.sidecars.journal import Trigger

_WAIT_SLICE_S = 0.05


class RunReservation:
    """A workspace's place in this process's consolidation runs, held from the moment a
    run is asked for until it has ended (`reserve`)."""

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


def _home_key(home: Home) -> str:
    return os.path.realpath(home.root)


def reserve(home: Home, workspace_id: str, trigger: Trigger) -> RunReservation:
    """Take the workspace's place for a run (RunInFlightError when it has one reserved or
    going, except for `archive`, which queues behind it)."""
    return _slots.reserve(_home_key(home), workspace_id, queue=trigger == "archive")


def running(home: Home, workspace_id: str) -> bool:
    """Whether a run of this workspace of `home` is reserved or going in this process."""
    return _slots.running(_home_key(home), workspace_id)


def claim(
    reservation: RunReservation, *, cancel: threading.Event | None, on_wait: Callable[[str], None]
) -> contextlib.AbstractContextManager[None]:
    """The reservation's turn in its workspace, then its home's (see `_RunSlots.claim`)."""
    return _slots.claim(reservation, cancel=cancel, on_wait=on_wait)
