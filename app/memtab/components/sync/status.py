"""Where sync stands, without Qt (`gui/sync/` shows it): the status bar's corner in words,
the file-sync conflict copies a scan holds, which sync job runs next, what quitting with
changes unsent asks, and the jobs that look at the sync on its lane."""

from __future__ import annotations

import enum
import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from memtab.components.activity.change_batch import ChangeBatch
from memtab.components.jobs import JobContext
from memtab.components.tree.scan import HomeScan
from memtab.humanize import plural, relative_time
from memtab.store.conflict_copies import find_copies
from memtab.store.files import ScopeListing
from memtab.store.home import Home, PathKind
from memtab.store.paths import Scope
from memtab.sync.repository.layout import load_config
from memtab.sync.state import load_state

if TYPE_CHECKING:  # lazy: sync's engine (~1.5 MiB, ~90 ms), on its worker
    from memtab.sync.service import SyncConflict, SyncReport, SyncService, SyncStatus


@dataclass(frozen=True)
class SyncLine:
    """What the widget shows: its text, tooltip, and whether a click opens conflicts."""

    text: str
    tooltip: str
    conflicts: int = 0
    visible: bool = True


def sync_line(
    look: SyncLook, *, syncing: bool, copies: int, now_ms: int, progress: str = ""
) -> SyncLine:
    """The status line for where sync stands (pure: the tests read it)."""
    conflicts = len(look.conflicts) + copies
    if not look.configured:
        if not copies:
            return SyncLine("", "", visible=False)
        return SyncLine(
            plural(conflicts, "conflict"),
            "Conflict copies a file-sync tool made beside their originals; click to resolve.",
            conflicts,
        )
    remotes = ", ".join(look.targets)
    if syncing:
        return SyncLine("Syncing…", progress or f"Syncing memory with {remotes}", conflicts)
    if conflicts:
        parts = []
        if look.conflicts:
            parts.append(f"{plural(len(look.conflicts), 'file')} edited on two machines")
        if copies:
            parts.append(
                f"{plural(copies, 'conflict copy', 'conflict copies')} of a file-sync tool"
            )
        return SyncLine(
            plural(conflicts, "conflict"),
            f"{'; '.join(parts)}. Click to resolve them; neither side's text is lost.",
            conflicts,
        )
    failure = look.error or _failure(look)
    if failure:
        return SyncLine("Sync failed", f"{failure}\nClick to sync again.")
    arrows, waiting = _arrows(look), _waiting(look)
    offline = _offline(look)
    if offline is not None or look.offline_since is not None:
        at = look.offline_since
        since = "" if at is None else f" since {relative_time(at, now_ms)}"
        words = f"\n{offline}" if offline else ""
        return SyncLine(
            f"Offline · {arrows}" if arrows else "Offline",
            f"The remote cannot be reached{since}; changes wait here and go out at the "
            f"next sync.{waiting}{words}\nClick to try now.",
        )
    if look.last_sync_at is None:
        return SyncLine(
            f"Not synced yet · {arrows}" if arrows else "Not synced yet",
            f"Memory syncs with {remotes}.{waiting}\nClick to sync now.",
        )
    when = relative_time(look.last_sync_at, now_ms)
    return SyncLine(
        arrows or "In sync",
        f"Memory synced with {remotes} {when}.{waiting}\nClick to sync now.",
    )


def _arrows(look: SyncLook) -> str:
    """ "↑2 ↓1": files to send, files to bring in (none: empty)."""
    counts = (("↑", look.to_send), ("↓", look.to_receive))
    return " ".join(f"{arrow}{len(paths)}" for arrow, paths in counts if paths)


def _waiting(look: SyncLook) -> str:
    """What the arrows count, in words (each on a line of its own, after a line break)."""
    said = ""
    for arrow, paths, where, to in (
        ("↑", look.to_send, "here", "to be sent"),
        ("↓", look.to_receive, "on another machine", "to be brought in"),
    ):
        if count := len(paths):
            wait = "waits" if count == 1 else "wait"
            said += f"\n{arrow}{count}: {plural(count, 'file')} changed {where} {wait} {to} "
            said += f"({_names(paths)})"
    return said


_NAMED = 3  # files named in a tooltip or the quit question; more are counted


def _names(paths: tuple[str, ...]) -> str:
    names = ", ".join(path.rsplit("/", 1)[-1] for path in paths[:_NAMED])
    return names if len(paths) <= _NAMED else f"{names} and {len(paths) - _NAMED} more"


