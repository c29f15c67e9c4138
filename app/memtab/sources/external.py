"""Changes another program made to another agent's files, recorded in the home's history
(docs/formats.md §14.5): compared by stat, read when it differs or was modified too near its
reading for its stat to tell (`fs.memo.settled`), each under the file's lock without waiting; a
listing cut short records no deletion."""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass, field

from memtab.file_protocol.file_ref import SourceError, parse_file_id
from memtab.fs.atomic import encode_utf8
from memtab.fs.clock import now_ms
from memtab.fs.locking.locks import LockUnavailableError, interprocess_lock
from memtab.fs.memo import settled
from memtab.sources.agent_file import index_key, stat_info, stat_now
from memtab.sources.content import file_lock_path, read_source_file
from memtab.sources.listing import source_file
from memtab.sources.model import Source, SourceFile, SourceListing
from memtab.store.catch_up.recording import unrecorded_reason
from memtab.store.history.blobs import sha256_of
from memtab.store.history.recorder import HistoryRecorder, Observation, ReadAgainst
from memtab.store.history.versions import ScopeHistory, Version
from memtab.store.home import Home

logger = logging.getLogger(__name__)

_SAME: dict[tuple[str, str], tuple[tuple[int, int], str, int]] = {}
"""(index, file id) → the stat read, the content's sha and when (ms) the pass that read it
began, when already its newest version."""


@dataclass
class SourceExternalReport:
    """What one recording pass of a source found: versions recorded, deletions, problems."""

    recorded: int = 0
    deleted: int = 0
    busy: int = 0
    """Files left for the next pass (Memtab was saving them)."""
    problems: list[str] = field(default_factory=list)
    unrecorded: str | None = None
    """Why history could not be written, when it could not (a full disk: formats §14.5)."""

    @property
    def changed(self) -> bool:
        return bool(self.recorded or self.deleted)


def record_source_external(
    home: Home, listing: SourceListing, *, actor: str = "external"
) -> SourceExternalReport:
    """Record what changed in `listing`'s files since history last saw them, as `actor`'s;
    never raises for a file."""
    report = SourceExternalReport()
    started_ms = now_ms()  # before any stat: no content read this pass is older
    key = index_key(listing.source.id)
    newest = ScopeHistory(home, key).newest_by_path()
    recorder = HistoryRecorder(home, actor=actor, run_id=None, workspace_id=None, clock=now_ms)
    listed = {file.id: file for file in listing.files}
    for file in listing.files:
        info = stat_info(file)
        if info is None or _unchanged(newest.get(file.id), info, _SAME.get((key, file.id))):
            continue
        found = (info.st_size, info.st_mtime_ns)
        _record_file(home, recorder, key, listing, file, found, started_ms, report, actor)
    if listing.error is None and not listing.truncated:
        gone = [
            Observation(path, None, read_against=ReadAgainst(version.id))
            for path, version in newest.items()
            if not version.deleted and path not in listed and _still_gone(listing.source, path)
        ]
        if gone:
            try:
                added = recorder.observe(key, gone, actor=actor)
            except (OSError, TimeoutError) as error:
                report.problems.append(f"{listing.source.id}: cannot record deletions: {error}")
                report.unrecorded = report.unrecorded or unrecorded_reason(error, home)
            else:
                report.deleted += sum(1 for version in added if version.deleted)
    for problem in report.problems:
        logger.warning("%s", problem)
    return report


def _record_file(
    home: Home,
    recorder: HistoryRecorder,
    key: str,
    listing: SourceListing,
    file: SourceFile,
    found: tuple[int, int],
    started_ms: int,
    report: SourceExternalReport,
    actor: str,
) -> None:
    try:
        with interprocess_lock(file_lock_path(file.physical), timeout_s=0):
            shown = read_source_file(listing.source, file)
            if shown.binary or (shown.over_cap and not shown.rendered):
                return  # history keeps no copy of it (docs/formats.md §14.2)
            data = encode_utf8(shown.text)
            digest = sha256_of(data)
            seen = Observation(file.id, data, found, sha256=digest)
            added = recorder.observe(key, [seen], actor=actor)
            if not added:
                _SAME[(key, file.id)] = (found, digest, started_ms)
    except LockUnavailableError:
        report.busy += 1
        return
    except (SourceError, OSError, TimeoutError) as error:
        if stat_now(file) is None:
            return  # deleted since it was listed: the next pass records it gone
        report.problems.append(f"{file.id}: {error}")
        report.unrecorded = report.unrecorded or unrecorded_reason(error, home)
        return
    report.recorded += len(added)


def _still_gone(source: Source, file_id: str) -> bool:
    """Whether a file the listing lacks is still not there after `newest` was read (a restore
    meanwhile is not taken back)."""
    try:
        return source_file(source, parse_file_id(file_id).path) is None
    except SourceError:
        return True


def _unchanged(
    version: Version | None,
    info: os.stat_result,
    same: tuple[tuple[int, int], str, int] | None,
) -> bool:
    """Whether a file's stat shows it holds its newest version: the version's own stat, or the
    stat of the pass that last read it, where the file was settled by then."""
    if version is None or version.deleted:
        return False
    found = (info.st_size, info.st_mtime_ns)
    if version.stat == found and settled(info, version.at):
        return True
    return same is not None and same[:2] == (found, version.sha256) and settled(info, same[2])
