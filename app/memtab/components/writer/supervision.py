"""The background writer in the window, without Qt: its supervision (when it begins, which
jobs a batch asks for, which runs are queued or going), what its last run means in words,
and its corner of the status bar — `gui/writer/feedback.py` keeps the job clients."""

from __future__ import annotations

import difflib
import enum
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Generic, TypeVar

from memtab import humanize
from memtab.components.activity.change_batch import ChangeBatch
from memtab.components.rich_text import escape_html
from memtab.markdown import LineKind, classify, text_lines
from memtab.store.home import PathKind, PathPlace
from memtab.store.paths import PathError, parse_file_path

if TYPE_CHECKING:  # lazy: the engine loads with its first job; components name its types only
    from memtab.writer.job.policy import RunTicket

STANDBY = "Another Memtab process runs the memory writer of this home"


class WatchJob(enum.Enum):
    """The writer's jobs on the jobs lane."""

    BEGIN = enum.auto()
    POLL = enum.auto()
    CHECK = enum.auto()


@dataclass(frozen=True)
class WatchStep:
    """A watch job: `BEGIN`; `POLL` of `keys` (None: every transcript); `CHECK` of `keys`."""

    kind: WatchJob
    keys: list[str] | None = None


T = TypeVar("T", bound="RunTicket")


class Supervision(Generic[T]):
    """The writer's supervision in one window; the jobs' ids are the clients'."""

    def __init__(self) -> None:
        self._watch_jobs: dict[int, WatchJob] = {}
        self._tickets: dict[int, T] = {}
        self._running: set[int] = set()
        self._names: dict[str, str] = {}
        self.status = WriterStatus()
        self._started = False
        self._active = False  # holds the lock and follows transcripts
        self._beginning = False  # a BEGIN job is queued or running
        self._changed_while_beginning = False
        self.closed = False

    def start(self) -> WatchStep | None:
        """The window starts the writer: the BEGIN to submit (None: started already, or closed)."""
        if self._started or self.closed:
            return None
        self._started = True
        return self._begin()

    def _begin(self) -> WatchStep | None:
        if self._beginning:
            return None
        self._beginning = True
        self._changed_while_beginning = False
        return WatchStep(WatchJob.BEGIN)

    def began(self, took_lock: bool) -> tuple[bool, WatchStep | None]:
        """The BEGIN job ended: whether the writer follows transcripts now (monitoring
        starts), and a poll of everything when a change came while the lock was taken."""
        self._beginning = False
        if not took_lock:
            self.status = replace(self.status, standby=True, message=STANDBY)
            return False, None
        self._active = True
        if self.status.standby:
            self.status = replace(self.status, standby=False, message="")
        if self._changed_while_beginning:
            # A change reported while the lock was being taken may postdate the ends the
            # prime read: look at every transcript once more.
            return True, WatchStep(WatchJob.POLL)
        return True, None

    def batch_steps(self, batch: ChangeBatch) -> list[WatchStep]:
        """The watch jobs a watcher batch asks for, in order."""
        if not self._started or self.closed:
            return []
        if not self._active:
            if self._beginning:
                self._changed_while_beginning = True
                return []
            step = self._begin()  # this batch is history to a newcomer: it starts at the end
            return [step] if step is not None else []
        steps = []
        states = sorted(batch.keys(PathKind.WRITER_STATE))
        if states:
            steps.append(WatchStep(WatchJob.CHECK, states))
        everything = batch.everything or PathPlace(PathKind.WORKSPACE_DIR) in batch.places
        transcripts = sorted(
            batch.keys(PathKind.CHAT_TRANSCRIPT) | batch.keys(PathKind.WORKSPACE_DIR)
        )
        if everything or transcripts:
            steps.append(WatchStep(WatchJob.POLL, None if everything else transcripts))
        return steps

    def watch_submitted(self, job: int, kind: WatchJob) -> None:
        self._watch_jobs[job] = kind

    def watch_ended(self, job: int, *, finished: bool = True) -> WatchJob | None:
        """The watch job `job` ended (not `finished`: it failed or was cancelled, and a
        BEGIN that did not finish is tried again with the next change): its kind."""
        kind = self._watch_jobs.pop(job, None)
        if kind is WatchJob.BEGIN and not finished:
            self._beginning = False
        return kind

    @property
    def paused(self) -> bool:
        return self.status.paused

    def set_paused(self, paused: bool) -> list[int] | None:
        """Pause or resume: the queued runs to withdraw (None: it was so already)."""
        if paused == self.status.paused:
            return None
        self.status = replace(self.status, paused=paused)
        return self.queued() if paused else []

    def queued(self) -> list[int]:
        """The runs queued and not going yet (withdrawn when paused or turned off)."""
        return [job for job in self._tickets if job not in self._running]

    def polled(self, names: dict[str, str], tickets: Iterable[T]) -> tuple[list[T], list[T]]:
        """A poll's tickets (and the workspaces' names): those to run and those abandoned
        (paused or closing)."""
        self._names.update(names)
        if self.closed or self.paused:
            return [], list(tickets)
        return list(tickets), []

    def run_submitted(self, job: int, ticket: T) -> None:
        self._tickets[job] = ticket

    def run_started(self, job: int) -> T | None:
        """The run `job` starts: its ticket (None: not a run of ours); the status says so."""
        ticket = self._tickets.get(job)
        if ticket is None:
            return None
        self._running.add(job)
        self.settle(WriterActivity.RUNNING, ticket, self.status.message)
        return ticket

    def run_ended(self, job: int) -> tuple[T | None, bool]:
        """The run `job` ended: its ticket (None: not a run of ours) and whether it had started."""
        started = job in self._running
        self._running.discard(job)
        return self._tickets.pop(job, None), started

    def settle(
        self, activity: WriterActivity, ticket: T, message: str, trace: Path | None = None
    ) -> None:
        """The status a run's end leaves."""
        self.status = replace(
            self.status,
            activity=activity,
            workspace_id=ticket.workspace_id,
            workspace_name=self._name(ticket),
            message=message,
            trace_path=trace,
        )

    def _name(self, ticket: T) -> str:
        return self._names.get(ticket.workspace_id) or ticket.workspace_id


