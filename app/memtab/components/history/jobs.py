"""History's jobs in the window (versions and diffs, outside changes recorded, the runs log
caught up, Recently deleted and bursts, Runs… and a run reverted): each calls the function it
names, which says what it does, with the job's context last."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from memtab.components.history.burst_news import NewsRead
from memtab.components.history.deleted import (
    DeletedFile,
    TrashGroup,
    deleted_text,
    load_trash,
    news_read,
)
from memtab.components.history.history import (
    FileHistory,
    commit_diff,
    load_file_history,
    record_external_changes,
    recording_notice,
    version_diff,
)
from memtab.components.history.runs import (
    RunDetail,
    RunFilter,
    RunList,
    load_run_detail,
    load_run_list,
)
from memtab.components.jobs import JobContext
from memtab.components.text_diff import DiffResult
from memtab.file_protocol.memory_file import MemoryFile
from memtab.sources.model import Source
from memtab.store.catch_up.external import ExternalReport
from memtab.store.catch_up.recording import recording_state
from memtab.store.catch_up.runs_log import catch_up_runs
from memtab.store.history.records import RunEntry
from memtab.store.history.runs import RunsLog
from memtab.store.history.versions import Version
from memtab.store.home import Home
from memtab.store.restore.from_history import RevertResult, revert_run
from memtab.store.scopes.memory import MemoryStore
from memtab.watch.events import ChangeEvent, EventRestore, restore_event


def file_history(file: MemoryFile, _ctx: JobContext) -> FileHistory:
    return load_file_history(file)


def diff_version(
    home: Home, version: Version, current: bytes | None, ctx: JobContext
) -> DiffResult:
    return version_diff(home, version, current, ctx)


def diff_commit(file: MemoryFile, sha: str, current: bytes | None, ctx: JobContext) -> DiffResult:
    return commit_diff(file, sha, current, ctx)


def record_outside_changes(store: MemoryStore, ctx: JobContext) -> ExternalReport:
    return record_external_changes(store, ctx.is_cancelled)


def recording(home: Home, _ctx: JobContext) -> tuple[str, str] | None:
    return recording_notice(recording_state(home))


def catch_up_runs_log(home: Home, _ctx: JobContext) -> list[RunEntry]:
    return catch_up_runs(home)


def burst_news(store: MemoryStore, sources: Sequence[Source] | None, _ctx: JobContext) -> NewsRead:
    return news_read(store, sources)


def contents_written_since(home: Home, since_ms: int, _ctx: JobContext) -> dict[str, str]:
    return RunsLog(home).contents_written_since(since_ms)


def trash(
    store: MemoryStore, sources: Sequence[Source] | None, record_first: bool, _ctx: JobContext
) -> list[TrashGroup]:
    return load_trash(store, record_first=record_first, sources=sources)


@dataclass(frozen=True)
class DeletedPreview:
    """What a deleted file held, for Recently deleted's preview."""

    file: DeletedFile
    text: str


def deleted_preview(home: Home, file: DeletedFile, _ctx: JobContext) -> DeletedPreview:
    return DeletedPreview(file, deleted_text(home, file))


def restore_burst(
    home: Home, event: ChangeEvent, only: frozenset[str] | None, _ctx: JobContext
) -> EventRestore:
    return restore_event(home, event, only)


def runs(home: Home, run_filter: RunFilter, _ctx: JobContext) -> RunList:
    return load_run_list(home, run_filter)


def run_detail(home: Home, run: RunEntry, _ctx: JobContext) -> RunDetail:
    return load_run_detail(home, run)


def revert(home: Home, run_id: str, _ctx: JobContext) -> RevertResult:
    return revert_run(home, run_id)