def why_not_synced(look: SyncLook) -> str | None:
    """Why the last sync could not sync, in git's words and the engine's (None: it did)."""
    return look.error or _failure(look) or _offline(look)


def _failure(look: SyncLook) -> str | None:
    if look.report is None:
        return None
    errors = [f"{t.target}: {t.error}" for t in look.report.targets if t.status == "failed"]
    return "\n".join(errors) or None


def _offline(look: SyncLook) -> str | None:
    if look.report is None:
        return None
    words = [t.offline for t in look.report.targets if t.status == "offline" and t.offline]
    offline = any(t.status == "offline" for t in look.report.targets)
    return "\n".join(words) if offline else None


NOT_SET_UP = "Sync is not set up for this home: File → Sync… sets it up (docs/sync.md)"
SYNCING = "Syncing memory…"


class CopyCounts:
    """How many file-sync conflict copies a scan's files hold."""

    def __init__(self) -> None:
        self._counted: dict[Scope, tuple[ScopeListing, int]] = {}

    def __call__(self, scan: HomeScan) -> int:
        total = 0
        for scope in scan.scopes:
            known = self._counted.get(scope.scope)
            if known is None or known[0] is not scope.listing:
                copies = find_copies(entry.path for entry in scope.listing.files)
                known = self._counted[scope.scope] = (scope.listing, len(copies))
            total += known[1]
        return total


class SyncNowNote:
    """The status bar's note of a Sync now."""

    def __init__(self) -> None:
        self._announced = False  # "Syncing memory…" is shown
        self._ended = False  # and the sync it announced ended

    def sync_now(self, *, configured: bool) -> str:
        """Sync now was asked for: the note now."""
        self._announced = configured
        return SYNCING if configured else NOT_SET_UP

    def busy_changed(self, busy: bool) -> None:
        """A sync started or ended."""
        self._ended = self._announced and not busy

    def looked(self, line: str) -> str | None:
        """A job said where sync stands (`line`, the corner's): the note once the announced
        sync ended (None: no note)."""
        if not self._ended:
            return None
        self._announced = self._ended = False
        return f"Sync finished: {line}"


# `look`: read where sync stands (no git, no network); `changes`: sync only when this machine
# has changes to send (after an edit); `full`: sync every target (Sync now, the schedule).
SyncKind = Literal["look", "changes", "full"]

_RANK: dict[SyncKind, int] = {"look": 0, "changes": 1, "full": 2}
_MEMORY_KINDS = (PathKind.GLOBAL_SCOPE, PathKind.PROJECT_SCOPE, PathKind.WORKSPACE_SCOPE)


class Schedule(enum.Enum):
    """What the schedule's timer does after a job."""

    STOP = "stop"  # Sync is not set up (or the window closes): no sync is scheduled.
    FIRST = "first"  # Sync was just found set up: the first full sync, soon.
    INTERVAL = "interval"  # A full sync ended: the next one an interval later.
    KEEP = "keep"  # A sync is scheduled already: it stays as it is.


@dataclass(frozen=True)
class BatchWants:
    """What a watcher batch asks of the window's sync."""

    look: bool = False  # Sync's set-up or a target's state changed (the CLI): look again now.
    settle: bool = False  # A memory file changed: sync once they settle, count what waits soon.


def batch_wants(batch: ChangeBatch, *, configured: bool) -> BatchWants:
    """What `batch` asks of a sync `configured` (set up) or not."""
    return BatchWants(
        look=batch.affects(PathKind.SYNC),
        settle=configured and any(batch.affects(kind) for kind in _MEMORY_KINDS),
    )


def schedule_after(
    kind: SyncKind, *, configured: bool, scheduled: bool, closed: bool = False
) -> Schedule:
    """The schedule after a job of `kind` ended (`scheduled`: a sync is scheduled now)."""
    if closed or not configured:
        return Schedule.STOP
    if kind == "full":
        return Schedule.INTERVAL
    return Schedule.KEEP if scheduled else Schedule.FIRST


