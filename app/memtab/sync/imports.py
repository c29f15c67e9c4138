"""What a sync brought in, in the runs log (docs/formats.md §14.3, §18.3): one run of kind
`sync` per sync that wrote files here, each file an op with the versions history
recorded, so Runs… shows what came from the other machines (and can take it back).
The log stays this machine's: it is never synced."""

from __future__ import annotations

from collections.abc import Sequence

from memtab.humanize import plural
from memtab.store.history.recorder import RecordedChange
from memtab.store.history.records import FileVersions, RunEntry, RunOp
from memtab.store.history.runs import log_run, new_run_id
from memtab.store.home import Home
from memtab.sync.repository.layout import Target


def log_imports(home: Home, target: Target, changes: Sequence[RecordedChange], at_ms: int) -> None:
    """Add the run of a sync of `target` that brought `changes` in (none: nothing)."""
    if not changes:
        return

    ops = tuple(
        RunOp(
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
    )


def _command(change: RecordedChange) -> str:
    if change.after.deleted:
        return "delete"
    return "create" if change.before is None or change.before.deleted else "edit"
