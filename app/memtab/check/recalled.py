"""The check where memory is recalled: a check's findings kept per memory file in the
check cache (`memtab.checked`: docs/formats.md §19.8), for the MCP server's answers to
mark each line the check finds false or stale, and checks made again in the background
as files and checkouts change — never while an answer waits.

`RecallChecks` is one home's: its engine (which keeps each checkout's index and each
file's findings, so a check after a change checks only what changed — not the files'
texts: a warm host keeps no copy of the memory), the cache it writes, and a worker
thread that checks what `refresh` asks for, one check at a time (asks made meanwhile
are one more check). `memtab check` writes the cache too.

What a file's entry says (`file_checks`): the lines with findings that mean a line is
not true now — a path, script or program it names is not there, a link leads nowhere,
memories disagree, text hidden from the reader — each with the finding's message as the
evidence; and of the file as a whole, that it is stale (unused for months) or that its
project is not on this disk (what it says of the code could not be checked).
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from memtab.checked.cache import CheckCache, CheckState, FileCheck, LineMark, checkout_stamp
from memtab.fs.clock import Clock, now_ms
from memtab.fs.memo import RACY_MARGIN_NS, changed_since, stamp_of
from memtab.store.files import content_sha256
from memtab.store.home import Home, HomeError

if TYPE_CHECKING:  # lazy: the engine (~80 ms to import) loads with the first check, on the
    # worker: an MCP session starts without it (`_engine_of`)
    from memtab.check.documents import Document
    from memtab.check.engine import CheckEngine
    from memtab.check.records import CheckReport, Finding

logger = logging.getLogger(__name__)

LINE_KINDS = frozenset(
    {"missing-path", "missing-script", "missing-program", "broken-link", "disagreement",
     "code-disagrees", "hidden-text"}
)  # fmt: skip
"""The findings that say a line is not true of the code (or of the other memories) now."""
WARM_S = 60.0
"""A session's start checks its memory unless the cache is younger than this."""
WARM_AFTER_S = 1.0
"""How long after a session's start its check begins: not while the agent and the server
shake hands (an answer that meets a file not checked asks for it at once)."""


def _evidence(finding: Finding) -> str:
    """The finding's message, and its fix where it has one ("… — Name X instead of Y")."""
    says = finding.message
    if finding.fix is not None:
        says += f" — {finding.fix.description}"
    return says


def file_checks(
    documents: Iterable[tuple[Document, Path]],
    report: CheckReport,
    stamps: Mapping[str, str],
    *,
    at: int,
) -> dict[str, FileCheck]:
    """Each document's entry by its path on disk (`documents`: each with its file, as
    `Document.file_path` gives it), its findings from `report`, its
    checkout's stamp from `stamps` (a document whose checkout is missing from them, or
    whose file changed since the check read it, is left out: the next check has it); `at`:
    now (ms), when a file changed within the racy margin is known by its digest."""
    by_file: dict[tuple[str, str | None, str | None], list[Finding]] = {}
    missing_projects: set[str] = set()
    for finding in report.findings:
        if finding.kind == "project-missing":
            missing_projects.add(finding.subject)
        by_file.setdefault((finding.path, finding.workspace, finding.project), []).append(finding)
    checks: dict[str, FileCheck] = {}
    for document, physical in documents:
        checkout = str(document.checkout) if document.checkout is not None else None
        if checkout is not None and checkout not in stamps:
            continue
        try:
            info = os.stat(physical)
        except OSError:
            continue
        if info.st_mtime_ns // 1_000_000 != document.modified_ms and document.modified_ms:
            continue  # changed since the check read it
        found = by_file.get((document.path, document.workspace, document.project), [])
        # Built unchecked: every value is of its field's type as made here (16,000 files: ~0.2 s)
        marks = tuple(
            LineMark.unchecked(line=f.line, kind=f.kind, says=_evidence(f))
            for f in found
            if f.kind in LINE_KINDS and f.line is not None
        )
        notes = [f.message for f in found if f.kind == "stale"]
        if document.project in missing_projects and checkout is None:
            notes.append("its project is not on this disk: what it says of the code is unchecked")
        size, mtime_ns, ctime_ns, inode = stamp_of(info)
        checks[str(physical)] = FileCheck.unchecked(
            sha256=content_sha256(document.text),
            size=size,
            mtime_ns=mtime_ns,
            ctime_ns=ctime_ns,
            inode=inode,
            racy=changed_since(info, at * 1_000_000 - RACY_MARGIN_NS),
            at=at,
            checkout=checkout,
            stamp=stamps.get(checkout, "") if checkout is not None else "",
            marks=marks,
            note="; ".join(notes) or None,
        )
    return checks