class SyncTurns:
    """One sync job at a time; the jobs' ids are the client's."""

    def __init__(self) -> None:
        self._running: tuple[int, SyncKind] | None = None
        self._waiting: SyncKind | None = None
        self.closed = False

    @property
    def busy(self) -> bool:
        """Whether a job runs or waits."""
        return self._running is not None or self._waiting is not None

    @property
    def syncing(self) -> bool:
        """Whether a sync that talks to the remote runs (not a look)."""
        return self._running is not None and self._running[1] != "look"

    @property
    def cancellable(self) -> int | None:
        """The job to stop on Cancel: the sync that runs (a look is not stopped)."""
        return self._running[0] if self._running is not None and self.syncing else None

    def request(self, kind: SyncKind) -> SyncKind | None:
        """A job of `kind` is wanted: the kind to submit now, or None (it waits for the
        one running, or the window closes)."""
        if self.closed:
            return None
        if self._running is not None:
            if self._waiting is None or _RANK[kind] > _RANK[self._waiting]:
                self._waiting = kind
            return None
        return kind

    def submitted(self, job_id: int, kind: SyncKind) -> None:
        """The job `job_id` of `kind` was submitted (what `request` or `ended` gave)."""
        self._running = (job_id, kind)

    def ended(self, job_id: int) -> tuple[SyncKind | None, SyncKind | None]:
        """The job `job_id` ended (finished, failed or was cancelled): its kind (None: not
        the one running) and the kind to submit now (what waited, unless closing)."""
        if self._running is None or self._running[0] != job_id:
            return None, None
        kind = self._running[1]
        self._running = None
        if self.closed:
            return kind, None
        waiting, self._waiting = self._waiting, None
        return kind, waiting


class UnsentChoice(enum.Enum):
    SYNC = "sync"
    QUIT = "quit"
    CANCEL = "cancel"


class QuitStep(enum.Enum):
    """What the window does next."""

    NOTHING = "nothing"
    LOOK = "look"  # look where sync stands, saying so in the status bar
    ASK = "ask"  # open the question (its text and detail)
    CLOSE = "close"  # close the window
    DISMISS_AND_CLOSE = "dismiss and close"  # close the open question, then the window
    SYNC = "sync"  # sync now, saying so in the status bar


@dataclass(frozen=True)
class QuitAction:
    step: QuitStep
    text: str = ""
    detail: str = ""


def unsent_question(look: SyncLook, failure: str | None = None) -> tuple[str, str]:
    """The question and its detail for the changes `look` counts as not sent (`failure`:
    why the sync just tried could not send them)."""
    waiting = look.to_send
    names = _names(waiting)
    them = "it" if len(waiting) == 1 else "them"
    why = f"The sync could not send {them}: {failure}\n\n" if failure else ""
    return (
        f"{plural(len(waiting), 'change')} not sent yet",
        f"{why}{names} changed here, and no sync has sent {them} yet. Sync now sends "
        f"{them} before Memtab quits; quit anyway, and the next sync sends what waits.",
    )


def why_not_sent(look: SyncLook | None) -> str:
    """Why the sync Sync now ran did not send what waits."""
    return "the sync was stopped" if look is None else why_not_synced(look) or "it is still waiting"


class QuitQuestion:
    """The question's state: what closing waits for (a look or a sync), why the last sync
    did not send, whether the question is open, and what closes the window at the end."""

    def __init__(self) -> None:
        self._then: Callable[[], object] | None = None
        self._waiting: QuitStep | None = None  # LOOK or SYNC: what the answer waits for
        self._failure: str | None = None
        self.asking = False  # Whether the question is open.

    def ask(self, then: Callable[[], object]) -> QuitStep:
        """The window closes; `then` closes it once nothing waits."""
        first = self._then is None
        self._then = then
        if self._waiting is QuitStep.SYNC:  # closed again while it syncs: quit at once
            self._waiting = None
            return QuitStep.CLOSE
        if first:
            self._failure = None
            self._waiting = QuitStep.LOOK
            return QuitStep.LOOK
        return QuitStep.NOTHING

    def sync_changed(self, look: SyncLook, *, busy: bool) -> QuitAction:
        """Sync says where it stands (`busy`: a sync runs, its look is not the last)."""
        if busy:
            return QuitAction(QuitStep.NOTHING)
        if self.asking and not look.to_send:  # a sync sent it meanwhile
            self.asking = False
            return QuitAction(QuitStep.DISMISS_AND_CLOSE)
        if self._waiting is not QuitStep.LOOK:
            return QuitAction(QuitStep.NOTHING)
        self._waiting = None
        if not look.configured or not look.to_send:
            return QuitAction(QuitStep.CLOSE)
        self.asking = True
        text, detail = unsent_question(look, self._failure)
        return QuitAction(QuitStep.ASK, text, detail)

    def sync_finished(self, look: SyncLook | None) -> QuitStep:
        """A sync ended (`look`: where it left things; None: it was stopped)."""
        if self._waiting is not QuitStep.SYNC:
            return QuitStep.NOTHING
        if look is not None and look.to_send == () and look.error is None:
            self._waiting = None
            return QuitStep.CLOSE
        self._failure = why_not_sent(look)
        self._waiting = QuitStep.LOOK
        return QuitStep.LOOK  # ask again, with why

    def answered(self, choice: UnsentChoice) -> QuitStep:
        """The question's answer."""
        self.asking = False
        if choice is UnsentChoice.QUIT:
            return QuitStep.CLOSE
        if choice is UnsentChoice.SYNC:
            self._waiting = QuitStep.SYNC
            return QuitStep.SYNC
        self._then = None
        return QuitStep.NOTHING

    def take_then(self) -> Callable[[], object] | None:
        """What closes the window (once)."""
        then, self._then = self._then, None
        return then


