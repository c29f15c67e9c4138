"""A file's history as the window shows it, and the History panel without Qt: its rows, what it
says with no file or no versions, and what selecting a row offers."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from memtab import humanize
from memtab.components.jobs import CancelToken
from memtab.components.text_diff import DiffResult, compute_diff
from memtab.components.tree.nodes import SECTION_TITLES, SectionId
from memtab.file_protocol.file_ref import MUX_SOURCE_ID, MemoryFileRef
from memtab.file_protocol.memory_file import Commit, MemoryFile
from memtab.store.actors import actor_name
from memtab.store.catch_up.external import ExternalReport, record_external
from memtab.store.catch_up.recording import RecordingState, not_recorded_words, note_recording
from memtab.store.history.blobs import sha256_of
from memtab.store.history.prune import maybe_prune
from memtab.store.history.versions import Version
from memtab.store.history.xum_journal import XumJournal
from memtab.store.home import Home
from memtab.store.leftovers import remove_leftover_temps_once
from memtab.store.paths import PathError, Scope, parse_file_path
from memtab.store.restore.from_history import content_of, text_of
from memtab.store.scopes.memory import MemoryStore
from memtab.watch.sources import record_sources, recorder_running

SCOPE_TITLES = {scope: SECTION_TITLES[SectionId(scope.value)] for scope in Scope}
"""A scope as the tree's section names it."""


def actor_words(actor: str) -> str:
    """Who made a version, by name (`memtab.store.actors`)."""
    return actor_name(actor)


def change_words(version: Version) -> str:
    """What one version did to the file: `Edited`, `Renamed from old.md`, `Restored`…"""
    if version.op == "move":
        if version.moved_from:
            return _moved_words("from", version.moved_from, version.path)
        if version.moved_to:
            return _moved_words("to", version.moved_to, version.path)
    if version.deleted:
        return "Deleted"
    words = {
        "create": "Created",
        "edit": "Edited",
        "restore": "Restored an earlier version",
        "revert": "Reverted with its run",
        "seen": "First seen by Memtab",
    }
    return words.get(version.op, version.op.capitalize())


def _moved_words(direction: str, other: str, own: str) -> str:
    try:
        if (moved := parse_file_path(other)).parent == parse_file_path(own).parent:
            return f"Renamed {direction} {moved.name}"
    except PathError:
        pass
    return f"Moved {direction} {other}"


@dataclass(frozen=True)
class VersionRow:
    """One version as the History panel lists it."""

    version: Version
    when: str
    when_exact: str
    who: str
    change: str
    size: str
    size_change: str

    @property
    def tooltip(self) -> str:
        run = [f"Run {self.version.run_id}"] if self.version.run_id else []
        return "\n".join(
            [f"{self.when_exact} · {self.who}", self.change, *run, f"Version {self.version.id}"]
        )


def version_rows(
    versions: Sequence[Version], now: int | None = None, xum: XumJournal | None = None
) -> list[VersionRow]:
    """Rows for versions listed newest first; each says how the size changed from the
    version before it (a deletion takes everything away, a re-creation brings it back).
    A change from outside that xum's own undo journal names is said as its tool call."""
    rows = []
    for index, version in enumerate(versions):
        older = versions[index + 1] if index + 1 < len(versions) else None
        before = 0 if older is None or older.deleted else older.size_bytes
        if version.op == "seen" and older is None:
            delta = 0  # a baseline is where history starts, not a change
        elif version.deleted:
            delta = 0 if version.moved_to else -version.size_bytes
        else:
            delta = version.size_bytes - before
        when = (humanize.relative_time(version.at, now), humanize.absolute_time(version.at))
        size = "" if version.deleted else humanize.size_text(version.size_bytes)
        signed = f"{'+' if delta > 0 else '−'}{humanize.size_text(abs(delta))}" if delta else ""
        change = (change_words(version), size, signed)
        rows.append(VersionRow(version, *when, _who(version, xum), *change))
    return rows


@dataclass(frozen=True)
class FileHistory:
    """A file's versions (newest first, following renames) and what it holds now."""

    ref: MemoryFileRef  # The file, mux's or another agent's.
    rows: tuple[VersionRow, ...]
    current: bytes | None  # The file now (None: there is no file).
    commits: tuple[Commit, ...] = ()
    """The commits of the agent's own repository touching the file (Codex's memories)."""

    @property
    def versions(self) -> tuple[Version, ...]:
        return tuple(row.version for row in self.rows)

    def is_current(self, version: Version) -> bool:
        """Whether the file holds this version's content now."""
        if version.deleted:
            return self.current is None
        return self.current is not None and sha256_of(self.current) == version.sha256


