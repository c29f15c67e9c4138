"""`memtab watch`: the recorder that keeps history while no window runs (docs/formats.md §14.5): it
holds the lease, records what changed since history looked, then follows the disk with watchdog (or
polling), recording settled changes with their actor and telling a mass change; a pass that cannot
write history says so and retries."""

from __future__ import annotations

import contextlib
import functools
import gc
import logging
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import FrameType

from watchdog.observers import Observer
from watchdog.observers.api import BaseObserver

from memtab.fs.clock import Clock, now_ms
from memtab.fs.heap import release_free_heap
from memtab.store.catch_up.external import record_external
from memtab.store.catch_up.recording import note_recording, unrecorded_reason
from memtab.store.history.prune import maybe_prune
from memtab.store.home import Home
from memtab.store.paths import Scope
from memtab.watch.events import RETARGET, ScopeTarget, Targets
from memtab.watch.guard import MassChange, mass_changes
from memtab.watch.observers import (
    CHANGE_EVENTS,
    BoundedPollingObserver,
    EventPoster,
    watching_any_depth,
)
from memtab.watch.sources import RecorderLease, mux_actor, record_source
from memtab.watch_policy.coalesce import Coalescer

logger = logging.getLogger(__name__)

APP_NAME = "Memtab"
SUMMARY = "Memtab: a mass change to your agents' memory"
NOTIFY_TIMEOUT_S = 2.0
"""How long the notification server may take to answer."""
EXPIRE_MS = 0
"""The notification stays until the user closes it (the spec's 0: never expires)."""

Notify = Callable[[str, str], bool]
"""Show a desktop notification (summary, body); whether one was shown."""


def desktop_notify(summary: str, body: str, env: Mapping[str, str] | None = None) -> bool:
    """Show a notification on the session bus; False, logged at info, when there is none."""
    environ = os.environ if env is None else env
    if not sys.platform.startswith("linux") or not environ.get("DBUS_SESSION_BUS_ADDRESS"):
        return False
    try:
        # lazy: jeepney is Linux's alone, and only a mass change needs it
        from jeepney import DBusAddress, new_method_call
        from jeepney.io.blocking import open_dbus_connection
    except ImportError as error:
        logger.info("No desktop notification: %s", error)
        return False
    server = DBusAddress(
        "/org/freedesktop/Notifications",
        bus_name="org.freedesktop.Notifications",
        interface="org.freedesktop.Notifications",
    )
    message = new_method_call(
        server, "Notify", "susssasa{sv}i", (APP_NAME, 0, "", summary, body, [], {}, EXPIRE_MS)
    )
    try:
        with open_dbus_connection(bus="SESSION") as connection:
            reply = connection.send_and_get_reply(message, timeout=NOTIFY_TIMEOUT_S)
    except Exception as error:  # no bus, no server, a timeout: the log says it instead
        logger.info("No desktop notification: %s", error)
        return False
    if reply.header.message_type.name == "error":
        logger.info("No desktop notification: %s", reply.body)
        return False
    return True


def body_of(change: MassChange) -> str:
    """What the notification says: what happened, and how to put it back whole."""
    return (
        f"{change.words()}. Put it back whole with Restore all in Memtab's window, or "
        f"`memtab restore --event {change.id}`."
    )


class MassNotices:
    """The mass changes `memtab watch` has told of (see the module doc)."""

    def __init__(self, home: Home, *, notify: Notify | None = None, clock: Clock = now_ms) -> None:
        self.home = home
        self._notify: Notify = notify or desktop_notify
        self._since = clock()
        self._told: set[str] = set()

    def look(self, keys: Collection[str] | None = None) -> list[MassChange]:
        """Tell of the mass changes (of the indexes `keys`) not told yet; those told."""
        told = []
        for change in mass_changes(self.home, since_ms=self._since, keys=keys):
            if change.id in self._told or not change.left_to_restore:
                continue
            self._told.add(change.id)
            body = body_of(change)
            logger.warning("Mass change: %s", body)
            self._notify(SUMMARY, body)
            told.append(change)
        return told


SETTLE_S = 0.1
"""Quiet time after a change before it is recorded (an atomic save is two events)."""
MAX_DELAY_S = 0.3
"""The longest a change waits for quiet: a change is recorded within about a second."""
FULL_PASS_S = 600.0
RETRY_S = 60.0
"""How often the targets history could not be written for are tried again."""
POLL_INTERVAL_S = 1.0


class RecorderBusyError(RuntimeError):
    """Another recorder holds the home's lease."""


@dataclass
class PassReport:
    """What one recording pass recorded."""

    recorded: int = 0
    deleted: int = 0
    problems: list[str] = field(default_factory=list)


