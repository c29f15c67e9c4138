"""`memtab traces`: the trace dumps of the writer's and the consolidation's runs, newest first
(docs/formats.md §10.3)."""

from __future__ import annotations

import argparse

from memtab.cli.common import Argument, command, elide, format_table, open_home
from memtab.fs.records import Record
from memtab.humanize import relative_time
from memtab.store.sidecars.registry import load_registry
from memtab.traces.catalog import list_traces, trace_workspace_ids
from memtab.traces.reader import TraceSummary

ERROR_COLUMN_WIDTH = 60


class TraceListing(Record, write_only=True):
    """`memtab traces --json`, newest first (docs/formats.md §10.3)."""

    traces: tuple[TraceSummary, ...]


@command(
    "traces",
    Argument.workspace("only this workspace's dumps"),
    Argument.json("machine-readable output"),
    writes_home=False,
    help="list the writer's and consolidation's trace dumps (why runs failed)",
)
def run_traces(args: argparse.Namespace) -> TraceListing | int:
    """List the dumps: time, workspace, trigger, outcome, error and path."""
    home = open_home(args)
    # Known if the registry lists it or it has dumps (a deleted one may).
    if args.workspace is not None and args.workspace not in trace_workspace_ids(home):
        load_registry(home).require_workspace(args.workspace)  # HomeError names it
    summaries = list_traces(home, args.workspace)
    if args.json:
        return TraceListing(traces=tuple(summaries))
    if not summaries:
        where = f"workspace {args.workspace}" if args.workspace else str(home.root)
        print(
            f"No trace dumps for {where} (the writer saves one when a run fails, a "
            "consolidation with a model after every run)"
        )
        return 0
    rows = [["TIME", "RUN", "WORKSPACE", "TRIGGER", "OUTCOME", "ERROR", "PATH"]]
    for s in summaries:
        when, error = relative_time(s.run_started_at), s.error or s.problem or ""
        what = [s.kind, s.display_workspace, s.trigger_message_id or "", s.outcome.value]
        rows.append([when, *what, elide(error, ERROR_COLUMN_WIDTH), str(s.path)])
    print(format_table(rows))
    return 0
