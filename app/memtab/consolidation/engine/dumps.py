"""Trace dumps of consolidation runs: `debug_obj/<ws>/memtab_consolidation/<start>_<run>.json`
(docs/formats.md §10.3)."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memtab import __version__
from memtab.consolidation.engine.runner import RunResult
from memtab.llm.types import ChatProvider
from memtab.store.home import Home
from memtab.store.sidecars.journal import Trigger
from memtab.store.sidecars.registry import Workspace
from memtab.traces.names import trace_file_name
from memtab.traces.schema import CONSOLIDATION_KIND, DUMP_SCHEMA_VERSION, DumpRecord
from memtab.writer.config_values import DEFAULT_MAX_DUMPS
from memtab.writer.job.dumps import AttemptTrace, save_dump

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class DumpedRun:
    """Which run a dump is of."""

    run_id: str
    started_at: int
    workspace: Workspace
    trigger: Trigger
    timeout_s: float


def write_consolidation_dump(
    home: Home,
    run: DumpedRun,
    provider: ChatProvider,
    result: RunResult,
    *,
    known_secrets: Iterable[str] = (),
    max_dumps: int = DEFAULT_MAX_DUMPS,
) -> Path | None:
    """Write the dump of a run that ended as `result` (None, logged, when it cannot be)."""
    try:
        return save_dump(
            home.consolidation_trace_dir(run.workspace.id),
            trace_file_name(run.started_at, run.run_id),
            dump_record(run, provider, result),
            known_secrets=known_secrets,
            max_dumps=max_dumps,
        )
    except OSError as error:
        logger.warning(
            "Cannot write the consolidation trace of %s: %s",
            run.workspace.id,
            error.strerror or error,
        )
        return None


def dump_record(run: DumpedRun, provider: ChatProvider, result: RunResult) -> DumpRecord:
    """The dump of a run: its header, the messages of its one conversation, its replies
    and tool calls, and what its tools did."""
    loop = result.loop
    changed = any(op.applied for op in result.ops)
    failure = str(result.failure) if result.failure is not None else None
    attempt = AttemptTrace(
        attempt_index=1,
        messages=list(loop.messages),
        replies=list(loop.replies),
        tool_executions=list(loop.tool_executions),
        finish_reason=loop.stop_reason,
        wrote=changed,
        aborted=loop.stop_reason in ("timeout", "cancelled"),
        error=failure,
    )
    first = loop.messages[0] if loop.messages else None
    optional: dict[str, Any] = {"error": failure} if failure is not None else {}
    if result.record is not None:
        optional["summary"] = result.record.summary
    return DumpRecord(
        schema_version=DUMP_SCHEMA_VERSION,
        run_started_at=run.started_at,
        workspace_id=run.workspace.id,
        workspace_name=run.workspace.display_name,
        trigger_message_id=run.run_id,
        model_string=f"{provider.name}:{provider.model}",
        timeout_ms=round(run.timeout_s * 1000),
        timed_out=loop.stop_reason == "timeout",
        did_write_memory=changed,
        project_path=run.workspace.project_identity,
        workspace_path=run.workspace.path,
        system_prompt=result.system_prompt,
        user_message=getattr(first, "text", None),
        attempts=(attempt.to_record(),),
        outcome="failed" if failure is not None else "changed" if changed else "no_changes",
        memtab={"version": __version__},
        kind=CONSOLIDATION_KIND,
        run_id=run.run_id,
        trigger=run.trigger,
        **optional,
    )
