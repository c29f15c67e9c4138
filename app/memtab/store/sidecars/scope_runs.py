"""`memtab/scope-runs.json`: the latest consolidation of the global scope alone, and of
each workspace's scope alone (docs/formats.md §9.8) — the runs mux's journal has no place
for.

mux's journal (`journal.py`, §8) keeps a workspace's latest run, and reads it as a run
of all of that workspace's scopes: its `lastRunAt` is when the workspace was covered, the
newest of them when global memory was, and automatic runs wait 6 h after it. A run of
one scope journaled there would tell mux (its launch sweep, its Memory tab) that scopes
it never looked at were consolidated. Only the project scope has a record of its own
there (`projects[identity]`), so a run of the project alone is journaled in it
(`Journal.save_run`); a run of the global or a workspace scope alone is kept here, and
the footer and `memtab status` take it as its scope's line when it is newer than the
journal's (`journal.status_from`). Every run, whatever its scope, is in the runs log too.

`{"global": Record, "workspaces": {"<notebook id>": Record}}`: each Record a
`ConsolidationRecord` as the journal writes it, with its `scope`. Memtab's own file,
private (it quotes memory's words: 0600 in the home's 0700 `memtab/`), changed under its
lock through `fs.sidecar`; read leniently — a record that does not read is none, fields
Memtab does not know are kept.
"""

from __future__ import annotations

from typing import Annotated

from memtab.fs.private import PRIVATE_FILE_MODE, private_folders
from memtab.fs.records import Key, OmitNone, OrNone, Record, ValidEntries, field
from memtab.fs.sidecar import edit_sidecar, read_sidecar
from memtab.store.home import Home
from memtab.store.sidecars.journal import ConsolidationRecord, Journal, RunScope

LOCK_NAME = "scope-runs"
KEPT_HERE = ("global", "workspace")
"""The scopes whose runs alone are kept here (the project's are in mux's journal)."""


class ScopeRuns(Record, keep_unknown=True):
    """The file (see the module doc)."""

    global_run: Annotated[OrNone[ConsolidationRecord], Key("global"), OmitNone] = None
    workspaces: ValidEntries[dict[str, ConsolidationRecord]] = field(default_factory=dict)

    def workspace_run(self, notebook_id: str) -> ConsolidationRecord | None:
        """The latest run of the workspace scope alone of a notebook (its owner's id)."""
        return self.workspaces.get(notebook_id)


def load_scope_runs(home: Home) -> ScopeRuns:
    """The file as far as it reads (missing or unusable: no runs)."""
    return ScopeRuns.read(read_sidecar(home.scope_runs_path).document) or ScopeRuns()


def save_scope_run(home: Home, notebook_id: str, record: ConsolidationRecord) -> None:
    """Keep `record`, a run of the global or the workspace scope alone, as its scope's
    latest (the workspace's under `notebook_id`). Raises OSError (a full disk) and
    ValueError for a record of another scope."""
    if record.scope not in KEPT_HERE:
        raise ValueError(f"a run of the {record.scope or 'whole'} scope is not kept here")
    private_folders(home.memtab_dir, below=home.memtab_dir)
    with edit_sidecar(
        home.scope_runs_path, home.lock_path(LOCK_NAME), mode=PRIVATE_FILE_MODE
    ) as document:
        runs = ScopeRuns.read(document) or ScopeRuns()
        if record.scope == "global":
            runs = runs.replaced(global_run=record)
        else:
            runs = runs.replaced(workspaces={**runs.workspaces, notebook_id: record})
        document.clear()
        document.update(runs.to_json())


def journal_run(
    home: Home, notebook_id: str, project_path: str | None, record: ConsolidationRecord
) -> None:
    """Journal a finished run where the runs of its scope are: a run of the whole
    workspace or of its project alone in mux's journal (`Journal.save_run`), one of the
    global or the workspace scope alone here. Raises OSError (and the lock's
    TimeoutError) when it cannot."""
    if record.scope in KEPT_HERE:
        save_scope_run(home, notebook_id, record)
    else:
        Journal(home).save_run(notebook_id, project_path, record)


def journaled_run(
    home: Home, notebook_id: str, project_path: str | None, scope: RunScope | None
) -> ConsolidationRecord | None:
    """The latest run journaled where a run of `scope` (None: the whole workspace) would
    be (`journal_run`)."""
    if scope == "global":
        return load_scope_runs(home).global_run
    if scope == "workspace":
        return load_scope_runs(home).workspace_run(notebook_id)
    data = Journal(home).load()
    if scope == "project":
        return data.projects.get(project_path) if project_path is not None else None
    return data.workspaces.get(notebook_id)
