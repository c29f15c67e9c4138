"""The runs log caught up before it is read or added to.

Before every consolidation, plan or apply (in any process), when the window starts and
when Runs… or `memtab runs` read the log: first the runs a kill left unlogged
(`store.catch_up.interrupted`), then the runs of mux's journal not logged yet
(`store.history.runs.import_mux_journal`).

This sits above both: logging an interrupted run replays its last call through the
memory tool and `MemoryStore`, which record into history, so history itself (the
recorder) never reaches up for it. The window imports this module after its first paint,
with the interrupted runs' module (~76 KiB traced, ~5 ms: the memory tool it replays
through is the window's already).
"""

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
    """Log the runs a kill left unlogged (`consolidation_held`: the caller holds the
    consolidation lock), then import mux's journal — its runs history keeps, not those
    older than its prune keeps (added back each day after the prune dropped them, they
    rewrote the log at every start). Returns the journal's runs added;
    none when the runs log stays locked for `wait_s` (it is caught up next time)."""
    if started_run_names(home):  # a kill's leftover to log
        log_interrupted_runs(home, consolidation_held=consolidation_held)
    now = clock.now_ms() if now_ms is None else now_ms
    return import_mux_journal(home, oldest=load_history_limits().oldest_kept(now), wait_s=wait_s)
