"""The memory writer's corner of the status bar without Qt: the writer's status, the line
and tooltip it shows (a link to the trace of a failed run, or to the last run's news),
the dot's colour, and what the pause button says."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from pathlib import Path

from memtab.components.rich_text import escape_html
from memtab.components.writer.news import WriterNews

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
    """The writer's status for the status bar. `message` is the last run's one-line
    summary (or error); `trace_path` the dump of a failed run, when one was written;
    `standby` means another Memtab process runs the writer of this home."""

    activity: WriterActivity = WriterActivity.IDLE
    paused: bool = False
    standby: bool = False
    workspace_id: str | None = None
    workspace_name: str | None = None
    message: str = ""
    trace_path: Path | None = None


@dataclass(frozen=True)
class StatusView:
    """What the widget shows: the line as rich text (with its link) and as plain text,
    the tooltip, the dot's colour and the pause button's words."""

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


def news_shown(status: WriterStatus, news: WriterNews | None) -> bool:
    """Whether the line is the last run's news, a link that opens it."""
    return news is not None and not status.standby and status.activity is WriterActivity.IDLE


def status_view(status: WriterStatus, news: WriterNews | None, *, paused: bool) -> StatusView:
    """The widget for `status` (`news`: the last run's; `paused`: the button's state)."""
    text = status_text(status, news)
    html = escape_html(text)
    tip = status.message
    if status.activity is WriterActivity.FAILED:
        if status.trace_path is not None:
            html += f' · <a href="{TRACE_LINK}">view trace</a>'
    elif news is not None and news_shown(status, news):
        html = f'<a href="{NEWS_LINK}">{html}</a>'
        tip = news.details()
    key = "paused" if paused and status.activity is WriterActivity.IDLE else None
    return StatusView(
        html=html,
        text=text,
        tooltip=tip,
        dot_color=DOT_COLORS[key or status.activity.value],
        toggle="Resume" if paused else "Pause",
        toggle_name="Resume the memory writer" if paused else "Pause the memory writer",
        toggle_tooltip=(
            "Resume the background memory writer"
            if paused
            else "Pause the background memory writer (no runs until resumed)"
        ),
    )
