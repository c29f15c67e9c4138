"""Recently deleted: what every agent's memory lost, grouped by agent and by burst — one
model for the window's Recently deleted and `memtab trash` (docs/formats.md §14.5)."""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from memtab import humanize
from memtab.components.history.burst_news import NewsRead
from memtab.components.history.history import SCOPE_TITLES
from memtab.components.tree.sources import source_title
from memtab.file_protocol.file_ref import (
    AGENT_TITLES,
    MUX_SOURCE_ID,
    OTHER_AGENTS,
    MemoryFileRef,
    SourceError,
    parse_file_id,
)
from memtab.fs.clock import now_ms
from memtab.sources.agent_file import AgentFile, SourceVersions, index_key
from memtab.sources.config import SourceContext
from memtab.sources.discovery import discover
from memtab.sources.listing import target_file
from memtab.sources.model import Source
from memtab.store.actors import actor_name
from memtab.store.catch_up.external import record_external
from memtab.store.errors import MemoryStoreError
from memtab.store.history.describe import display_name
from memtab.store.history.versions import ScopeHistory, Version, index_path
from memtab.store.home import Home
from memtab.store.paths import SCOPE_ORDER, PathError, Scope, parse_file_path
from memtab.store.restore.from_history import TrashItem, content_of, text_of, trash
from memtab.store.restore.orphans import OrphanProjectStore, orphans_with_history
from memtab.store.scopes.memory import MemoryStore
from memtab.watch.events import BURST_MIN_FILES, ChangeEvent, Taken, change_events, taken_by
from memtab.watch.guard import flag
from memtab.watch.sources import record_sources, recorder_running

BURSTS_SHOWN_MS = 7 * 24 * 60 * 60 * 1000
"""How long a burst is listed (and news: `burst_news`) after it happened."""
ACROSS = "Across several memories"  # The group of the bursts that took files of several groups.


@dataclass(frozen=True)
class DeletedFile:
    """One file a memory lost, as Recently deleted lists it."""

    path: str  # As history names it: a virtual path, or another agent's file id.
    version: Version
    """What it held: the deletion (which keeps the content), or for a file a burst
    rewrote, its version before the burst."""
    key: str  # The history index it is in.
    actor: str  # Who removed (or rewrote) it.
    at: int
    rewritten: bool = False  # A burst rewrote it (it was not deleted).
    restored_by: Version | None = None
    """The restore that put back what it held, once one did (a burst's file)."""
    there_again: bool = False
    """A file is at its path again, not by a restore of it (a burst's file)."""
    source: Source | None = None  # Another agent's source it belongs to (None: mux's).
    orphan_dir: str | None = None
    """The orphaned project dir it was in: restored through that dir's store."""
    burst_id: str | None = None
    cannot_restore: str | None = None
    """Why Memtab may not put it back (a read-only source), or None."""
    place: str = ""
    """The group it belongs to (`Claude Code`, `Global`) when listed elsewhere: a file
    of a burst across several memories."""

    @property
    def deleted_at(self) -> int:
        return self.at

    @property
    def size_bytes(self) -> int:
        return self.version.size_bytes

    @property
    def pinned(self) -> bool:
        return bool(self.version.meta and self.version.meta.get("pinned") is True)

    @property
    def ref(self) -> MemoryFileRef:
        if self.source is not None:
            return MemoryFileRef.of_file_id(self.path)
        return MemoryFileRef(MUX_SOURCE_ID, self.path)

    @property
    def agent(self) -> str:
        return self.source.agent if self.source is not None else MUX_SOURCE_ID

    @property
    def filter_key(self) -> str:
        """What Recently deleted's filter calls its group: its scope's value or its agent."""
        if self.source is not None:
            return self.source.agent
        scope = _scope_of(self.path)
        return scope.value if scope is not None else ""

    @property
    def name(self) -> str:
        """Its path inside its scope or source (`notes/testing.md`, `memory/topic.md`)."""
        return self.ref.path if self.source is not None else display_name(self.path)

    @property
    def where(self) -> str:
        """The source it belongs to, in words (`Claude Code · auto memory`), or its path."""
        if self.source is None:
            return self.path
        return f"{source_title(self.source, with_agent=True)} · {self.physical}"

    @property
    def physical(self) -> str:
        """Where another agent's file is on disk ("" for mux's)."""
        if self.source is None:
            return ""
        return str(self.source.root.joinpath(*self.ref.path.split("/")))

    @property
    def restorable(self) -> bool:
        """Whether Restore can put it back now (not back already, a place Memtab writes)."""
        return self.restored_by is None and not self.there_again and self.cannot_restore is None

    def state_words(self, now: int | None = None) -> str:
        """What became of a burst's file: `restored 2 min ago by You`, `there again`, ""."""
        if self.restored_by is not None:
            when = humanize.relative_time(self.restored_by.at, now)
            return f"restored {when} by {actor_name(self.restored_by.actor)}"
        return "a file is there again" if self.there_again else ""

    def trash_item(self) -> TrashItem:
        """The row as `memtab trash --json` lists it."""
        return TrashItem(
            path=self.path, version=self.version, agent=self.agent, event=self.burst_id
        )


