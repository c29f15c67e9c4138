"""The window's own actions' words and steps, without Qt (the actions:
`gui/window/window_actions.py`): Help → About's text, Edit → Pause (Resume) the memory
writer's title, and what File → Open home finds in a folder and does with it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from memtab.components.jobs import JobContext
from memtab.components.rich_text import escape_html
from memtab.store.home import Home


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


@dataclass(frozen=True)
class HomeFolder:
    """What Open home found about a folder: whether it can be opened, and what to say
    before opening it (None: it is a memory home)."""

    path: Path
    can_open: bool
    note: str | None = None


def describe_home_folder(path: Path, _ctx: JobContext | None = None) -> HomeFolder:
    """Whether `path` can be opened as a home (a job: it looks at the disk).

    A folder without config.json, memory/ or sessions/ is not a memory home yet: Memtab
    can still open it (its files are made on the first write), but the user should know.
    """
    if not path.is_dir():
        return HomeFolder(path, False, f"{path} is not a folder")
    home = Home(path)
    if any(p.exists() for p in (home.config_path, home.global_root.parent, home.sessions_dir)):
        return HomeFolder(path, True)
    return HomeFolder(
        path,
        True,
        f"{path} is not a memory home yet (no config.json, memory/ or sessions/). "
        "Memtab creates its files there when you add memories.",
    )


class OpenHomeStep(NamedTuple):
    """What Open home does with a folder: say why not (`refusal`), or open it, after the
    user answered `question` if there is one."""

    refusal: str | None
    question: str | None


def open_home_step(found: HomeFolder) -> OpenHomeStep:
    """Open home's step for what it found: a folder that cannot be opened is refused with
    why; one that is not a memory home yet is asked about first."""
    if not found.can_open:
        return OpenHomeStep(found.note or f"Cannot open {found.path}", None)
    return OpenHomeStep(None, found.note)