class RecallChecks:
    """One home's checks for where its memory is recalled (see the module doc)."""

    def __init__(
        self,
        home: Home,
        *,
        cache: CheckCache | None = None,
        engine: CheckEngine | None = None,
        clock: Clock = now_ms,
    ) -> None:
        self.home = home
        self.cache = cache or CheckCache(home)
        self._engine = engine
        self._clock = clock
        self._lock = threading.Lock()
        self._wanted: dict[str | None, float] = {}  # the workspaces to check, and when
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        self._stopped = False
        self._running = False
        self._roots: set[str] = set()  # the checkouts the last check was checked against

    # --- what answers call (never blocking on a check) -----------------------------------

    def state(
        self,
        physical: str | Path,
        *,
        sha256: str | None = None,
        stamps: dict[str, str] | None = None,
    ) -> CheckState:
        """What the check says of the file as it is now (`CheckCache.state`)."""
        return self.cache.state(physical, sha256=sha256, stamps=stamps)

    def states(
        self, physicals: Sequence[str], *, stamps: dict[str, str] | None = None
    ) -> list[CheckState]:
        """What the check says of each file as it is now (`CheckCache.states`)."""
        return self.cache.states(physicals, stamps=stamps)

    def refresh(self, workspace_id: str | None, *, after_s: float = 0.0) -> None:
        """Check `workspace_id`'s memory (None: the home's) on the worker, in `after_s`."""
        due = time.monotonic() + after_s
        with self._lock:
            if self._stopped:
                return
            self._wanted[workspace_id] = min(due, self._wanted.get(workspace_id, due))
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._work, name="memtab-recall-checks", daemon=True
                )
                self._thread.start()
        self._wake.set()

    def idle(self) -> bool:
        """Whether no check is asked for or running."""
        with self._lock:
            return not self._wanted and not self._running

    def stop(self) -> None:
        with self._lock:
            self._stopped = True
        self._wake.set()

    # --- checking ------------------------------------------------------------------------

    def check_now(self, workspace_id: str | None) -> CheckReport:
        """Check `workspace_id`'s memory (None: the home's) now and write what was found."""
        engine = self._engine_of()
        with self._lock:
            roots = set(self._roots)
        before = {root: checkout_stamp(root) for root in roots}
        documents: list[Document] = []
        report = engine.check(workspace_id, read=documents)
        after = _stamps(documents)
        with self._lock:
            self._roots = set(after)
        stamps = {root: stamp for root, stamp in after.items() if before.get(root, stamp) == stamp}
        located = [(d, path) for d in documents if (path := d.file_path) is not None]
        checks = file_checks(located, report, stamps, at=self._clock())
        if not report.cancelled:
            seen = {str(path) for _, path in located}
            # A cache: the check stands without it (a failure is said in its log).
            self.cache.write(checks, forget=lambda key: _forgotten(key, seen, checks))
        return report

    def warm(self, workspace_id: str | None) -> None:
        """A session starts: check its memory in the background unless the cache was
        written in the last `WARM_S` (what changed since is checked as answers meet it)."""
        try:
            age = time.time() - os.stat(self.cache.path).st_mtime
        except OSError:
            age = None
        if age is None or age > WARM_S:
            self.refresh(workspace_id, after_s=WARM_AFTER_S)

    def _engine_of(self) -> CheckEngine:
        if self._engine is None:
            # lazy: the engine and its rules (~80 ms of imports) on the worker's first
            # check, not in the start of the MCP session that made this
            from memtab.check.engine import CheckEngine

            self._engine = CheckEngine(self.home)
        return self._engine

    def _work(self) -> None:
        timeout: float | None = None
        while True:
            self._wake.wait(timeout)
            with self._lock:
                self._wake.clear()
                if self._stopped:
                    return
                now = time.monotonic()
                due = [ws for ws, at in self._wanted.items() if at <= now]
                if not due:
                    soonest = min(self._wanted.values(), default=None)
                    timeout = None if soonest is None else soonest - now
                    continue
                timeout = None
                workspace_id = due[0]
                del self._wanted[workspace_id]
                self._running = True
            try:
                self.check_now(workspace_id)
            except HomeError as error:
                logger.info("Cannot check the memory of %s: %s", workspace_id or "the home", error)
            except Exception:  # a check that fails must not end the worker
                logger.exception("The check where memory is recalled failed")
            finally:
                with self._lock:
                    self._running = False
                    if self._wanted:
                        self._wake.set()


def _stamps(documents: Iterable[Document]) -> dict[str, str]:
    """The stamp of each checkout the documents were checked against, now."""
    roots = {str(d.checkout) for d in documents if d.checkout is not None}
    return {root: checkout_stamp(root) for root in roots}


def _forgotten(key: str, seen: set[str], checks: Mapping[str, FileCheck]) -> bool:
    """Whether the cache drops `key`: a file this check read but could not keep (changed
    since), or one no longer on disk."""
    return (key in seen and key not in checks) or not os.path.exists(key)
