"""The store a consolidation run works on: usage is counted per run, not per tool call. A
consolidator reads every file (1000 in a full scope); recording each read the moment it happens
would rewrite memory-meta.json a thousand times (docs/formats.md §7)."""

from __future__ import annotations

import logging
import threading

from memtab.fs.clock import Clock, now_ms
from memtab.store.home import Home
from memtab.store.paths import VirtualPath
from memtab.store.scopes.memory import MemoryStore, MemoryStoreError
from memtab.store.scopes.scope_dir import ScopeDir
from memtab.store.sidecars.registry import Workspace

logger = logging.getLogger(__name__)


class RunStore(MemoryStore):
    """A workspace's store for one run: reads batched, or no usage at all (dry run)."""

    def __init__(
        self,
        home: Home,
        workspace: Workspace,
        *,
        count_usage: bool = True,
        clock: Clock = now_ms,
        run_id: str | None = None,
    ) -> None:
        """Changes are recorded in history as the `consolidator`'s, under `run_id`."""
        super().__init__(home, workspace, clock=clock, actor="consolidator", run_id=run_id)
        self.count_usage = count_usage
        self._reads: list[VirtualPath] = []
        self._reads_lock = threading.Lock()

    def record_read(self, path: VirtualPath) -> None:
        """Remember the read; `flush_reads` records it."""
        if self.count_usage:
            with self._reads_lock:
                self._reads.append(path)

    def record_write(
        self, path: VirtualPath, *, where: ScopeDir | None = None, created: bool = False
    ) -> None:
        """Record the write now (it anchors the launch sweep's coverage)."""
        if self.count_usage:
            super().record_write(path, where=where, created=created)

    def flush_reads(self) -> None:
        """Record every read so far in one update of memory-meta.json (best effort)."""
        with self._reads_lock:
            reads, self._reads = self._reads, []
        if not reads:
            return
        try:
            self.meta.record_reads([self.meta_key(path) for path in reads])
        except (OSError, MemoryStoreError) as error:
            logger.warning("Could not record %d memory reads: %s", len(reads), error)
