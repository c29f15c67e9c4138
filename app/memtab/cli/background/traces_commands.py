"""`memtab traces`: the trace dumps of the writer's and the consolidation's runs, newest first
(docs/formats.md §10.3)."""

from __future__ import annotations

from memtab.cli.common import command, elide, format_table
from memtab.fs.records import Record
from memtab.humanize import relative_time
from memtab.store.home import Home
from memtab.store.sidecars.registry import load_registry
from memtab.traces.catalog import list_traces, trace_workspace_ids
from memtab.traces.reader import TraceSummary

ERROR_COLUMN_WIDTH = 60


class TraceListing(Record, write_only=True):
    """`memtab traces --json`, newest first (docs/formats.md §10.3)."""

    traces: tuple[TraceSummary, ...]


@command("traces", writes_home=False)
def run_traces(home: Home, *, workspace: str | None = None) -> TraceListing:
    """list the writer's and consolidation's trace dumps (why runs failed)

    Args:
        workspace (ID): only this workspace's dumps
        json: machine-readable output
    """
    # Known if the registry lists it or it has dumps (a deleted one may).
    if workspace is not None and workspace not in trace_workspace_ids(home):
        load_registry(home).require_workspace(workspace)  # HomeError names it
    return TraceListing(traces=tuple(list_traces(home, workspace)))


@run_traces.text
def _print_traces(listing: TraceListing, home: Home, workspace: str | None) -> None:
    """The dumps: time, workspace, trigger, outcome, error and path."""
    if not listing.traces:
        where = f"workspace {workspace}" if workspace else str(home.root)
        print(
            f"No trace dumps for {where} (the writer saves one when a run fails, a "
            "consolidation with a model after every run)"
        )
        return
    rows = [["TIME", "RUN", "WORKSPACE", "TRIGGER", "OUTCOME", "ERROR", "PATH"]]
    for s in listing.traces:
        when, error = relative_time(s.run_started_at), s.error or s.problem or ""
        what = [s.kind, s.display_workspace, s.trigger_message_id or "", s.outcome.value]
        rows.append([when, *what, elide(error, ERROR_COLUMN_WIDTH), str(s.path)])
    print(format_table(rows))
