"""Memtab's log of every run: consolidation and writer runs, Memtab's and mux's.

mux's journal (`memory-consolidation.json`) keeps only the latest record per workspace
and project, and must stay exactly as mux writes it. Memtab appends every run it makes
to `memtab/history/runs.jsonl` instead, one JSON line each: id, time, kind, trigger,
provider and model, workspace, summary, and each op with its guard verdict, its note and
— for an applied op — the history versions before and after (so its diff can be shown
and the run reverted). Its free text is capped (`store.free_text`). Runs mux made are
added when Memtab sees a journal record it has not logged yet (`import_journal_runs`);
their ops have no versions (Memtab saw their changes as `external` ones).
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from memtab.store.free_text import (
    MAX_ERROR_BYTES,
    MAX_NOTE_BYTES,
    MAX_SUMMARY_BYTES,
    cap_optional,
    cap_text,
)
from memtab.store.history.jsonlines import JsonLinesFile
from memtab.store.history.recorder import RecordedChange
from memtab.store.history.versions import new_version_id
from memtab.store.home import Home
from memtab.store.journal import ConsolidationRecord, Journal, JournalOp, parse_op

logger = logging.getLogger(__name__)

RunKind = Literal["consolidation", "writer"]
RUN_KINDS: tuple[str, ...] = ("consolidation", "writer")
MUX_SOURCE = "mux"
MEMTAB_SOURCE = "memtab"


def new_run_id(at_ms: int) -> str:
    """A unique run id that sorts by time (`run-<hex ms><random>`)."""
    return f"run-{new_version_id(at_ms)}"


@dataclass(frozen=True)
class FileVersions:
    """One file an op changed: the versions before (None: no file) and after."""

    path: str
    before_version: str | None
    before_sha256: str | None
    after_version: str
    after_sha256: str
    deleted: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "beforeVersion": self.before_version,
            "beforeSha256": self.before_sha256,
            "afterVersion": self.after_version,
            "afterSha256": self.after_sha256,
            "deleted": self.deleted,
        }

    @classmethod
    def from_change(cls, change: RecordedChange) -> FileVersions:
        before = change.before
        return cls(
            path=change.path,
            before_version=before.id if before is not None else None,
            before_sha256=before.sha256 if before is not None else None,
            after_version=change.after.id,
            after_sha256=change.after.sha256,
            deleted=change.after.deleted,
        )


def _parse_files(raw: Any) -> tuple[FileVersions, ...]:
    if not isinstance(raw, list):
        return ()
    files = []
    for item in raw:
        if not isinstance(item, dict):
            continue
        path, after, after_sha = item.get("path"), item.get("afterVersion"), item.get("afterSha256")
        if not (isinstance(path, str) and isinstance(after, str) and isinstance(after_sha, str)):
            continue
        before, before_sha = item.get("beforeVersion"), item.get("beforeSha256")
        files.append(
            FileVersions(
                path=path,
                before_version=before if isinstance(before, str) else None,
                before_sha256=before_sha if isinstance(before_sha, str) else None,
                after_version=after,
                after_sha256=after_sha,
                deleted=item.get("deleted") is True,
            )
        )
    return tuple(files)


@dataclass(frozen=True)
class RunOp:
    """One op of a run: a journal op and the versions it made, and the unit it belongs
    to when the engine that made it said (ops of one unit are taken or left together:
    a merge's edit and delete; None: not said)."""

    command: str
    path: str
    applied: bool
    new_path: str | None = None
    note: str | None = None
    files: tuple[FileVersions, ...] = ()
    unit: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "note", cap_optional(self.note, MAX_NOTE_BYTES))

    def to_json(self) -> dict[str, Any]:
        """The journal op as `JournalOp` spells it, and the versions it made."""
        op = JournalOp(self.command, self.path, self.applied, self.new_path, self.note)
        data = {**op.to_json(), "versions": [file.to_json() for file in self.files]}
        if self.unit is not None:
            data["unit"] = self.unit
        return data

    @classmethod
    def from_journal(
        cls, op: JournalOp, changes: Sequence[RecordedChange] = (), *, unit: int | None = None
    ) -> RunOp:
        return cls(
            command=op.command,
            path=op.path,
            applied=op.applied,
            new_path=op.new_path,
            note=op.note,
            files=tuple(FileVersions.from_change(change) for change in changes),
            unit=unit,
        )