@dataclass(frozen=True)
class BurstFiles:
    """A burst and every file it took."""

    event: ChangeEvent
    files: tuple[DeletedFile, ...]
    place: str = ""  # Where it happened, when not said by its group (another agent's source).

    @property
    def id(self) -> str:
        return self.event.id

    @property
    def words(self) -> str:
        """`Claude Code removed 23 files at 14:02`, and what was put back since."""
        restored = self.event.restored_words()
        return f"{self.event.words()} — {restored}" if restored else self.event.words()

    @property
    def left_to_restore(self) -> int:
        """Its files Restore all would put back now."""
        return sum(1 for file in self.files if file.restorable)

    @property
    def filter_keys(self) -> frozenset[str]:
        """The filter keys of the groups its files belong to (several: `ACROSS`'s)."""
        return frozenset(file.filter_key for file in self.files)


@dataclass(frozen=True)
class TrashGroup:
    """What one of mux's scopes (or orphaned project dirs) or one other agent lost."""

    label: str
    scope: Scope | None  # mux's scope (an orphan's: project); None for another agent's.
    items: tuple[DeletedFile, ...]  # Its deleted files outside a burst, newest first.
    bursts: tuple[BurstFiles, ...] = ()  # Its bursts, newest first.
    orphan_dir: str | None = None
    agent: str = MUX_SOURCE_ID
    across: bool = False
    """`ACROSS`: the bursts that took files of several groups (a filter shows those that
    took files of what it shows)."""

    @property
    def filter_key(self) -> str:
        """What Recently deleted's filter calls it: the scope's value or the agent's id
        ("" for `ACROSS`)."""
        if self.across:
            return ""
        return self.scope.value if self.agent == MUX_SOURCE_ID and self.scope else self.agent

    @property
    def files(self) -> tuple[DeletedFile, ...]:
        """Every row, the bursts' first."""
        return tuple(file for burst in self.bursts for file in burst.files) + self.items

    @property
    def deleted_count(self) -> int:
        """The files still deleted (what the group's title counts)."""
        burst_files = (f for b in self.bursts for f in b.files if not f.rewritten)
        still = sum(1 for f in burst_files if f.restored_by is None and not f.there_again)
        return still + len(self.items)


@dataclass(eq=False)
class _Place:
    """A group being filled, and how its files are looked at."""

    label: str
    scope: Scope | None
    agent: str = MUX_SOURCE_ID
    store: MemoryStore | None = None
    orphan_dir: str | None = None
    items: list[DeletedFile] = field(default_factory=list)
    bursts: list[BurstFiles] = field(default_factory=list)
    across: bool = False

    def group(self) -> TrashGroup:
        items = tuple(sorted(self.items, key=lambda item: item.at, reverse=True))
        place = (self.orphan_dir, self.agent, self.across)
        return TrashGroup(self.label, self.scope, items, tuple(self.bursts), *place)


def discovered_sources(home: Home) -> tuple[Source, ...]:
    """Every other agent's source discovery finds (when the caller has none listed)."""
    return discover(SourceContext.load(home)).sources


def record_source_deletions(home: Home, sources: Sequence[Source]) -> None:
    """Record what other programs changed in `sources` since history last looked — unless
    `memtab watch` runs for the home: it records them, with who did it (§14.5)."""
    if sources and not recorder_running(home):
        record_sources(home, sources)


def load_trash(
    store: MemoryStore,
    *,
    record_first: bool = True,
    sources: Sequence[Source] | None = None,
    orphans: bool = True,
    now: int | None = None,
) -> list[TrashGroup]:
    """What every memory the window shows lost, grouped; `record_first`: record what other
    programs deleted first; `sources`: the other agents' shown (None: discovered); `orphans`:
    with orphaned project dirs."""
    home = store.home
    found = discovered_sources(home) if sources is None else tuple(sources)
    if record_first:
        record_external(store)
        record_source_deletions(home, found)
    places = _places(store, found, orphans)
    moment = now_ms() if now is None else now
    events = change_events(
        home, min_files=BURST_MIN_FILES, since_ms=moment - BURSTS_SHOWN_MS, keys=places
    )
    by_source = {source.id: source for source in found}
    in_bursts: set[str] = set()
    across = _Place(ACROSS, None, agent="", across=True)
    for event in events:
        burst, where = _burst(home, places, event, by_source)
        if burst.files:
            (where or across).bursts.append(burst)
            in_bursts.update(version.id for version in event.versions)
    _deleted(places)
    for key, place in places.items():
        if place.store is None:
            place.items += _deleted_sources(home, key, by_source)
    for place in places.values():
        place.items = [item for item in place.items if item.version.id not in in_bursts]
    groups = [across, *dict.fromkeys(places.values())]  # one agent's sources share a group
    return [
        place.group()
        for place in groups
        if (place.store is not None and place.orphan_dir is None) or place.items or place.bursts
    ]