def _who(version: Version, xum: XumJournal | None) -> str:
    # `mux`: the recorder's word for a change xum's tool made (docs/formats.md §14.5).
    if xum is not None and version.actor in ("external", "mux") and not version.deleted:
        edit = xum.edit_for(version.path, version.sha256, version.at)
        if edit is not None:
            return edit.words
    return actor_words(version.actor)


def load_file_history(file: MemoryFile) -> FileHistory:
    """Every version of `file`, its content now and its agent's commits touching it.
    Raises the protocol's MemoryFileError when the file cannot be read."""
    versions = file.versions()
    xum = XumJournal(file.home) if file.ref.source_id == MUX_SOURCE_ID else None  # a xum file
    rows = tuple(version_rows(versions, xum=xum))
    return FileHistory(file.ref, rows, file.read_whole(), file.commits())


def commit_diff(
    file: MemoryFile, sha: str, current: bytes | None, ctx: CancelToken | None = None
) -> DiffResult:
    """The diff from the file as of one of its agent's commits to the file now."""
    return compute_diff(file.commit_text(sha), text_of(current), ctx)


def version_diff(
    home: Home, version: Version, current: bytes | None, ctx: CancelToken | None = None
) -> DiffResult:
    """The diff from a version (a deletion: what was deleted) to the file now.
    HistoryError when history no longer has the version's content."""
    return compute_diff(text_of(content_of(home, version)), text_of(current), ctx)


def record_external_changes(
    store: MemoryStore, cancel: Callable[[], bool] | None = None
) -> ExternalReport:
    """After each scan: record what other programs changed (mux, an editor; other agents' sources
    unless `memtab watch` records them, §14.5), remove what a killed Memtab left once, and prune
    history when due. `cancel` stops it between batches: a closing window must not wait."""
    remove_leftover_temps_once(store.home)
    if recorder_running(store.home):
        return ExternalReport()
    report = record_external(store, cancel)
    if not report.cancelled:  # other agents' memory too, as the recorder does
        sources = record_sources(store.home, cancel=cancel)
        report.recorded += sources.recorded
        report.deleted += sources.deleted
        report.problems += sources.problems
        report.unrecorded = report.unrecorded or sources.unrecorded
    if report.unrecorded or not report.cancelled:
        note_recording(store.home, report.unrecorded, by=f"the window (pid {os.getpid()})")
    if not report.cancelled:
        maybe_prune(store.home)
    return report


def recording_notice(state: RecordingState | None) -> tuple[str, str] | None:
    """The status bar's note while history is not being recorded — a word, and what it
    means (`not_recorded_words`) — or None while it is (or nothing was said)."""
    if state is None or state.recording:
        return None
    since = humanize.absolute_time(state.since_ms)[:16] if state.since_ms else "a while"
    return "History not recorded", not_recorded_words(state, since)


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
    """A row of the list: its id (a version's, or `commit:<sha>`), its cells and its tooltip."""

    id: str
    cells: tuple[str, str, str, str]
    tooltip: str


@dataclass(frozen=True)
class Selected:
    """What a selected row offers: the version (or commit) to diff, Restore and its tip, sides."""

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
    tip = f"{humanize.absolute_time(commit.committed_at_ms)} · commit {commit.sha[:10]}\n"
    cells = (when, COMMIT_WHO, f"Commit: {commit.subject}", "")
    return PanelRow(COMMIT_PREFIX + commit.sha, cells, tip + commit.subject)


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
        sides = (f"commit {sha[:10]} ({humanize.absolute_time(commit.committed_at_ms)})", now)
        return Selected(None, commit, False, COMMIT_NOT_RESTORED, sides)
    row = next((row for row in history.rows if row.version.id == row_id), None)
    if row is None:
        return None
    version = row.version
    current = history.is_current(version)
    what = "what was deleted" if version.deleted else "this version"
    tip = HOLDS_IT if current else RESTORE_TIP
    return Selected(version, None, not current, tip, (f"{what} ({row.when_exact})", now))