def _parse_op(raw: Any) -> RunOp | None:
    op = parse_op(raw)  # the journal's reading of the op's own fields
    if op is None:
        return None
    unit = op.raw.get("unit")
    return replace(
        RunOp.from_journal(op),
        files=_parse_files(op.raw.get("versions")),
        unit=unit if isinstance(unit, int) and not isinstance(unit, bool) and unit > 0 else None,
    )


@dataclass(frozen=True)
class RunEntry:
    """One run as logged (see the module doc)."""

    id: str
    at: int
    kind: str
    trigger: str
    """A consolidation's `Trigger`; for a writer run, the id of the message that started it
    (the log's `trigger` field, kept as written)."""
    workspace_id: str | None
    summary: str
    ops: tuple[RunOp, ...] = ()
    project_path: str | None = None
    provider: str | None = None
    model: str | None = None
    status: Literal["ok", "failed"] = "ok"
    error: str | None = None
    source: str = MEMTAB_SOURCE
    started_at: int | None = None
    journal_fingerprint: str | None = None
    plan_id: str | None = None
    input_tokens: int | None = None
    output_tokens: int | None = None
    raw: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "summary", cap_text(self.summary, MAX_SUMMARY_BYTES))
        object.__setattr__(self, "error", cap_optional(self.error, MAX_ERROR_BYTES))

    @property
    def failed(self) -> bool:
        return self.status == "failed"

    @property
    def applied_count(self) -> int:
        return sum(1 for op in self.ops if op.applied)

    def to_json(self) -> dict[str, Any]:
        """The log line, and the CLI's `--json` shape (fields are added, never renamed)."""
        data: dict[str, Any] = {
            "id": self.id,
            "at": self.at,
            "kind": self.kind,
            "trigger": self.trigger,
            "workspaceId": self.workspace_id,
            "projectPath": self.project_path,
            "summary": self.summary,
            "status": self.status,
            "error": self.error,
            "source": self.source,
            "provider": self.provider,
            "model": self.model,
            "startedAt": self.started_at,
            "journalFingerprint": self.journal_fingerprint,
            "planId": self.plan_id,
            "usage": (
                {"inputTokens": self.input_tokens or 0, "outputTokens": self.output_tokens or 0}
                if self.input_tokens is not None or self.output_tokens is not None
                else None
            ),
            "ops": [op.to_json() for op in self.ops],
        }
        return {**self.raw, **data}


def _optional_str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _optional_int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def parse_run(raw: dict[str, Any]) -> RunEntry | None:
    """A run from a log line, or None when a required field is wrong."""
    run_id, at, kind, trigger = raw.get("id"), raw.get("at"), raw.get("kind"), raw.get("trigger")
    if not isinstance(run_id, str) or not run_id or not isinstance(kind, str):
        return None
    if isinstance(at, bool) or not isinstance(at, int) or at <= 0:
        return None
    raw_ops = raw.get("ops")
    ops = [_parse_op(op) for op in raw_ops] if isinstance(raw_ops, list) else []
    usage = raw.get("usage")
    if not isinstance(usage, dict):
        usage = {}
    return RunEntry(
        id=run_id,
        at=at,
        kind=kind,
        trigger=trigger if isinstance(trigger, str) else "",
        workspace_id=_optional_str(raw.get("workspaceId")),
        summary=_optional_str(raw.get("summary")) or "",
        ops=tuple(op for op in ops if op is not None),
        project_path=_optional_str(raw.get("projectPath")),
        provider=_optional_str(raw.get("provider")),
        model=_optional_str(raw.get("model")),
        status="failed" if raw.get("status") == "failed" else "ok",
        error=_optional_str(raw.get("error")),
        source=_optional_str(raw.get("source")) or MEMTAB_SOURCE,
        started_at=_optional_int(raw.get("startedAt")),
        journal_fingerprint=_optional_str(raw.get("journalFingerprint")),
        plan_id=_optional_str(raw.get("planId")),
        input_tokens=_optional_int(usage.get("inputTokens")),
        output_tokens=_optional_int(usage.get("outputTokens")),
        raw=raw,
    )


