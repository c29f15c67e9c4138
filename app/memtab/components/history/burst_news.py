"""A burst is news: the window's notice "Claude Code removed 23 files at 15:27 — Review…",
once per burst (docs/formats.md §14.5)."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from memtab.watch.events import ChangeEvent
from memtab.watch.guard import MassChange

logger = logging.getLogger(__name__)

SEEN_KEPT = 200
"""The most burst ids remembered as seen (the newest): a burst is news for 7 days only."""
REVIEW = "review"
"""The notice's action: Recently deleted at its burst."""
RESTORE_ALL = "restore-all"
"""A mass change's notice's action: put the whole event back, as one undoable step."""
MASS_PREFIX = "Mass change: "


@dataclass(frozen=True)
class NewsRead:
    """What the window's worker read for the notice: the bursts (newest first) and, by
    id, those the guard flags as mass changes."""

    bursts: list[ChangeEvent]
    mass: dict[str, MassChange] = field(default_factory=dict)


@dataclass(frozen=True)
class BurstNotice:
    """What the notice says, and the burst Review… leads to."""

    burst_id: str
    text: str
    """`Claude Code removed 23 files at 15:27` (`and 2 more bursts` when there are)."""
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
        """Take the bursts listed now (newest first) and those of them that are mass
        changes; whether the notice changed — it then shows the newest not seen yet, which
        is seen from now on, or nothing once every burst it named is put back (no longer
        listed)."""
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