def _places(store: MemoryStore, sources: Sequence[Source], orphans: bool) -> dict[str, _Place]:
    """Every history index listed, to the group its files go in (in the groups' order)."""
    places: dict[str, _Place] = {}
    shown = store.scopes()
    for scope in SCOPE_ORDER:
        if store.unavailable_reason(scope) is not None:
            continue
        key = store.history_key(scope)
        if scope in shown or index_path(store.home, key).exists():  # a session scope once kept
            places[key] = _Place(SCOPE_TITLES[scope], scope, store=store)
    if orphans and not isinstance(store, OrphanProjectStore):
        for dir_name in orphans_with_history(store.home):
            label = f"Orphaned project memory {dir_name}"
            orphan = OrphanProjectStore(store.home, dir_name)
            place = _Place(label, Scope.PROJECT, store=orphan, orphan_dir=dir_name)
            places.setdefault(orphan.history_key(Scope.PROJECT), place)
    agents: dict[str, _Place] = {}
    for agent in OTHER_AGENTS:
        for source in sources:
            if source.agent == agent:
                place = agents.setdefault(agent, _Place(AGENT_TITLES[agent], None, agent=agent))
                places[index_key(source.id)] = place
    return places


def _deleted(places: dict[str, _Place]) -> None:
    """The deleted files of mux's scopes and orphans (`trash`, once per store) into their places."""
    stores = {id(p.store): p.store for p in places.values() if p.store is not None}
    for store in stores.values():
        for item in trash(store):
            key = _key_of(store, item.path)
            place = places.get(key)
            if place is None or place.store is not store:
                continue
            row = DeletedFile(item.path, item.version, key, item.version.actor, item.deleted_at)
            place.items.append(replace(row, orphan_dir=place.orphan_dir))


def _key_of(store: MemoryStore, path: str) -> str:
    scope = _scope_of(path)
    return store.history_key(scope) if scope is not None else ""


def _scope_of(path: str) -> Scope | None:
    try:
        return parse_file_path(path).scope
    except PathError:
        return None


def _deleted_sources(home: Home, key: str, sources: dict[str, Source]) -> list[DeletedFile]:
    """The deleted files of the sources whose index is `key` (a file there again on
    disk is not: the next recording pass sees it)."""
    items = []
    for path, version in ScopeHistory(home, key).newest_by_path().items():
        if not version.deleted or version.moved_to is not None:
            continue
        source = _source_of(path, sources)
        if source is None:
            continue
        row = _source_row(source, path, version, key)
        if not os.path.lexists(row.physical):
            items.append(row)
    return items


def _source_of(file_id: str, sources: dict[str, Source]) -> Source | None:
    try:
        return sources.get(parse_file_id(file_id).source_id)
    except SourceError:
        return None


def _source_row(source: Source, path: str, version: Version, key: str) -> DeletedFile:
    row = DeletedFile(path, version, key, version.actor, version.at, source=source)
    return replace(row, cannot_restore=_cannot_restore(source, path))


def _cannot_restore(source: Source, file_id: str) -> str | None:
    """Why Memtab may not write the file back (a read-only source or place), or None."""
    try:
        target_file(source, parse_file_id(file_id).path)
    except SourceError as error:  # ReadOnlyError too
        return str(error)
    return None


def _burst(
    home: Home, places: dict[str, _Place], event: ChangeEvent, sources: dict[str, Source]
) -> tuple[BurstFiles, _Place | None]:
    """A burst's files in the places listed, each with what became of it; and the one
    place they are all in (None: several — each file then names its place)."""
    restores = {version.restored_from: version for version in event.restores}
    rows: list[tuple[_Place, DeletedFile]] = []
    wheres: list[str] = []
    for key, taken in taken_by(home, event):
        place = places.get(key)
        if place is None or taken.held is None:
            continue  # not shown, or history has nothing of it from before
        row = _taken_row(place, key, taken, taken.held, event, restores, sources)
        if row is not None:
            rows.append((place, row))
            if row.source is not None and _place_of(row.source) not in wheres:
                wheres.append(_place_of(row.source))
    homes = list(dict.fromkeys(place for place, _row in rows))
    order = {place: index for index, place in enumerate(dict.fromkeys(places.values()))}
    rows.sort(key=lambda row: (order[row[0]], row[1].rewritten, row[1].name))
    if len(homes) > 1:
        files = tuple(replace(row, place=place.label) for place, row in rows)
        return BurstFiles(event, files), None
    where = ", ".join(wheres)
    return BurstFiles(event, tuple(row for _place, row in rows), where), next(iter(homes), None)


