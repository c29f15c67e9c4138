"""What a sync brought in, in the runs log (docs/formats.md §14.3, §18.3): a `sync` run per import
that wrote files, logged once, each file an op with its versions."""

from __future__ import annotations

from collections.abc import Sequence

from memtab.humanize import plural
from memtab.store.history.recorder import RecordedChange
from memtab.store.history.records import FileVersions, RunEntry, RunOp
from memtab.store.history.runs import RunsLog, log_run, new_run_id
from memtab.store.home import Home
from memtab.sync.repository.layout import Target


def log_imports(
    home: Home,
    target: Target,
    changes: Sequence[RecordedChange],
    at_ms: int,
    *,
    durable: bool = True,
) -> None:
    """Add the run of a sync of `target` that brought `changes` in; not `durable`: the caller
    flushes."""
    if not changes:
        return

    ops = tuple(
        RunOp.unchecked(  # a thousand for a machine joining, of values history made
            command=_command(change),
            path=change.path,
            applied=True,
            files=(FileVersions.from_change(change),),
        )
        for change in changes
    )
    workspaces = {scope.key for scope in target.scopes if scope.kind == "workspace"}
    only_workspace = next(iter(workspaces)) if len(target.scopes) == len(workspaces) == 1 else None
    log_run(
        home,
        RunEntry(
            id=new_run_id(at_ms),
            at=at_ms,
            kind="sync",
            trigger=target.name,
            workspace_id=only_workspace,
            summary=f"Brought in {plural(len(changes), 'change')} from {target.remote}",
            ops=ops,
        ),
        durable=durable,
    )


def not_logged(home: Home, changes: Sequence[RecordedChange]) -> list[RecordedChange]:
    """The changes no sync's run in the runs log names yet."""
    if not changes:
        return []
    try:
        runs = RunsLog(home).runs(kind="sync")
    except (OSError, TimeoutError):
        runs = []
    logged = {file.after_version for run in runs for op in run.ops for file in op.files}
    return [change for change in changes if change.after.id not in logged]


def _command(change: RecordedChange) -> str:
    if change.after.deleted:
        return "delete"
    return "create" if change.before is None or change.before.deleted else "edit"
