"""The launch sweep: at start-up, consolidate the few workspaces that need it (docs/formats.md
§9.5)."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Annotated, Literal

from memtab.consolidation.errors import ConsolidationError, RunCancelledError, RunFailedError
from memtab.consolidation.service import DEBOUNCE_MS, ConsolidationService
from memtab.fs.records import OmitNone, Record, computed
from memtab.humanize import plural, relative_time
from memtab.store.home import HomeError
from memtab.store.sidecars.journal import ConsolidationRecord
from memtab.store.sidecars.meta import MetaEntry, MetaStore, escape_key_component
from memtab.store.sidecars.registry import Workspace, load_recency, load_registry

logger = logging.getLogger(__name__)

MAX_LAUNCH_RUNS = 3
ACTIVE_WINDOW_MS = 24 * 60 * 60 * 1000

SkipKind = Literal[
    "cap", "archived", "agent-task", "active", "no-writes", "debounced", "busy", "untracked"
]
UNTRACKED_REASON = "not in extensionMetadata.json, so mux's launch sweep would not consider it"


class SweepRun(Record, write_only=True):
    """A run the sweep started: why the workspace qualified and how the run ended."""

    workspace_id: str
    reason: str
    ok: bool = computed(lambda run: run.record is not None)
    record: Annotated[ConsolidationRecord | None, OmitNone] = None
    error: Annotated[str | None, OmitNone] = None


class SweepSkip(Record):
    """A workspace the sweep did not run, and why."""

    workspace_id: str
    kind: SkipKind
    reason: str


class SweepReport(Record, write_only=True):
    """What a launch sweep did (`memtab sweep --json`, docs/formats.md §9.5)."""

    runs: tuple[SweepRun, ...] = ()
    skipped: tuple[SweepSkip, ...] = ()


@dataclass
class _Anchors:
    """Coverage times the sweep compares writes against; advanced after each success."""

    workspaces: dict[str, int]
    projects: dict[str, int]
    newest: int | None

    def advance(self, workspace: Workspace, at: int) -> None:
        self.workspaces[workspace.id] = at
        if workspace.project_identity is not None:
            self.projects[workspace.project_identity] = at
        self.newest = at if self.newest is None else max(self.newest, at)


def _writes_since(entries: dict[str, MetaEntry], prefix: str, since: int | None) -> int:
    return sum(
        1
        for key, entry in entries.items()
        if key.startswith(prefix)
        and entry.last_write_at is not None
        and (since is None or entry.last_write_at > since)
    )


@dataclass(frozen=True)
class _Writes:
    workspace: int
    project: int
    global_: int

    @property
    def any(self) -> bool:
        return bool(self.workspace or self.project or self.global_)

    def describe(self) -> str:
        parts = [
            plural(count, f"{scope} write")
            for scope, count in (
                ("workspace", self.workspace),
                ("project", self.project),
                ("global", self.global_),
            )
            if count
        ]
        return ", ".join(parts) + " since coverage"


def _decide(
    workspace: Workspace,
    entries: dict[str, MetaEntry],
    anchors: _Anchors,
    recency: dict[str, int],
    now: int,
) -> SweepSkip | str:
    """A skip, or the reason the workspace qualifies."""

    def skip(kind: SkipKind, reason: str) -> SweepSkip:
        return SweepSkip(workspace_id=workspace.id, kind=kind, reason=reason)

    if workspace.archived:
        return skip("archived", "archived")
    if workspace.parent_id is not None:
        return skip("agent-task", f"agent task of workspace {workspace.parent_id}")
    if workspace.shares_notebook:  # a side chat: its notebook is swept with its owner
        return skip("agent-task", f"shares the notebook of workspace {workspace.notebook_id}")
    interacted = recency.get(workspace.id)
    if interacted is not None and now - interacted < ACTIVE_WINDOW_MS:
        return skip("active", f"active (last used {relative_time(interacted, now)})")
    project = workspace.project_identity
    workspace_run = anchors.workspaces.get(workspace.id)
    project_run = anchors.projects.get(project) if project is not None else None
    writes = _Writes(
        workspace=_writes_since(
            entries, f"workspace:{escape_key_component(workspace.id)}:", workspace_run
        ),
        project=(
            _writes_since(entries, f"project:{escape_key_component(project)}:", project_run)
            if project is not None
            else 0
        ),
        global_=_writes_since(entries, "global:", anchors.newest),
    )
    if not writes.any:
        return skip("no-writes", "no writes since the last consolidation")
    project_recent = project_run is not None and now - project_run < DEBOUNCE_MS
    workspace_recent = workspace_run is not None and now - workspace_run < DEBOUNCE_MS
    only_project = writes.project and not writes.workspace and not writes.global_
    if only_project and project_recent:
        assert project_run is not None
        when = relative_time(project_run, now)
        return skip("debounced", f"only project writes, and the project was consolidated {when}")
    project_bypass = writes.project and not project_recent
    if workspace_recent and not project_bypass:
        assert workspace_run is not None
        return skip("debounced", f"consolidated {relative_time(workspace_run, now)} (6 h debounce)")
    return writes.describe()


def run_launch_sweep(service: ConsolidationService) -> SweepReport:
    """Run the launch sweep over the service's home (see module doc)."""
    home = service.home
    journal = service.journal.load()
    anchors = _Anchors(
        workspaces={wid: r.last_run_at for wid, r in journal.workspaces.items()},
        projects={path: r.last_run_at for path, r in journal.projects.items()},
        newest=max((r.last_run_at for r in journal.workspaces.values()), default=None),
    )
    recency = load_recency(home)
    registered = {workspace.id: workspace for workspace in load_registry(home).workspaces}
    meta = MetaStore(home)
    runs: list[SweepRun] = []
    skipped: list[SweepSkip] = []
    for workspace_id in recency:
        workspace = registered.get(workspace_id)
        if workspace is None:
            logger.debug("launch sweep: %s is in extensionMetadata.json only", workspace_id)
            continue
        if len(runs) >= MAX_LAUNCH_RUNS:
            cap = f"the sweep already started {MAX_LAUNCH_RUNS} runs"
            skipped.append(SweepSkip(workspace_id=workspace.id, kind="cap", reason=cap))
            continue
        decision = _decide(workspace, meta.load(), anchors, recency, service.clock())
        outcome = (
            decision if isinstance(decision, SweepSkip) else _run_one(service, workspace, decision)
        )
        if isinstance(outcome, SweepSkip):
            skipped.append(outcome)
            continue
        runs.append(outcome)
        if outcome.record is not None:
            anchors.advance(workspace, outcome.record.last_run_at)
    skipped.extend(
        SweepSkip(workspace_id=workspace_id, kind="untracked", reason=UNTRACKED_REASON)
        for workspace_id in registered
        if workspace_id not in recency
    )
    logger.info("launch sweep: %d run(s) started, %d workspace(s) skipped", len(runs), len(skipped))
    return SweepReport(runs=tuple(runs), skipped=tuple(skipped))


def _run_one(
    service: ConsolidationService, workspace: Workspace, reason: str
) -> SweepRun | SweepSkip:
    """Run one qualified workspace; a skip when it could not start (another run is going)."""
    try:
        record = service.run(workspace.id, trigger="launch", check_debounce=False)
    except RunFailedError as error:  # cancelled too
        if not isinstance(error, RunCancelledError):
            logger.warning("launch sweep: %s failed: %s", workspace.id, error)
        return SweepRun(workspace_id=workspace.id, reason=reason, error=str(error))
    except (ConsolidationError, HomeError) as error:  # in flight, locked, or gone
        logger.info("launch sweep: %s not started: %s", workspace.id, error)
        return SweepSkip(workspace_id=workspace.id, kind="busy", reason=str(error))
    return SweepRun(workspace_id=workspace.id, reason=reason, record=record)
