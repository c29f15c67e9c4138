"""A burst is news: the window's notice "Claude Code removed 23 files at 15:27 — Review…", once
per burst (docs/formats.md §14.5); and when the history hub records what other programs
changed, what a batch reloads, where the History panel goes (`gui/history/hub.py` shows it)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from memtab.components.activity.change_batch import ChangeBatch
from memtab.store.home import PathKind
from memtab.watch.events import ChangeEvent
from memtab.watch.guard import MassChange

SEEN_KEPT = 200
"""The most burst ids remembered as seen (the newest): a burst is news for 7 days only."""
REVIEW = "review"  # The notice's action: Recently deleted at its burst.
RESTORE_ALL = "restore-all"
"""A mass change's notice's action: put the whole event back, as one undoable step."""
MASS_PREFIX = "Mass change: "


@dataclass(frozen=True)
class NewsRead:
    """The bursts read for the notice (newest first), and the mass changes among them by id."""

    bursts: list[ChangeEvent]
    mass: dict[str, MassChange] = field(default_factory=dict)


@dataclass(frozen=True)
class BurstNotice:
    """What the notice says, and the burst Review… leads to."""

    burst_id: str
    text: str  # `Claude Code removed 23 files at 15:27` (`and 2 more bursts` when there are).
    event: ChangeEvent | None = None
    """The burst, when it is a mass change (Restore all puts it back)."""

    @property
    def actions(self) -> tuple[tuple[str, str], ...]:
        """The notice's buttons: Restore all for a mass change, and Review…."""
        review = (REVIEW, "&Review…")
        return ((RESTORE_ALL, "Restore &all"), review) if self.event is not None else (review,)


class BurstNews:
    """Which bursts are news."""

    def __init__(self, seen: Iterable[str] = ()) -> None:
        """`seen`: the ids of bursts already shown (the UI state's)."""
        self._seen: list[str] = sorted(set(seen))
        self._showing: list[ChangeEvent] = []  # the bursts the notice covers, newest first
        self._mass: dict[str, MassChange] = {}

    @property
    def seen(self) -> list[str]:
        """The burst ids to remember, oldest first (at most `SEEN_KEPT`)."""
        return list(self._seen)

    @property
    def notice(self) -> BurstNotice | None:
        """What the notice shows now (None: nothing)."""
        if not self._showing:
            return None
        newest = self._showing[0]
        more = len(self._showing) - 1
        mass = self._mass.get(newest.id)
        text = MASS_PREFIX + mass.words() if mass is not None else newest.words()
        if more:
            text += f" (and {more} more burst{'s' if more > 1 else ''})"
        return BurstNotice(newest.id, text, newest if mass is not None else None)

    def take(
        self, bursts: Sequence[ChangeEvent], mass: Mapping[str, MassChange] | None = None
    ) -> bool:
        """Take the bursts listed now (newest first) and those of them that are mass changes;
        whether the notice changed — it then shows the newest not seen yet, which is seen from now
        on, or nothing once every burst it named is put back (no longer listed)."""
        self._mass = dict(mass or {})
        listed = {burst.id for burst in bursts}
        still = [burst for burst in self._showing if burst.id in listed]
        new = [burst for burst in bursts if burst.id not in self._seen]
        if not new:
            changed = len(still) != len(self._showing)
            self._showing = still
            return changed
        self._showing = sorted([*new, *still], key=lambda burst: burst.id, reverse=True)
        # Ids sort as their times do: the newest are kept.
        self._seen = sorted({*self._seen, *(burst.id for burst in new)})[-SEEN_KEPT:]
        return True

    def dismissed(self) -> None:
        """The notice was closed (or followed): it shows nothing until the next burst."""
        self._showing = []


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

    panel: bool = False  # The History panel (its file's scope's history changed).
    trash: bool = False  # Recently deleted (shown), without recording first: history changed.
    news: bool = False  # The bursts, for the notice.
    runs: bool = False  # Runs… (shown): the runs log changed.
    import_runs: bool = False  # mux's journal changed: its new runs go to the log.
    recording: bool = False  # Whether history is recorded changed.


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