class Recorder:
    """Keeps a home's history while it runs (see the module doc)."""

    def __init__(
        self,
        home: Home,
        *,
        use_polling: bool = False,
        poll_interval_s: float = POLL_INTERVAL_S,
        full_pass_s: float = FULL_PASS_S,
        retry_s: float = RETRY_S,
        on_ready: Callable[[Recorder], None] | None = None,
        notify: Notify | None = None,
    ) -> None:
        """`on_ready` once the first pass is done and watches are in place; `notify` shows a mass
        change."""
        self.home = home
        self.notices = MassNotices(home, notify=notify)
        self._on_ready = on_ready
        self._use_polling = use_polling
        self._poll_interval_s = poll_interval_s
        self._full_pass_s = full_pass_s
        self._retry_s = retry_s
        self._unrecorded: dict[str, str] = {}  # target → why history could not be written
        self._by = f"memtab watch (pid {os.getpid()})"
        self._lease = RecorderLease(home)
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._pending = Coalescer(
            debounce_ms=SETTLE_S * 1000, max_latency_ms=MAX_DELAY_S * 1000, leading_edge=False
        )
        self._pending_lock = threading.Lock()
        self._targets = Targets(home)
        self._observer: BaseObserver | None = None
        self.watched: list[tuple[str, bool]] = []
        """The directories watched (and whether recursively)."""
        self.backend = ""
        self.ready = threading.Event()
        """Set once the first pass is done and the watches are in place (tests, bench)."""
        self.passes = 0

    def stop(self) -> None:
        """Ask `run` to return (any thread; never a signal handler, which may interrupt the lock
        this takes: `stopped_by_signals` calls it from a thread of its own)."""
        self._stop.set()
        self._wake.set()

    def run(self) -> None:
        """Take the lease, record everything, then changes until `stop()`; RecorderBusyError when
        another runs."""
        if not self._lease.acquire():
            raise RecorderBusyError(f"A recorder already runs for {self.home.root}")
        try:
            self._retarget()
            self.record_everything()
            gc.collect()
            release_free_heap()  # the first pass of a big home read every file: give it back
            self.ready.set()
            if self._on_ready is not None:
                self._on_ready(self)
            self._loop()
        finally:
            self._stop_observer()
            self._lease.release()

    def record_everything(self) -> PassReport:
        """Record what changed anywhere since history last looked."""
        report = PassReport()
        for key in list(self._targets.scopes):
            self._record_key(key, report)
        for source_id in list(self._targets.sources):
            self._record_key(f"source:{source_id}", report)
        self._guard(report)
        maybe_prune(self.home)
        return report

    def _guard(self, report: PassReport) -> None:
        """Tell of a mass change the pass recorded (never ending the recorder)."""
        if not (report.recorded or report.deleted):
            return
        try:
            self.notices.look()
        except Exception:  # the guard's failure must not end the recording
            logger.exception("Cannot look for mass changes")

    def _record_key(self, key: str, report: PassReport) -> None:
        try:
            if key.startswith("source:"):
                source = self._targets.sources.get(key.removeprefix("source:"))
                if source is None:
                    return
                found = record_source(self.home, source)
                report.recorded += found.recorded
                report.deleted += found.deleted
                report.problems += found.problems
                unrecorded = found.unrecorded
            else:
                target = self._targets.scopes.get(key)
                if target is None:
                    return
                actor_of = functools.partial(self._mux_actor, target)
                recorded = record_external(target.store, scopes=(target.scope,), actor_of=actor_of)
                report.recorded += recorded.recorded
                report.deleted += recorded.deleted
                report.problems += recorded.warnings()
                unrecorded = recorded.unrecorded
        except Exception as error:  # one target's failure must not end the recorder
            logger.exception("Cannot record the changes of %s", key)
            unrecorded = unrecorded_reason(error, self.home)
        self._note(key, unrecorded)

    def _note(self, key: str, unrecorded: str | None) -> None:
        """Whether `key` could be recorded, and so whether history is (the home says)."""
        if unrecorded is None:
            self._unrecorded.pop(key, None)
        else:
            self._unrecorded[key] = unrecorded
        note_recording(self.home, next(iter(self._unrecorded.values()), None), by=self._by)

    def _mux_actor(self, target: ScopeTarget, scope: Scope, paths: Sequence[str]) -> str:
        """Who changed `paths` of `target`'s scope (named on disk too, as xum's journal may)."""
        root = str(target.store.root(scope))
        prefix = f"/memories/{scope.value}/"
        physical = [os.path.join(root, *p.removeprefix(prefix).split("/")) for p in paths]
        return mux_actor(self.home, paths, physical)

    def _post(self, paths: list[str], _settled: bool) -> None:
        keys = {key for path in paths if (key := self._targets.concerned(path)) is not None}
        if not keys:
            return
        with self._pending_lock:
            self._pending.add(_now_ms(), keys)
        self._wake.set()

    def _loop(self) -> None:
        next_full = time.monotonic() + self._full_pass_s
        next_retry = time.monotonic() + self._retry_s
        while not self._stop.is_set():
            due = min(next_full, next_retry) if self._unrecorded else next_full
            woke = self._wake.wait(timeout=max(due - time.monotonic(), 0.0))
            if self._stop.is_set():
                break
            if not woke and time.monotonic() >= next_full:
                self.record_everything()
                release_free_heap()
                next_full = time.monotonic() + self._full_pass_s
                continue
            if not woke:  # history could not be written for some: try them again
                report = PassReport()
                for key in sorted(self._unrecorded):
                    self._record_key(key, report)
                next_retry = time.monotonic() + self._retry_s
                continue
            self._settle()
            self._wake.clear()  # before taking the keys: a change posted after wakes again
            with self._pending_lock:
                keys = set(self._pending.take())
            if RETARGET in keys:
                self._retarget()
                self.record_everything()
            else:
                report = PassReport()
                for key in sorted(keys):
                    self._record_key(key, report)
                self._guard(report)
            self.passes += 1

    def _settle(self) -> None:
        """Wait until the changes are due, as the coalescing policy says."""
        while not self._stop.is_set():
            with self._pending_lock:
                wait_ms = self._pending.wait_ms(_now_ms())
            if not wait_ms:
                return
            self._wake.clear()
            self._wake.wait(wait_ms / 1000)

    def _retarget(self) -> None:
        """Find the targets again and watch their directories."""
        self._targets = Targets.find(self.home)
        self._stop_observer()
        self.watched = self._targets.directories()
        self._observer = self._start_observer(self.watched)

    def _start_observer(self, directories: list[tuple[str, bool]]) -> BaseObserver:
        if not self._use_polling:
            observer: BaseObserver = Observer()
            try:
                with watching_any_depth(*(directory for directory, _ in directories)):
                    for directory, recursive in directories:
                        self._schedule(observer, directory, recursive)
                    observer.start()
            except OSError as error:  # inotify's limits, a tree too deep: poll, as the window
                logger.warning("Falling back to polling: %s", error)
                with contextlib.suppress(Exception):
                    observer.stop()
            else:
                self.backend = type(observer).__name__.removesuffix("Observer").lower()
                return observer
        polling = BoundedPollingObserver(timeout=self._poll_interval_s)
        for directory, recursive in directories:
            self._schedule(polling, directory, recursive)
        polling.start()
        self.backend = f"polling every {self._poll_interval_s:g} s"
        return polling

    def _schedule(self, observer: BaseObserver, directory: str, recursive: bool) -> None:
        """Watch `directory` for change events, filtered by the one watcher policy relative to
        it."""
        handler = EventPoster(self._post, directory, directory, shallow=not recursive)
        observer.schedule(handler, directory, recursive=recursive, event_filter=CHANGE_EVENTS)

    def _stop_observer(self) -> None:
        observer, self._observer = self._observer, None
        if observer is None:
            return
        with contextlib.suppress(Exception):
            observer.stop()
            observer.join(timeout=5)


