"""Which dump the Traces tab reads and shows, without Qt: the dump shown, the one being read
and the one asked for before a scan listed it — `gui/traces/tab.py` keeps the list, its
selection, the filters and the job client.

- Moving the selection reads the dump selected, unless it is the one shown or being read.
- A dump asked for (`show_trace`) that the list does not hold yet (just written) is read at
  once and selected when the rescan this asks for lands, its filters cleared.
- After a scan: the dump asked for is selected; else the one selected stays selected (a
  dump no longer listed leaves the detail saying it was pruned); else, when nothing is
  shown or read, the newest is selected, to start.
- The row of the dump shown in a new scan: adopted (read before the scan saw it), or read
  again when it changed on disk (`components.traces.rows.reopen_after_scan`).
- The list is scanned again when a dump or the registry (workspaces' names) changed.
"""

from __future__ import annotations

import enum
from pathlib import Path

from memtab.components.activity.change_batch import ChangeBatch
from memtab.components.jobs import JobContext
from memtab.components.traces.rows import Reopen, reopen_after_scan, same_path
from memtab.store.home import PathKind
from memtab.traces.catalog import TraceCatalog
from memtab.traces.reader import TraceDump, TraceSummary, parse_trace

DUMP_GONE = "The dump you were looking at was deleted (the writer prunes old dumps)."


def trace_list(catalog: TraceCatalog, _ctx: JobContext) -> list[TraceSummary]:
    """The job: every dump of the catalog's home, summarized."""
    return catalog.scan()


def read_trace(path: Path, _ctx: JobContext) -> TraceDump:
    """The job: one dump, read in full (the reader never raises on a bad file)."""
    return parse_trace(path)


def cannot_open(message: str) -> str:
    return f"Could not open this dump: {message}"


def cannot_list(message: str) -> str:
    return f"Could not list the trace dumps: {message}"


def rescans(batch: ChangeBatch) -> bool:
    """Whether `batch` changes the list: a dump, or the registry (workspaces' names)."""
    return batch.affects(PathKind.WRITER_TRACES) or batch.affects(PathKind.CONFIG)


class AfterScan(enum.Enum):
    """What a scan landed selects."""

    ASKED = "asked"
    """The dump asked for, filters cleared (`asked`)."""
    KEPT = "kept"
    """The dump selected before, if the filters still show it (else `lost`)."""
    NEWEST = "newest"
    """The first row, to start."""
    NOTHING = "nothing"


class TraceOpening:
    """The dump shown, read and asked for (see the module docstring)."""

    def __init__(self) -> None:
        self.shown: TraceSummary | None = None
        """What the detail pane was filled from."""
        self.reading: Path | None = None
        self.asked: Path | None = None

    def selected(self, path: Path) -> bool:
        """The selection moved to `path`: whether it is read."""
        if self.shown is not None and same_path(self.shown.path, path):
            return False
        return self.reading is None or not same_path(self.reading, path)

    def read(self, path: Path) -> None:
        """`path` is being read."""
        self.reading = path

    def ask(self, path: Path) -> None:
        """`path` was asked for before the list held it: selected after the next scan."""
        self.asked = path

    def landed(self, listed: TraceSummary | None, read: TraceSummary) -> TraceSummary:
        """A dump was read (`read`: its own summary; `listed`: its row, if listed): what the
        detail shows it as."""
        self.reading = None
        self.shown = listed or read
        return self.shown

    def after_scan(self, selected: Path | None, *, rows: int) -> tuple[AfterScan, Path | None]:
        """A scan of `rows` landed, `selected` selected before: what to select."""
        asked, self.asked = self.asked, None
        if asked is not None:
            return AfterScan.ASKED, asked
        if selected is not None:
            return AfterScan.KEPT, selected
        if rows and self.shown is None and self.reading is None:
            return AfterScan.NEWEST, None
        return AfterScan.NOTHING, None

    def lost(self) -> str:
        """The dump selected is no longer listed: what the detail says."""
        self.shown = None
        return DUMP_GONE

    def listed(self, row: TraceSummary) -> bool:
        """The row of a dump selected in a new scan: whether it is read again."""
        reopen = reopen_after_scan(self.shown, row)
        if reopen is Reopen.ADOPT:
            self.shown = row
        return reopen is Reopen.REOPEN
