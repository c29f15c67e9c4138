"""The writer as the app runs it: watch transcripts, apply the policy, run, hand results back."""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from memtab.fs.clock import Clock, now_ms
from memtab.fs.config.settings_file import SettingsFileError
from memtab.fs.locking.locks import LockUnavailableError, OwnedLock
from memtab.llm.types import ChatProvider, ProviderError, close_provider
from memtab.store.home import Home, HomeError
from memtab.store.sidecars.registry import Registry, load_registry
from memtab.transcripts.events import TranscriptEvent
from memtab.transcripts.reader import TranscriptTail
from memtab.writer.config import WriterMode, WriterSettings, load_writer_settings
from memtab.writer.job.policy import RunTicket, WriterScheduler
from memtab.writer.job.result import WriterRunResult

logger = logging.getLogger(__name__)

_BACKWARD_CHUNK = 64 * 1024


def is_completed_turn(event: TranscriptEvent) -> bool:
    """The unit the writer counts: a finished assistant message of the main conversation."""
    return event.role == "assistant" and event.completed_turn and not event.sidechain


def end_of_last_line(path: Path) -> int:
    """The byte offset just after the last newline of `path` (0 if none or missing)."""
    try:
        with path.open("rb") as handle:
            position = handle.seek(0, os.SEEK_END)
            while position > 0:
                start = max(0, position - _BACKWARD_CHUNK)
                handle.seek(start)
                chunk = handle.read(position - start)
                newline = chunk.rfind(b"\n")
                if newline >= 0:
                    return start + newline + 1
                position = start
    except OSError:
        return 0
    return 0


@dataclass
class _Followed:
    tail: TranscriptTail
    newest_timestamp: int  # ms; events at or before it are history after a restart
    restarts: int = 0


class TranscriptMonitor:
    """Follows mux transcripts of a home (see the module docstring)."""

    def __init__(self, home: Home) -> None:
        self.home = home
        self._followed: dict[str, _Followed] = {}

    def follow_from_end(self, workspace_ids: Iterable[str]) -> None:
        """Start following these workspaces at the current end of their transcripts."""
        for workspace_id in workspace_ids:
            if workspace_id not in self._followed:
                self._follow(workspace_id, at_end=True)

    def workspace_ids_on_disk(self) -> list[str]:
        """Every workspace that has a session directory."""
        try:
            return sorted(
                entry.name
                for entry in os.scandir(self.home.sessions_dir)
                if entry.is_dir(follow_symlinks=False) and not entry.name.startswith(".")
            )
        except OSError:
            return []

    def new_turns(self, workspace_id: str) -> list[TranscriptEvent]:
        """Completed assistant turns appended since the last call, oldest first."""
        return self._read(workspace_id, is_completed_turn)

    def skip(self, workspace_id: str) -> None:
        """Consume what was appended without counting it (paused, or not eligible)."""
        if workspace_id not in self._followed:
            self._follow(workspace_id, at_end=True)
            return
        self._read(workspace_id, lambda event: False)

    def _follow(self, workspace_id: str, *, at_end: bool) -> _Followed:
        path = self.home.transcript_path(workspace_id)
        offset = end_of_last_line(path) if at_end else 0
        try:
            newest = int(path.stat().st_mtime * 1000) if at_end else 0
        except OSError:
            newest = 0
        followed = _Followed(TranscriptTail(path, "mux", offset=offset), newest)
        self._followed[workspace_id] = followed
        return followed

    def _read(
        self, workspace_id: str, keep: Callable[[TranscriptEvent], bool]
    ) -> list[TranscriptEvent]:
        """The new events `keep` wants, looked at one by one as the tail releases them."""
        followed = self._followed.get(workspace_id) or self._follow(workspace_id, at_end=False)
        seen_before = followed.newest_timestamp  # what a rewritten file may repeat
        newest = seen_before
        kept: list[TranscriptEvent] = []

        def look_at(event: TranscriptEvent) -> None:
            nonlocal newest
            if followed.tail.restarts != followed.restarts and (
                event.timestamp is None or event.timestamp <= seen_before
            ):
                return  # history the rewrite kept, not a new message
            if event.timestamp is not None:
                newest = max(newest, event.timestamp)
            if keep(event):
                kept.append(event)

        followed.tail.stream_new(look_at)
        if followed.tail.restarts != followed.restarts:
            followed.restarts = followed.tail.restarts
            logger.info(
                "The transcript of %s was rewritten; counting only messages newer than %d",
                workspace_id,
                seen_before,
            )
        followed.newest_timestamp = newest
        return kept


