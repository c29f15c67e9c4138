"""The runs log caught up before it is read or added to: the runs a kill left, then mux's journal's;
above history, which never reaches up for it."""

from __future__ import annotations

from memtab.fs import clock
from memtab.store.catch_up.interrupted import log_interrupted_runs
from memtab.store.history.jsonlines import LOCK_TIMEOUT_S
from memtab.store.history.prune import load_history_limits
from memtab.store.history.records import RunEntry
from memtab.store.history.runs import import_mux_journal
from memtab.store.history.started import started_run_names
from memtab.store.home import Home


def catch_up_runs(
    home: Home,
    *,
    consolidation_held: bool = False,
    now_ms: int | None = None,
    wait_s: float = LOCK_TIMEOUT_S,
) -> list[RunEntry]:
    """Log the runs a kill left (`consolidation_held`: the caller holds that lock), then import
    mux's journal's runs history keeps; the journal's runs added, none when the log stays locked for
    `wait_s`."""
    if started_run_names(home):  # a kill's leftover to log
        log_interrupted_runs(home, consolidation_held=consolidation_held)
    now = clock.now_ms() if now_ms is None else now_ms
    return import_mux_journal(home, oldest=load_history_limits().oldest_kept(now), wait_s=wait_s)
