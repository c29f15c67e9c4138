"""The History panel without Qt: its rows (each version, then the agent's own commits),
what it says with no file or no versions, and what selecting a row offers — Restore (not
the version the file holds now, never a commit) and the diff's two sides."""

from __future__ import annotations

from dataclasses import dataclass

from memtab import humanize
from memtab.components.history.history import FileHistory, VersionRow
from memtab.file_protocol.memory_file import Commit
from memtab.store.history.versions import Version

NO_FILE = "Open a file to see its history."
NO_VERSIONS = (
    "No history yet: Memtab records a version at every change it makes or sees, from now on."
)
PICK_VERSION = "Select a version to compare it with the file now."
COMPUTING = "Computing the differences…"
NO_DIFFERENCES = "No differences: the file holds this version now."
COMMIT_PREFIX = "commit:"
COMMIT_WHO = "Its agent (git)"
COMMIT_NOT_RESTORED = (
    "A commit of the agent's own repository: Memtab shows it, copy what you need from the diff"
)
# recorded like any change: the version before comes back the same way
RESTORE_TIP = (
    "Make the file hold this version again (recorded too: the version before can be restored here)"
)
HOLDS_IT = "The file holds this version now"


@dataclass(frozen=True)
class PanelRow:
    """A row of the list: its id (a version's, or `commit:<sha>`), its cells (when, who,
    change, size) and the tooltip every cell shows."""

    id: str
    cells: tuple[str, str, str, str]
    tooltip: str


@dataclass(frozen=True)
class Selected:
    """What selecting a row offers: the version to diff (or the commit), whether Restore
    may run and its tooltip, and the diff's sides."""

    version: Version | None
    commit: Commit | None
    restore: bool
    restore_tip: str
    sides: tuple[str, str]


def version_row(row: VersionRow) -> PanelRow:
    size = row.size
    if row.size_change:
        size = f"{size} ({row.size_change})" if size else row.size_change
    return PanelRow(row.version.id, (row.when, row.who, row.change, size), row.tooltip)


def commit_row(commit: Commit) -> PanelRow:
    when = humanize.relative_time(commit.committed_at_ms)
    tip = f"{humanize.absolute_time(commit.committed_at_ms)} · commit {commit.sha[:10]}"
    return PanelRow(
        COMMIT_PREFIX + commit.sha,
        (when, COMMIT_WHO, f"Commit: {commit.subject}", ""),
        f"{tip}\n{commit.subject}",
    )


def panel_rows(history: FileHistory) -> list[PanelRow]:
    """Every version, newest first, then the commits of the agent's own repository."""
    return [version_row(row) for row in history.rows] + [commit_row(c) for c in history.commits]


def history_note(history: FileHistory) -> str:
    """What the panel says above its rows ("" when it has some)."""
    return "" if history.rows or history.commits else NO_VERSIONS


def title_text(label: str) -> str:
    return f"History of {label}"


def selected(history: FileHistory | None, row_id: object) -> Selected | None:
    """What selecting the row `row_id` offers (None: no such row)."""
    if history is None or not isinstance(row_id, str):
        return None
    now = "the file now" if history.current is not None else "no file now"
    sha = row_id.removeprefix(COMMIT_PREFIX)
    commit = next((c for c in history.commits if c.sha == sha), None)
    if commit is not None:
        when = humanize.absolute_time(commit.committed_at_ms)
        return Selected(
            None, commit, False, COMMIT_NOT_RESTORED, (f"commit {sha[:10]} ({when})", now)
        )
    row = next((row for row in history.rows if row.version.id == row_id), None)
    if row is None:
        return None
    version = row.version
    current = history.is_current(version)
    what = "what was deleted" if version.deleted else "this version"
    return Selected(
        version,
        None,
        not current,
        HOLDS_IT if current else RESTORE_TIP,
        (f"{what} ({row.when_exact})", now),
    )