class RunsLog:
    """The runs log of one home."""

    def __init__(self, home: Home) -> None:
        self.home = home
        self.file: JsonLinesFile[RunEntry] = JsonLinesFile(
            home.runs_log_path, home.lock_path("history-runs"), parse_run
        )

    def append(self, run: RunEntry) -> None:
        """Log a run. Raises OSError (callers log it: a run is never failed by its log)."""
        self.file.append([run.to_json()])

    def runs(
        self,
        *,
        workspace_id: str | None = None,
        kind: str | None = None,
        trigger: str | None = None,
        failed_only: bool = False,
    ) -> list[RunEntry]:
        """Runs newest first, filtered."""
        selected = [
            run
            for run in self.file.records()
            if (workspace_id is None or run.workspace_id == workspace_id)
            and (kind is None or run.kind == kind)
            and (trigger is None or run.trigger == trigger)
            and (not failed_only or run.failed)
        ]
        selected.reverse()  # appended in order; a stable sort keeps same-ms runs newest first
        selected.sort(key=lambda run: run.at, reverse=True)
        return selected

    def get(self, run_id: str) -> RunEntry | None:
        for run in self.file.records():
            if run.id == run_id:
                return run
        return None


def log_run(home: Home, run: RunEntry) -> None:
    """Append a run to the log; a failure is a warning, never the run's failure."""
    try:
        RunsLog(home).append(run)
    except (OSError, TimeoutError) as error:
        logger.warning("Could not add run %s to the runs log: %s", run.id, error)


def journal_fingerprint(record: ConsolidationRecord) -> str:
    """What identifies a journal record, in whichever bucket it is found."""
    canonical = {
        "lastRunAt": record.last_run_at,
        "trigger": record.trigger,
        "summary": record.summary,
        "ops": [[op.command, op.path, op.new_path, op.applied, op.note] for op in record.ops],
    }
    text = json.dumps(canonical, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()[:24]


def import_journal_runs(home: Home, *, consolidation_held: bool = False) -> list[RunEntry]:
    """Catch the log up before it is read or added to: first the runs a kill left
    unlogged (`interrupted.log_interrupted_runs`; `consolidation_held`: the caller holds
    the consolidation lock), then the runs of mux's journal not logged yet (Memtab's own
    runs are logged with their fingerprint, so they are not added twice). Returns the
    journal's runs added."""
    from memtab.store.history.interrupted import log_interrupted_runs

    log_interrupted_runs(home, consolidation_held=consolidation_held)
    data = Journal(home).load()
    log = RunsLog(home)
    found: dict[str, RunEntry] = {}
    for workspace_id, record in data.workspaces.items():
        found.setdefault(journal_fingerprint(record), _imported(record, workspace_id, None))
    for project_path, record in data.projects.items():
        fingerprint = journal_fingerprint(record)
        if fingerprint in found:
            found[fingerprint] = _with_project(found[fingerprint], project_path)
        else:
            found[fingerprint] = _imported(record, None, project_path)
    if not found:
        return []
    added: list[RunEntry] = []
    try:
        with log.file.locked():
            known = {run.journal_fingerprint for run in log.file.records()}
            added = [run for key, run in found.items() if key not in known]
            added.sort(key=lambda run: run.at)
            log.file.append_locked([run.to_json() for run in added])
    except (OSError, TimeoutError) as error:
        logger.warning("Could not add mux's runs to the runs log: %s", error)
        return []
    return added


def _imported(
    record: ConsolidationRecord, workspace_id: str | None, project_path: str | None
) -> RunEntry:
    fingerprint = journal_fingerprint(record)
    return RunEntry(
        id=f"mux-{fingerprint[:16]}",
        at=record.last_run_at,
        kind="consolidation",
        trigger=record.trigger,
        workspace_id=workspace_id,
        project_path=project_path,
        summary=record.summary,
        ops=tuple(RunOp.from_journal(op) for op in record.ops),
        source=MUX_SOURCE,
        journal_fingerprint=fingerprint,
        input_tokens=record.input_tokens,
        output_tokens=record.output_tokens,
    )


def _with_project(run: RunEntry, project_path: str) -> RunEntry:
    return replace(run, project_path=project_path)


def touched_paths(ops: Iterable[RunOp]) -> list[str]:
    """The paths a run's applied ops named, in order, once each."""
    paths: dict[str, None] = {}
    for op in ops:
        if op.applied:
            paths[op.path] = None
            if op.new_path:
                paths[op.new_path] = None
    return list(paths)
