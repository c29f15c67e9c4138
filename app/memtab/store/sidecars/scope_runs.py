"""`memtab/scope-runs.json`: the latest consolidation of the global scope alone and of each
workspace's scope alone, which mux's journal has no place for (docs/formats.md §9.8). Private,
changed through `fs.sidecar`."""

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
    """Keep `record`, a global- or workspace-only run, as its scope's latest. OSError,
    ValueError."""
    if record.scope not in KEPT_HERE:
        raise ValueError(f"a run of the {record.scope or 'whole'} scope is not kept here")
    private_folders(home.memtab_dir, below=home.memtab_dir)
    lock = home.lock_path(LOCK_NAME)
    with edit_sidecar(home.scope_runs_path, lock, mode=PRIVATE_FILE_MODE) as document:
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
    """Journal a finished run where its scope's runs are: mux's journal, or here. OSError,
    TimeoutError."""
    if record.scope in KEPT_HERE:
        save_scope_run(home, notebook_id, record)
    else:
        Journal(home).save_run(notebook_id, project_path, record)


def journaled_run(
    home: Home, notebook_id: str, project_path: str | None, scope: RunScope | None
) -> ConsolidationRecord | None:
    """The latest run journaled where a run of `scope` (None: whole workspace) would be."""
    if scope == "global":
        return load_scope_runs(home).global_run
    if scope == "workspace":
        return load_scope_runs(home).workspace_run(notebook_id)
    data = Journal(home).load()
    if scope == "project":
        return data.projects.get(project_path) if project_path is not None else None
    return data.workspaces.get(notebook_id)