class NewsKind(enum.StrEnum):
    """What the run did that is worth saying."""

    RECORDED = "recorded"
    SUGGESTED = "suggested"


def added_lines(before: str, after: str) -> tuple[int, ...]:
    """The numbers (from 0) of the lines of `after` that are not in `before` — the lines
    a run added or changed — leaving out blank ones."""
    old, new = text_lines(before), text_lines(after)
    added: list[int] = []
    matcher = difflib.SequenceMatcher(a=old, b=new, autojunk=False)
    for tag, _i1, _i2, j1, j2 in matcher.get_opcodes():
        if tag in ("insert", "replace"):
            added.extend(j for j in range(j1, j2) if new[j].strip())
    return tuple(added)


def count_notes(after: str, lines: tuple[int, ...]) -> int:
    """How many notes the added `lines` hold: the bullets among them (a note written as
    a plain line counts too when no bullet was added)."""
    kinds = [line.kind for line in classify(text_lines(after))]
    added = [kinds[n] for n in lines if n < len(kinds)]
    bullets = added.count(LineKind.LIST_ITEM)
    return bullets or len(added) - added.count(LineKind.HEADING)


def file_name(virtual_path: str) -> str:
    """The file's name for a sentence (`notes.md`), or the path when it is not one."""
    try:
        return parse_file_path(virtual_path).name
    except PathError:
        return virtual_path


@dataclass(frozen=True)
class WriterNews:
    """A run's news for one workspace."""

    kind: NewsKind
    workspace_id: str
    workspace_name: str
    memory_path: str
    count: int
    at_ms: int
    lines: tuple[int, ...] = ()
    left_out: int = 0
    """Notes past the offline writer's per-run limit, not kept (the less sure ones)."""

    def text(self, now: int | None = None) -> str:
        """The status bar's line."""
        notes = humanize.plural(self.count, "note") + self._left_out_clause()
        if self.kind is NewsKind.RECORDED:
            when = humanize.relative_time(self.at_ms, now)
            return f"Recorded {notes} in {file_name(self.memory_path)} · {when}"
        return f"Suggested {notes} — review"

    def _left_out_clause(self) -> str:
        # The words of the run's summary in the runs log and the CLI (writer/job/run.py).
        return f" ({self.left_out} less sure left out)" if self.left_out else ""

    def details(self) -> str:
        """A tooltip: where, for which workspace, and what clicking does."""
        where = f"{self.memory_path} of workspace {self.workspace_name}"
        when = humanize.absolute_time(self.at_ms)
        left_out = ""
        if self.left_out:
            found = f"It found {humanize.plural(self.left_out, 'more note')}"
            them = "them" if self.left_out > 1 else "it"
            why = "a run keeps only its surest, so that a review stays short"
            left_out = f" {found} and left {them} out: {why}."
        if self.kind is NewsKind.RECORDED:
            return f"The memory writer added to {where} at {when}.{left_out} Click to open it."
        return (
            f"The offline memory writer suggested notes for {where} at {when}.{left_out} "
            "Click to review them: accept, edit then accept, or dismiss each."
        )

    def notification(self) -> tuple[str, str]:
        """(title, body) of a desktop notification."""
        notes = humanize.plural(self.count, "note")
        if self.kind is NewsKind.RECORDED:
            where = f"In {file_name(self.memory_path)} of {self.workspace_name}"
            return (f"Memtab recorded {notes}", where)
        return (f"Memtab suggested {notes}", f"For {self.workspace_name}: review them in Memtab")