WriterProviderFactory = Callable[[], tuple[ChatProvider, tuple[str, ...]]]
"""Builds the provider for one writer run, with the secrets it holds (kept out of dumps)."""


class WriterLock:
    """The home's writer lock, held from `acquire()` to `release()` (any thread): one Memtab
    process runs a home's writer, or two windows would both run and each take the other's state
    writes for mux's and step back, leaving nobody writing."""

    def __init__(self, home: Home) -> None:
        self._lock = OwnedLock(home.lock_path("memory-writer"))

    @property
    def path(self) -> str:
        return str(self._lock.path)

    @property
    def held(self) -> bool:
        """Whether this object holds the lock."""
        return self._lock.held

    def acquire(self) -> bool:
        """Take the lock if it is free (never waits); True when held afterwards."""
        if self._lock.held:
            return True
        try:
            self._lock.acquire(0)
        except LockUnavailableError:
            return False
        except OSError as error:
            logger.warning("Cannot take the memory writer lock %s: %s", self._lock.path, error)
            return False
        return True

    def release(self) -> None:
        """Let the lock go (no-op when not held)."""
        self._lock.release()


class WriterServiceError(Exception):
    """A run that could not start (unknown workspace, unusable provider settings, no
    transcript); the message is meant for the user."""


@dataclass(frozen=True)
class PollResult:
    """What a poll did: the workspaces read, the runs to start, their display names."""

    polled: list[str] = field(default_factory=list)
    tickets: list[RunTicket] = field(default_factory=list)
    names: dict[str, str] = field(default_factory=dict)


