"""The window's own actions' words and steps, without Qt (the actions:
`gui/window/window_actions.py`): Help → About's text, Edit → Pause (Resume) the memory
writer's title, and what File → Open home does with what it found about a folder.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple, Protocol

from memtab.components.rich_text import escape_html


def about_html(version: str, home: Path, log: Path | None) -> str:
    """Help → About: the version, the home and where the log is."""
    log_line = (
        f"Log: <code>{escape_html(str(log))}</code>"
        if log is not None
        else "Log: not written (run with --verbose to log to the terminal)"
    )
    return (
        f"<b>Memtab {version}</b><p>Browse, edit and consolidate the memories your "
        f"coding agents keep.</p><p>Home: <code>{escape_html(str(home))}</code></p>"
        f"<p>{log_line}</p>"
    )


def writer_pause_title(paused: bool) -> str:
    """Edit's entry for the memory writer: Resume once paused."""
    return "Resume the memory &writer" if paused else "Pause the memory &writer"


class FoundFolder(Protocol):
    """What Open home found about a folder (`operations.home.HomeFolder`)."""

    @property
    def path(self) -> Path: ...

    @property
    def can_open(self) -> bool: ...

    @property
    def note(self) -> str | None: ...


class OpenHomeStep(NamedTuple):
    """What Open home does with a folder: say why not (`refusal`), or open it, after the
    user answered `question` if there is one."""

    refusal: str | None
    question: str | None


def open_home_step(found: FoundFolder) -> OpenHomeStep:
    """Open home's step for what it found: a folder that cannot be opened is refused with
    why; one that is not a memory home yet is asked about first."""
    if not found.can_open:
        return OpenHomeStep(found.note or f"Cannot open {found.path}", None)
    return OpenHomeStep(None, found.note)
