"""Memtab's log of every run (`memtab/history/runs.jsonl`), with each op's versions so it can be
shown and reverted; mux's runs added from its journal (`import_mux_journal`)."""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from memtab.store.history.jsonlines import LOCK_TIMEOUT_S, JsonLinesFile
from memtab.store.history.records import RunEntry, RunOp, TokenUsage
from memtab.store.history.versions import new_version_id
from memtab.store.home import Home
from memtab.store.sidecars.journal import ConsolidationRecord, Journal, changed_files

logger = logging.getLogger(__name__)

RunKind = Literal["consolidation", "writer", "sync", "revert"]
REVERT_KIND = "revert"
"""A revert of a run is a run of its own, naming what it reverted (docs/formats.md §14.3)."""
MUX_SOURCE = "mux"
CHECK_FIX_PROVIDER = "check"
"""The provider of a plan of the check's fixes: logged as the check's, not journaled for mux."""


def new_run_id(at_ms: int) -> str:
    """A unique run id that sorts by time (`run-<hex ms><random>`)."""
    return f"run-{new_version_id(at_ms)}"


def parse_run(raw: dict[str, Any]) -> RunEntry | None:
    """A run from a log line, or None when it is not one (`RunEntry`'s rules)."""
    return RunEntry.read(raw)


@dataclass(frozen=True, slots=True)
class LoggedLine:
    """A runs-log line read without building its run: its time (0: none) and fingerprint."""

    at: int
    journal_fingerprint: str


def _logged_line(raw: dict[str, Any]) -> LoggedLine:
    at = raw.get("at")
    fingerprint = raw.get("journalFingerprint", raw.get("journal_fingerprint"))
    at = at if type(at) is int and at > 0 else 0
    return LoggedLine(at, fingerprint if isinstance(fingerprint, str) else "")


class RunsLog:
    """The runs log of one home."""

    def __init__(self, home: Home) -> None:
        self.home = home
        self.file: JsonLinesFile[RunEntry] = JsonLinesFile(
            home.runs_log_path, home.lock_path("history-runs"), parse_run, own=home.memtab_dir
        )

    def logged(self) -> list[LoggedLine]:
        """Every line's time and fingerprint, in order: a valid run's are among them."""
        return JsonLinesFile(self.file.path, self.file.lock_path, _logged_line).records()

    def append(self, run: RunEntry, *, durable: bool = True) -> None:
        """Log a run (not `durable`: the caller makes the log durable). OSError."""
        self.file.append([run.to_json()], durable=durable)

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

    def contents_written_since(self, since_ms: int) -> dict[str, str]:
        """The contents (sha256) runs logged since `since_ms` wrote, each with its last writer's
        kind."""
        return {
            file.after_sha256: run.kind
            for run in self.file.records()
            if run.at >= since_ms
            for op in run.ops
            if op.applied
            for file in op.files
            if not file.deleted
        }

    def get(self, run_id: str) -> RunEntry | None:
        return next((run for run in self.file.records() if run.id == run_id), None)


def reverted_by(runs: Iterable[RunEntry]) -> dict[str, RunEntry]:
    """For each run a revert run reverted, by id, the newest revert of it."""
    found: dict[str, RunEntry] = {}
    for run in runs:
        if run.kind != REVERT_KIND or not run.reverts or run.failed:
            continue
        known = found.get(run.reverts)
        if known is None or run.at > known.at:
            found[run.reverts] = run
    return found


def trace_path(home: Home, run: RunEntry) -> Path | None:
    """Where the run's trace dump is (§10.3: the writer's folder, or the consolidation's),
    or None when it names none — or names no plain file of that folder (another program
    may write this log)."""
    names = (run.trace_dump or "", run.workspace_id or "")
    if not all(name and name not in (".", "..") and Path(name).name == name for name in names):
        return None
    folder = home.trace_dir if run.kind == "writer" else home.consolidation_trace_dir
    return folder(names[1]) / names[0]


def log_run(home: Home, run: RunEntry, *, durable: bool = True) -> None:
    """Append a run to the log; a failure is a warning, never the run's failure."""
    try:
        RunsLog(home).append(run, durable=durable)
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


def import_mux_journal(
    home: Home, oldest: int = 0, *, wait_s: float = LOCK_TIMEOUT_S
) -> list[RunEntry]:
    """Add the runs of mux's journal not logged yet (by fingerprint), none before `oldest`; the runs
    added. The lines' fingerprints say most are logged without building runs."""
    data = Journal(home).load()
    log = RunsLog(home)
    found: dict[str, tuple[ConsolidationRecord, str | None, str | None]] = {}
    for workspace_id, record in data.workspaces.items():
        if not 0 < record.last_run_at < oldest:
            found.setdefault(journal_fingerprint(record), (record, workspace_id, None))
    for project_path, record in data.projects.items():
        if 0 < record.last_run_at < oldest:
            continue
        fingerprint = journal_fingerprint(record)
        if fingerprint in found:  # the same record in a workspace's and a project's bucket
            first, in_workspace, _ = found[fingerprint]
            found[fingerprint] = (first, in_workspace, project_path)
        else:
            found[fingerprint] = (record, None, project_path)
    if found.keys() <= {line.journal_fingerprint for line in log.logged()}:
        return []
    added: list[RunEntry] = []
    try:
        with log.file.locked(timeout_s=wait_s):
            known = {run.journal_fingerprint for run in log.file.records()}
            added = [_imported(key, *new) for key, new in found.items() if key not in known]
            added.sort(key=lambda run: run.at)
            log.file.append_locked([run.to_json() for run in added])
    except (OSError, TimeoutError) as error:
        logger.warning("Could not add mux's runs to the runs log: %s", error)
        return []
    return added


def _imported(
    fingerprint: str,
    record: ConsolidationRecord,
    workspace_id: str | None,
    project_path: str | None,
) -> RunEntry:
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
        usage=TokenUsage.of(record.input_tokens, record.output_tokens),
    )


def touched_paths(ops: Iterable[RunOp]) -> list[str]:
    """The paths a run's applied ops named, in order, once each."""
    named = (p for op in ops if op.applied for p in (op.path, op.new_path or None) if p is not None)
    return list(dict.fromkeys(named))


def files_changed(run: RunEntry) -> int:
    """How many files the run changed (docs/formats.md §9.6)."""
    return len(changed_files(op for op in run.ops if op.applied))