@dataclass(frozen=True)
class SyncLook:
    """Where sync stands after a job."""

    targets: tuple[str, ...] = ()  # The home's sync targets (none: sync is not set up).
    conflicts: tuple[SyncConflict, ...] = ()
    report: SyncReport | None = None  # What the last sync did (None: none yet in this window).
    # Whether this job synced (False: it only looked, or had nothing to send; `report` is
    # then the one before, kept by `WindowSync`).
    synced: bool = False
    error: str | None = None  # Why the job could not sync at all (git missing, a broken set-up).
    last_sync_at: int | None = None
    offline_since: int | None = None
    to_send: tuple[str, ...] = ()  # Memory files (virtual paths) changed here, not sent yet.
    # The memory files another machine changed that are not here yet (as of the last fetch,
    # and the merges that wait to be written).
    to_receive: tuple[str, ...] = ()

    @property
    def configured(self) -> bool:
        return bool(self.targets)


def service_for(home: Home, git_program: str | None = None) -> SyncService:
    """The engine's service for `home` (imported now, on the lane)."""
    # lazy: sync's engine (~1.5 MiB, ~90 ms), on its worker
    from memtab.sync.service import SyncService

    return SyncService(home, git_program=git_program)


def run_sync(
    home: Home,
    kind: SyncKind,
    *,
    git_program: str | None = None,
    progress: Callable[[str], None] | None = None,
    cancel: Callable[[], bool] | None = None,
) -> SyncLook:
    """Look at, or sync, the home's targets (see `SyncKind`)."""
    config = load_config(home)
    names = tuple(target.name for target in config.targets)
    if not names:
        return SyncLook()
    # lazy: sync's engine (~1.5 MiB, ~90 ms), on its worker
    from memtab.sync.service import SyncError

    service = service_for(home, git_program)
    report = error = status = None
    try:
        if kind == "changes":
            status = service.status(cancel=cancel)
        # this machine has changes no sync sent yet (no network)
        ahead = status is not None and any(t.local_changes or t.ahead for t in status.targets)
        if kind == "full" or ahead:
            report = service.sync(progress=progress, cancel=cancel)
            status = None  # what it sent and brought in changed where things stand
        if status is None:
            status = service.status(cancel=cancel)
    except SyncError as failure:
        error = str(failure)
    return _look(service, names, report, error, status)


def look_or_sync(home: Home, kind: SyncKind, git_program: str | None, ctx: JobContext) -> SyncLook:
    """`run_sync` as the window's job: progress lines reported, stopped when cancelled."""
    return run_sync(
        home,
        kind,
        git_program=git_program,
        progress=functools.partial(ctx.report_progress, 0),
        cancel=ctx.is_cancelled,
    )


def _look(
    service: SyncService,
    names: tuple[str, ...],
    report: SyncReport | None,
    error: str | None,
    status: SyncStatus | None,
) -> SyncLook:
    states = [load_state(service.paths.state(name)) for name in names]
    synced = [state.last_sync_at for state in states if state.last_sync_at is not None]
    offline = [state.offline_since for state in states if state.offline_since is not None]
    targets = status.targets if status is not None else ()
    return SyncLook(
        names,
        tuple(service.conflicts()),
        report,
        report is not None,
        error,
        last_sync_at=min(synced) if len(synced) == len(states) else None,
        offline_since=min(offline) if offline else None,
        to_send=tuple(sorted({path for target in targets for path in target.to_send})),
        to_receive=tuple(sorted({path for target in targets for path in target.to_receive})),
    )
