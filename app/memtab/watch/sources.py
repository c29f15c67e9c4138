"""Recording other programs' changes in other agents' sources with the actor their records tell,
and the one recorder per home (`memtab/locks/recorder.lock`, an `OwnedLock`) the window leaves
recording to while it runs (docs/formats.md §14.5)."""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Annotated

from memtab.fs.clock import now_ms
from memtab.fs.locking.lease_lock import pid_alive
from memtab.fs.locking.locks import InterprocessLock, LockUnavailableError, OwnedLock
from memtab.fs.records import Key, Record
from memtab.fs.user_files import read_regular_file
from memtab.sources.claude.settings import CONSOLIDATE_LOCK
from memtab.sources.config import SourceContext
from memtab.sources.discovery import discover
from memtab.sources.external import SourceExternalReport, record_source_external
from memtab.sources.gemini.inbox import EXTRACTION_STATE, extraction_running
from memtab.sources.layouts import auto_memory_dir
from memtab.sources.listing import list_source
from memtab.sources.model import Layout, Source
from memtab.store.catch_up.recording import unrecorded_reason
from memtab.store.history.xum_journal import recent_edits
from memtab.store.home import Home
from memtab.store.sidecars.journal import Journal

logger = logging.getLogger(__name__)

EXTERNAL = "external"
MUX = "mux"
XUM = "xum"
CLAUDE_CODE = "claude-code"
CODEX = "codex"
GEMINI = "gemini"
RECENT_MS = 2 * 60 * 1000
"""How long after an agent's own record of a run its changes are still taken as its."""
_TAIL_BYTES = 256 * 1024
_PID_BYTES = 64


def mux_actor(
    home: Home, paths: Sequence[str], physical: Sequence[str] = (), *, now: int | None = None
) -> str:
    """`xum` or `mux` when their journals show they just changed one of `paths` (`physical`: on
    disk), else `external`."""
    moment = now_ms() if now is None else now
    wanted = set(paths)
    named = wanted | set(physical)  # a recent xum memory-tool row of `durable-events.jsonl`'s tail
    if any(edit.paths & named for edit in recent_edits(home, moment - RECENT_MS, _TAIL_BYTES)):
        return XUM
    data = Journal(home).load()
    records = (*data.workspaces.values(), *data.projects.values())
    recent = [record for record in records if moment - record.last_run_at <= RECENT_MS]
    if any(op.applied and {op.path, op.new_path} & wanted for r in recent for op in r.ops):
        return MUX
    return EXTERNAL


def source_actor(source: Source, *, now: int | None = None) -> str:
    """Who changed a file of `source` just now (see the module doc)."""
    moment = now_ms() if now is None else now
    memory_dir = auto_memory_dir(source)
    if memory_dir is not None and _claude_consolidating(memory_dir, moment):
        return CLAUDE_CODE
    if source.layout is Layout.CODEX_MEMORIES and _head_moved(source.root, moment):
        return CODEX
    if source.layout is Layout.GEMINI_MEMORY and _gemini_extracting(source.root, moment):
        return GEMINI
    return EXTERNAL


def _gemini_extracting(memory_dir: Path, moment: int) -> bool:
    if extraction_running(memory_dir, now=moment) is not None:
        return True
    try:
        ended = os.stat(memory_dir / EXTRACTION_STATE, follow_symlinks=False).st_mtime_ns
    except OSError:
        return False
    return moment - ended // 1_000_000 <= RECENT_MS


def _claude_consolidating(memory_dir: Path, moment: int) -> bool:
    lock = memory_dir / CONSOLIDATE_LOCK
    try:
        info = os.stat(lock, follow_symlinks=False)
        body = read_regular_file(lock, limit=_PID_BYTES, truncate=True).strip()
    except OSError:
        return False
    if moment - info.st_mtime_ns // 1_000_000 <= RECENT_MS:
        return True
    # pid 0 would ask the process group; Windows is not asked (pid_alive: None)
    return body.isdigit() and int(body) > 0 and pid_alive(int(body)) is True


def _head_moved(root: Path, moment: int) -> bool:
    for marker in (root / ".git" / "logs" / "HEAD", root / ".git" / "index"):
        try:
            changed = os.stat(marker, follow_symlinks=False).st_mtime_ns // 1_000_000
        except OSError:
            continue
        return moment - changed <= RECENT_MS
    return False


def record_source(home: Home, source: Source) -> SourceExternalReport:
    """List `source` and record what changed in it since history last looked."""
    return record_source_external(home, list_source(source), actor=source_actor(source))


def record_sources(
    home: Home, sources: Iterable[Source] | None = None, cancel: Callable[[], bool] | None = None
) -> SourceExternalReport:
    """Record every source's changes (`sources`, else all discovery finds); `cancel` between
    sources; never raises for one."""
    found = discover(SourceContext.load(home)).sources if sources is None else sources
    total = SourceExternalReport()
    for source in found:
        if cancel is not None and cancel():
            break
        try:
            report = record_source(home, source)
        except Exception as error:  # one source's failure must not stop the others
            logger.exception("Cannot record the changes of %s", source.id)
            total.unrecorded = total.unrecorded or unrecorded_reason(error, home)
            continue
        total.recorded += report.recorded
        total.deleted += report.deleted
        total.busy += report.busy
        total.problems += report.problems
        total.unrecorded = total.unrecorded or report.unrecorded
    return total


PROBE_GRACE_S = 2.0
"""How long the recorder waits for its lock (another process may be looking at it)."""


class RecorderStatus(Record):
    """Whether a recorder runs for a home: `memtab watch --status --json` (stable)."""

    running: bool
    pid: int | None = None
    host: str | None = None
    since_ms: Annotated[int | None, Key("since")] = None


class RecorderLease:
    """The home's recorder lock, held from `acquire()` to `release()`."""

    def __init__(self, home: Home) -> None:
        self._lock = OwnedLock(home.lock_path("recorder"))

    @property
    def held(self) -> bool:
        return self._lock.held

    def acquire(self, timeout_s: float = PROBE_GRACE_S) -> bool:
        """Take the lease if free (waiting out another's look at most `timeout_s`); whether held."""
        try:
            if not self._lock.held:
                self._lock.acquire(timeout_s, role="recorder")
        except LockUnavailableError:
            return False
        return True

    def release(self) -> None:
        self._lock.release()

    def status(self) -> RecorderStatus:
        """Whether a recorder holds the lease (this object's holding counts)."""
        if not self._lock.held:
            probe = InterprocessLock(self._lock.path)  # a look writes no holder file
            try:
                probe.acquire(0)
            except LockUnavailableError:
                pass
            except OSError as error:  # a read-only home: nobody can be recording there
                logger.debug("Cannot look at %s: %s", self._lock.path, error)
                return RecorderStatus(running=False)
            else:
                probe.release()
                return RecorderStatus(running=False)
        holder = self._lock.holder()
        if holder is None:
            return RecorderStatus(running=True)
        return RecorderStatus(
            running=True, pid=holder.pid, host=holder.host, since_ms=holder.since_ms
        )


def recorder_running(home: Home) -> bool:
    """Whether a `memtab watch` records this home's changes now (one try of its lock)."""
    return RecorderLease(home).status().running