def news_from_run(
    *,
    outcome: str,
    workspace_id: str,
    workspace_name: str,
    memory_path: str,
    before: str,
    after: str,
    suggested: int,
    at_ms: int,
    left_out: int = 0,
) -> WriterNews | None:
    """The news of a finished run (None when it found nothing new, or failed)."""
    if outcome == "wrote":
        lines = added_lines(before, after)
        count = count_notes(after, lines)
        if count <= 0:
            return None  # it only removed or reworded: nothing recorded
        kind = NewsKind.RECORDED
    elif outcome == "suggested" and suggested > 0:
        kind, count, lines = NewsKind.SUGGESTED, suggested, ()
    else:
        return None
    return WriterNews(
        kind, workspace_id, workspace_name, memory_path, count, at_ms, lines, left_out
    )


TRACE_LINK = "memtab-writer-trace"
NEWS_LINK = "memtab-writer-news"
DOT_COLORS = {
    "idle": "#8a8f98",
    "paused": "#c98a00",
    "running": "#2f7de1",
    "failed": "#d33a2c",
}


class WriterActivity(enum.StrEnum):
    """What the writer is doing."""

    IDLE = "idle"
    RUNNING = "running"
    FAILED = "failed"


@dataclass(frozen=True)
class WriterStatus:
    """The writer's status bar state; `standby`: another Memtab process runs this home's writer."""

    activity: WriterActivity = WriterActivity.IDLE
    paused: bool = False
    standby: bool = False
    workspace_id: str | None = None
    workspace_name: str | None = None
    message: str = ""
    trace_path: Path | None = None


@dataclass(frozen=True)
class StatusView:
    """The widget's line (rich and plain), tooltip, dot colour and pause button's words."""

    html: str
    text: str
    tooltip: str
    dot_color: str
    toggle: str
    toggle_name: str
    toggle_tooltip: str


def status_text(status: WriterStatus, news: WriterNews | None = None) -> str:
    """The plain-text line the widget shows for a status (and the last run's news)."""
    name = status.workspace_name or status.workspace_id or ""
    if status.activity is WriterActivity.RUNNING:
        return f"Writing memory for {name}…"
    if status.activity is WriterActivity.FAILED:
        return f"Memory writer failed for {name}"
    if status.standby:
        return "Memory writer runs in another Memtab window"
    if news is not None:
        return news.text() + (" · writer paused" if status.paused else "")
    return "Memory writer paused" if status.paused else "Memory writer idle"


def status_view(status: WriterStatus, news: WriterNews | None, *, paused: bool) -> StatusView:
    """The widget for `status` (`news`: the last run's; `paused`: the button's state)."""
    text = status_text(status, news)
    html = escape_html(text)
    tip = status.message
    if status.activity is WriterActivity.FAILED:
        if status.trace_path is not None:
            html += f' · <a href="{TRACE_LINK}">view trace</a>'
    elif news is not None and not status.standby and status.activity is WriterActivity.IDLE:
        # the line is the last run's news, a link that opens it
        html = f'<a href="{NEWS_LINK}">{html}</a>'
        tip = news.details()
    key = "paused" if paused and status.activity is WriterActivity.IDLE else None
    writer = "the background memory writer"
    return StatusView(
        html=html,
        text=text,
        tooltip=tip,
        dot_color=DOT_COLORS[key or status.activity.value],
        toggle="Resume" if paused else "Pause",
        toggle_name="Resume the memory writer" if paused else "Pause the memory writer",
        toggle_tooltip=f"Resume {writer}" if paused else f"Pause {writer} (no runs until resumed)",
    )