_STOP_SIGNALS = frozenset({signal.SIGTERM, signal.SIGINT})
_BLOCK_ENDED = 0  # no signal's number


@contextlib.contextmanager
def stopped_by_signals(stop: Callable[[], None]) -> Iterator[None]:
    """`stop()` on a thread of its own when SIGTERM or SIGINT arrives, during the block.

    Not from a Python signal handler: that runs on the main thread between two bytecodes, maybe
    while the recorder holds the lock `stop()` takes (a deadlock), and a signal that lands on
    another thread runs it only once the main thread wakes (up to a full pass's wait). The
    interpreter's own handler writes the signal's number to the wakeup socket at once instead."""
    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread may set handlers
        return
    reader, writer = socket.socketpair()
    writer.setblocking(False)  # as set_wakeup_fd asks: a signal never waits on a full socket

    def listen() -> None:
        while (number := reader.recv(1)) and number[0] != _BLOCK_ENDED:
            if number[0] in _STOP_SIGNALS:
                stop()

    listener = threading.Thread(target=listen, name="memtab-watch-signals", daemon=True)
    listener.start()
    wakeup_before = signal.set_wakeup_fd(writer.fileno())
    handlers = {number: signal.signal(number, _leave_to_listener) for number in _STOP_SIGNALS}
    with reader, writer:
        try:
            yield
        finally:
            for number, handler in handlers.items():
                signal.signal(number, signal.SIG_DFL if handler is None else handler)
            signal.set_wakeup_fd(wakeup_before)
            writer.send(bytes([_BLOCK_ENDED]))
            listener.join()


def _leave_to_listener(_signum: int, _frame: FrameType | None) -> None:
    """Keeps the default action (exit at once, or KeyboardInterrupt) off; the stop is the
    listener's."""


def _now_ms() -> float:
    return time.monotonic() * 1000.0