class WriterService:
    """See the module docstring. `poll`/`prime`/`check_state_changes` on one thread,
    `run` on another; the shared parts (`WriterScheduler`) are thread-safe."""

    def __init__(
        self,
        home: Home,
        *,
        settings_loader: Callable[[], WriterSettings] = load_writer_settings,
        provider_factory: WriterProviderFactory | None = None,
        clock: Clock = now_ms,
    ) -> None:
        """`provider_factory` None: the provider the user configured, resolved for each run
        (`providers.default_provider_factory`)."""
        self.home = home
        self.scheduler = WriterScheduler(home, clock=clock)
        self.monitor = TranscriptMonitor(home)
        self._settings_loader = settings_loader
        self._provider_factory = provider_factory
        self._yielded: set[str] = set()

    # --- watch thread ---------------------------------------------------------------------

    def prime(self) -> None:
        """Follow every existing workspace from the end of its transcript: the history
        that is already there is not new turns."""
        self.monitor.follow_from_end(self._all_ids(self._registry()))

    def poll(
        self, workspace_ids: Iterable[str] | None = None, *, paused: bool = False
    ) -> PollResult:
        """Read new transcript lines of these workspaces (None: every known one) and apply
        the policy to their completed assistant turns. Paused, lines are consumed and not
        counted (resuming does not replay what happened meanwhile)."""
        settings = self._settings_loader()
        registry = self._registry()
        ids = sorted(workspace_ids) if workspace_ids is not None else self._all_ids(registry)
        result = PollResult(polled=ids)
        for workspace_id in ids:
            if registry is None or paused or not self._eligible(workspace_id, registry, settings):
                self.monitor.skip(workspace_id)
                continue
            interval = registry.writer_interval
            for event in self.monitor.new_turns(workspace_id):
                ticket = self.scheduler.on_completed_turn(
                    workspace_id, event.message_id or event.id, interval
                )
                if ticket is not None:
                    result.tickets.append(ticket)
                    workspace = registry.workspace(workspace_id)
                    result.names[workspace_id] = workspace.display_name if workspace else ""
        return result

    def check_state_changes(self, workspace_ids: Iterable[str]) -> list[str]:
        """Workspaces whose state file another process just advanced, in `auto` mode:
        from now on they are left to that writer. Returns the newly yielded ones."""
        if self._settings_loader().mode is not WriterMode.AUTO:
            return []
        newly: list[str] = []
        for workspace_id in sorted(set(workspace_ids)):
            if workspace_id in self._yielded or self.scheduler.is_in_flight(workspace_id):
                continue
            if self.scheduler.is_foreign_change(workspace_id):
                logger.info(
                    "Another process (mux?) runs the memory writer for %s; Memtab leaves it be",
                    workspace_id,
                )
                self._yielded.add(workspace_id)
                newly.append(workspace_id)
        return newly

    def _registry(self) -> Registry | None:
        try:
            return load_registry(self.home)
        except HomeError as error:
            logger.warning("Memory writer: cannot read the registry: %s", error)
            return None

    def _all_ids(self, registry: Registry | None) -> list[str]:
        ids = set(self.monitor.workspace_ids_on_disk())
        if registry is not None:
            ids.update(workspace.id for workspace in registry.workspaces)
        return sorted(ids)

    def _eligible(self, workspace_id: str, registry: Registry, settings: WriterSettings) -> bool:
        if settings.mode is WriterMode.OFF:
            return False
        workspace = registry.workspace(workspace_id)
        if workspace is None or workspace.archived or workspace.parent_id is not None:
            return False
        return settings.mode is WriterMode.ALWAYS or workspace_id not in self._yielded

    # --- run thread -----------------------------------------------------------------------

    def run(self, ticket: RunTicket, cancel: threading.Event | None = None) -> WriterRunResult:
        """Run the writer for a ticket and end the ticket, whatever happens. Raises
        WriterServiceError when the run cannot start at all."""
        try:
            return self._run(ticket, cancel)
        finally:
            self.scheduler.finish_run(ticket)

    def _run(self, ticket: RunTicket, cancel: threading.Event | None) -> WriterRunResult:
        # lazy: the writer's engine (~1.4 MiB) with its first run, on the run thread
        from memtab.writer.job import providers, run

        try:
            workspace = load_registry(self.home).require_workspace(ticket.workspace_id)
        except HomeError as error:
            raise WriterServiceError(str(error)) from None
        try:
            provider, secrets = (self._provider_factory or providers.default_provider_factory)()
        except (ProviderError, SettingsFileError) as error:
            raise WriterServiceError(f"Cannot start the memory writer: {error}") from None
        try:
            path = self.home.transcript_path(workspace.id)
            try:
                events, whole = providers.read_for_run(provider, path, "mux")
            except OSError as error:
                raise WriterServiceError(
                    f"Cannot read the transcript {path}: {error.strerror or error}"
                ) from None
            settings = self._settings_loader()
            bound = providers.bind_to_run(
                provider, self.home, workspace, events.budget, settings, whole
            )
            return run.run_writer(
                self.home,
                workspace,
                events,
                bound,
                trigger_message_id=ticket.message_id,
                settings=settings,
                cancel=cancel,
                known_secrets=secrets,
                transcript_path=path,
                whole=whole,
            )
        finally:
            close_provider(provider)

    def abandon(self, ticket: RunTicket) -> None:
        """A ticket whose run never started (cancelled while queued)."""
        self.scheduler.abandon_run(ticket)
