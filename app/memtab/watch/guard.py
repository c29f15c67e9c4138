"""The guard: a mass change (an event of at least `MASS_MIN_FILES` taking `MASS_SHARE` of what its
indexes held, or `MASS_ALWAYS_FILES`) told apart from a session's edits, so it is news at once and
put back as one event (docs/formats.md §14.5)."""

from __future__ import annotations

import time
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from memtab.store.actors import actor_name
from memtab.store.history.versions import ScopeHistory, Version
from memtab.store.home import Home
from memtab.watch.events import ChangeEvent, change_events

MASS_MIN_FILES = 10
"""The fewest files a mass change takes: a "save all" of a few open files is not one."""
MASS_SHARE = 0.25
"""The share of what its index held that a mass change takes (or `MASS_ALWAYS_FILES`)."""
MASS_ALWAYS_FILES = 100
"""As many files as this at once is a mass change however big the memory is."""


def is_mass(changed: int, before: int) -> bool:
    """Whether taking `changed` files of the `before` its index held is a mass change."""
    share = changed >= MASS_ALWAYS_FILES or changed >= MASS_SHARE * max(before, 1)
    return changed >= MASS_MIN_FILES and share


@dataclass(frozen=True)
class MassChange:
    """An event the guard flags, and how many files its indexes held just before it."""

    event: ChangeEvent
    files_before: int

    @property
    def id(self) -> str:
        return self.event.id

    @property
    def changed(self) -> int:
        """How many files it took (deleted or rewrote), each once."""
        return self.event.file_count

    @property
    def left_to_restore(self) -> int:
        """Its files not put back yet."""
        return max(self.changed - self.event.restored, 0)

    def words(self) -> str:
        """`xum removed 400 and rewrote 345 of 931 files at 14:02`, with what it took where."""
        event = self.event
        counts = (("removed", event.deleted), ("rewrote", event.rewritten))
        parts = [f"{verb} {count}" for verb, count in counts if count]
        when = time.strftime("%H:%M", time.localtime(event.at / 1000))
        of = f"{self.files_before} file" if self.files_before == 1 else f"{self.files_before} files"
        where = event.where_words()
        said = f"{actor_name(event.actor)} {' and '.join(parts)} of {of} at {when}"
        return said + (f": {where}" if where else "")


def files_before(versions: Sequence[Version], firsts: Iterable[str]) -> dict[str, int]:
    """How many files the index held just before each of `firsts`: one pass, oldest first."""
    wanted = set(firsts)
    if not wanted:
        return {}
    alive: set[str] = set()
    counts: dict[str, int] = {}
    for version in versions:
        if version.id in wanted and version.id not in counts:
            counts[version.id] = len(alive)
            if len(counts) == len(wanted):
                break
        if version.deleted:
            alive.discard(version.path)
        else:
            alive.add(version.path)
    return counts


def mass_changes(
    home: Home, *, since_ms: int = 0, keys: Collection[str] | None = None
) -> list[MassChange]:
    """The mass changes of the home's history (touching `keys`) since `since_ms`, newest first."""
    return flag(home, change_events(home, min_files=MASS_MIN_FILES, since_ms=since_ms, keys=keys))


def flag(home: Home, events: Sequence[ChangeEvent]) -> list[MassChange]:
    """Those of `events` that are mass changes, in their order."""
    candidates = [event for event in events if event.file_count >= MASS_MIN_FILES]
    before = sizes(home, candidates)
    return [
        MassChange(event, before[event.id])
        for event in candidates
        if event.id in before and is_mass(event.file_count, before[event.id])
    ]


def sizes(home: Home, events: Sequence[ChangeEvent]) -> dict[str, int]:
    """How many files each event's indexes held just before it, by event id."""
    by_key: dict[str, list[tuple[str, str]]] = {}  # index → (event id, its first version there)
    for event in events:
        for part in event.parts:
            by_key.setdefault(part.key, []).append((event.id, part.versions[0].id))
    found: dict[str, int] = {}
    for key, firsts in by_key.items():
        counts = files_before(ScopeHistory(home, key).versions(), (first for _, first in firsts))
        for event_id, first in firsts:
            if first in counts:
                found[event_id] = found.get(event_id, 0) + counts[first]
    return found