def _taken_row(
    place: _Place,
    key: str,
    taken: Taken,
    held: Version,
    event: ChangeEvent,
    restores: dict[str | None, Version],
    sources: dict[str, Source],
) -> DeletedFile | None:
    """One file of a burst (`held`: what it took of it), with what became of it (None:
    its source is not shown)."""
    if place.store is None:
        source = _source_of(taken.path, sources)
        if source is None:
            return None
        row = _source_row(source, taken.path, held, key)
        there = os.path.lexists(row.physical)
    else:
        row = DeletedFile(taken.path, held, key, event.actor, taken.last.at)
        there = _exists(place.store, taken.path)
    restored_by = restores.get(held.id)
    rewritten = not taken.last.deleted
    return replace(
        row,
        actor=event.actor,
        at=taken.last.at,
        rewritten=rewritten,
        restored_by=restored_by,
        there_again=not rewritten and restored_by is None and there,
        orphan_dir=place.orphan_dir,
        burst_id=event.id,
    )


def _place_of(source: Source) -> str:
    """`auto memory of acme-api`: what a source holds, and for which project."""
    what = source_title(source, with_agent=False)
    return f"{what} of {Path(source.project).name}" if source.project else what


def _exists(store: MemoryStore, path: str) -> bool:
    try:
        return store.kind_of(parse_file_path(path)) is not None
    except (PathError, MemoryStoreError):
        return False


def agent_file(home: Home, row: DeletedFile) -> AgentFile:
    """Another agent's deleted file as the file to restore (SourceError: Memtab may not
    write it there)."""
    if row.source is None:
        raise SourceError(f"{row.path} is not another agent's file")
    file = target_file(row.source, row.ref.path)
    return AgentFile(row.source, file, SourceVersions(home))


def deleted_text(home: Home, item: DeletedFile | TrashItem) -> str:
    """What a deleted file held (HistoryError when history lost it)."""
    return text_of(content_of(home, item.version))


@dataclass(frozen=True)
class DeletedPreview:
    """What a deleted file held, for Recently deleted's preview."""

    file: DeletedFile
    text: str


def deleted_preview(home: Home, file: DeletedFile) -> DeletedPreview:
    return DeletedPreview(file, deleted_text(home, file))


def burst_text(burst: BurstFiles, now: int | None = None) -> str:
    """A burst in a few lines: what happened, and what became of each of its files."""
    lines = [burst.words] + ([f"In {burst.place}"] if burst.place else [])
    if burst.left_to_restore:
        lines.append(f"Restore all puts back {humanize.plural(burst.left_to_restore, 'file')}.")
    lines.append("")
    for file in burst.files:
        state = file.state_words(now) or ("rewritten" if file.rewritten else "deleted")
        lines.append(
            f"{file.place} · {file.name} — {state}" if file.place else f"{file.name} — {state}"
        )
    return "\n".join(lines)


def news_read(
    store: MemoryStore, sources: Sequence[Source] | None = None, *, now: int | None = None
) -> NewsRead:
    """The bursts of the last `BURSTS_SHOWN_MS` that deleted (or, mass changes, rewrote) files
    and have some left to put back, newest first, with the mass changes among them by id."""
    found = discovered_sources(store.home) if sources is None else tuple(sources)
    moment = now_ms() if now is None else now
    keys = _places(store, found, orphans=True)
    events = change_events(
        store.home, min_files=BURST_MIN_FILES, since_ms=moment - BURSTS_SHOWN_MS, keys=keys
    )
    left = [event for event in events if event.restored < event.file_count]
    mass = {change.id: change for change in flag(store.home, left)}
    bursts = [event for event in left if event.deleted or event.id in mass]
    return NewsRead(bursts, mass)


def every_item(groups: Iterable[TrashGroup]) -> list[DeletedFile]:
    """Every file still deleted, newest first (`memtab trash`)."""
    items = [
        file
        for group in groups
        for file in group.files
        if not file.rewritten and file.restored_by is None and not file.there_again
    ]
    return sorted(items, key=lambda item: item.at, reverse=True)
