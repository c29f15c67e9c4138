"""The window's history features without Qt: when what other programs changed is recorded,
what a watcher batch reloads, and where the History panel goes while another tab shows —
`gui/history/hub.py` keeps its timer, job client, dock and dialogs."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

from memtab.components.activity.change_batch import ChangeBatch
from memtab.store.home import PathKind

S = TypeVar("S")


class RecordingWait(Generic[S]):
    """When the next recording pass runs; time in monotonic ms."""

    def __init__(self) -> None:
        self._store: S | None = None
        self._since: float | None = None  # the first scan not recorded yet

    def scanned(self, store: S, now_ms: float, *, quiet_ms: int, max_wait_ms: int) -> int:
        """A scan of `store` was applied at `now_ms`: the delay until the pass (the timer
        restarts with it)."""
        self._store = store
        if self._since is None:
            self._since = now_ms
        left = max_wait_ms - (now_ms - self._since)
        return int(max(0, min(quiet_ms, left)))

    def take(self) -> S | None:
        """The pass is due: the store to record (None: nothing was scanned since)."""
        store, self._store = self._store, None
        self._since = None
        return store


@dataclass(frozen=True)
class BatchRoutes:
    """What a watcher batch reloads or reads again."""

    panel: bool = False
    """The History panel (its file's scope's history changed)."""
    trash: bool = False
    """Recently deleted (shown), without recording first: history changed."""
    news: bool = False
    """The bursts, for the notice."""
    runs: bool = False
    """Runs… (shown): the runs log changed."""
    import_runs: bool = False
    """mux's journal changed: its new runs go to the log."""
    recording: bool = False
    """Whether history is recorded changed."""


def batch_routes(
    batch: ChangeBatch,
    *,
    panel_index: str | None,
    trash_shown: bool,
    runs_shown: bool,
    closing: bool = False,
) -> BatchRoutes:
    """Where `batch` goes (`panel_index`: the history index of the panel's file; `closing`:
    the window closes, its recording state is not read again)."""
    history = batch.affects(PathKind.HISTORY_INDEX)
    return BatchRoutes(
        panel=history
        and panel_index is not None
        and batch.affects(PathKind.HISTORY_INDEX, panel_index),
        trash=history and trash_shown,
        news=history,
        runs=runs_shown and batch.affects(PathKind.RUNS_LOG),
        import_runs=batch.affects(PathKind.CONSOLIDATION_JOURNAL),
        recording=not closing and batch.affects(PathKind.HISTORY_RECORDING),
    )


class PanelAway:
    """The History panel while another tab than the Memory tab shows."""

    def __init__(self) -> None:
        self.away = False
        """Hidden because another tab shows: shown again when the Memory tab comes back."""

    def tab_shown(self, on_memory: bool, *, visible: bool) -> bool | None:
        """The Memory tab shows (`on_memory`) or another does, the panel `visible` now:
        show (True) or hide (False) it, or leave it (None)."""
        if not on_memory and visible:
            self.away = True
            return False
        if on_memory and self.away:
            self.away = False
            return True
        return None

    def remembered(self, *, visible: bool) -> bool:
        """Whether the panel is remembered as shown (UI state)."""
        return visible or self.away
