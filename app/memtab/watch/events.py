"""Bursts: what one program other than Memtab deleted or rewrote at once, each change within
`GAP_MS` of the last, across history indexes (docs/formats.md §14.5); read from history, restored in
one step as the user's restore of each version."""

from __future__ import annotations

import bisect
import contextlib
import os
import time
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Annotated, NamedTuple

from memtab.file_protocol.file_ref import AGENT_TITLES, SourceError, is_virtual_path, parse_file_id
from memtab.file_protocol.memory_file import MemoryFile, MuxFile
from memtab.fs.atomic import encode_utf8
from memtab.fs.records import Key, Record
from memtab.humanize import plural
from memtab.sources.agent_file import INDEX_PREFIX, AgentFile, SourceVersions, restore_version
from memtab.sources.config import SourceContext
from memtab.sources.content import read_source_file
from memtab.sources.discovery import discover
from memtab.sources.layouts import classify_file, is_team_memory, watch_targets
from memtab.sources.listing import source_file, target_file
from memtab.sources.model import Layout, Source
from memtab.store.actors import actor_name
from memtab.store.errors import MemoryStoreError
from memtab.store.history.blobs import sha256_of
from memtab.store.history.versions import ScopeHistory, Version, index_keys
from memtab.store.home import Home, PathKind
from memtab.store.paths import SCOPE_ORDER, PathError, Scope, VirtualPath, parse_file_path
from memtab.store.restore.bulk_restore import Restore, restore_contents
from memtab.store.restore.from_history import content_of
from memtab.store.restore.orphans import OrphanProjectStore
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.registry import load_registry

RETARGET = "retarget"
"""A changed path after which the targets are found again (the registry, a new workspace)."""
_RETARGET_KINDS = frozenset(
    {PathKind.HOME, PathKind.MEMORY_DIR, PathKind.CONFIG, PathKind.WORKSPACE_DIR}
)
_SCOPE_KEYS = {
    PathKind.PROJECT_SCOPE: "project",
    PathKind.WORKSPACE_SCOPE: "workspace",
    PathKind.SESSION_SCOPE: "session",
}


@dataclass(frozen=True)
class ScopeTarget:
    """One of mux's scopes (history index `key`) through a store that sees it."""

    key: str
    store: MemoryStore
    scope: Scope


@dataclass
class Targets:
    """Everything one recorder follows in a home (see the module doc)."""

    home: Home
    scopes: dict[str, ScopeTarget] = field(default_factory=dict)
    sources: dict[str, Source] = field(default_factory=dict)

    @classmethod
    def find(cls, home: Home) -> Targets:
        """Every scope of every registered workspace, every orphaned project dir and every source
        (blocks on disk)."""
        found = cls(home)
        registry = load_registry(home)
        stores = [MemoryStore(home, None, actor="external")]
        stores += [
            MemoryStore(home, workspace, actor="external") for workspace in registry.workspaces
        ]
        for store in stores:
            for scope in SCOPE_ORDER:
                if store.unavailable_reason(scope):
                    continue
                try:
                    key = store.history_key(scope)
                except MemoryStoreError:
                    continue
                found.scopes.setdefault(key, ScopeTarget(key, store, scope))
        for dir_name in _project_dirs(home):  # orphaned ones: no workspace sees them
            key = f"project-{dir_name}"
            if key not in found.scopes:
                orphan = OrphanProjectStore(home, dir_name, actor="external")
                found.scopes[key] = ScopeTarget(key, orphan, Scope.PROJECT)
        context = SourceContext.load(home, registry=registry)
        for source in discover(context).sources:
            found.sources[source.id] = source
        return found

    def directories(self) -> list[tuple[str, bool]]:
        """(directory, recursive) to watch, as few as cover everything (each watch costs an inotify
        instance)."""
        wanted: dict[str, bool] = {str(self.home.root): False}
        for folder in (self.home.root / "memory", self.home.root / "sessions"):
            wanted[str(folder)] = True
        for source in self.sources.values():
            if source.layout is Layout.CLAUDE_MEMORY:  # one per project: their parent
                wanted[str(source.root.parent)] = True
                continue
            for directory, recursive in watch_targets(source):
                text = str(directory)
                wanted[text] = wanted.get(text, False) or recursive
        covering = sorted(path for path, recursive in wanted.items() if recursive)
        return [
            (path, recursive)
            for path, recursive in sorted(wanted.items())
            if not any(path.startswith(above + os.sep) for above in covering)
            and os.path.isdir(path)
        ]

    def concerned(self, path: str) -> str | None:
        """What a changed path concerns: a scope's history key, `source:<id>`, `RETARGET`, or
        None."""
        place = self.home.classify(path)
        if place.kind in _RETARGET_KINDS:
            return RETARGET
        if place.kind is PathKind.GLOBAL_SCOPE:
            return "global"
        prefix = _SCOPE_KEYS.get(place.kind)
        if prefix is not None:  # a project dir with no name yet: the registry tells
            return f"{prefix}-{place.key}" if place.key or prefix != "project" else RETARGET
        if place.kind is not PathKind.OTHER:
            return None
        best: Source | None = None
        target = Path(path)
        for source in self.sources.values():
            inside = target == source.root or source.root in target.parents
            if inside and (best is None or len(source.root.parts) > len(best.root.parts)):
                best = source
        if best is None:
            return None
        segments = target.relative_to(best.root).parts
        if is_team_memory(best.layout, segments):
            return RETARGET  # team memory no source holds yet: a new source
        if segments and classify_file(best, segments) is None and not os.path.isdir(path):
            return None
        return f"source:{best.id}"


def _project_dirs(home: Home) -> list[str]:
    """The project memory dirs in `memory/project/` (not hidden, not links)."""
    try:
        entries = list(os.scandir(home.projects_root))
    except OSError:
        return []
    return sorted(
        e.name for e in entries if not e.name.startswith(".") and e.is_dir(follow_symlinks=False)
    )


GAP_MS = 2_000
"""Versions of one actor further apart than this are separate events."""
BURST_MIN_FILES = 2
"""The fewest files of an event listed as a burst (`memtab events`, Recently deleted)."""
MEMTAB_ACTORS = frozenset({"user", "consolidator", "writer", "agent-tool", "sync"})


class Part(NamedTuple):
    """What an event did in one history index: its versions there, oldest first."""

    key: str
    versions: tuple[Version, ...]


@dataclass(frozen=True)
class ChangeEvent:
    """Deletions and rewrites one actor made at once, in one index or several."""

    key: str
    """The history index of its first version."""
    actor: str
    versions: tuple[Version, ...]
    """Every version it made, oldest first, whichever index each is in."""
    restores: tuple[Version, ...] = ()
    """The restores since that put back what it took, one per file at most."""
    keys: tuple[str, ...] = ()
    """The index of each of `versions`, in their order (empty: every one is in `key`)."""

    @property
    def id(self) -> str:
        return self.versions[0].id

    @property
    def parts(self) -> tuple[Part, ...]:
        """Its versions by history index, in the order it first touched each."""
        if not self.keys:
            return (Part(self.key, self.versions),)
        by_key: dict[str, list[Version]] = {}
        for key, version in zip(self.keys, self.versions, strict=True):
            by_key.setdefault(key, []).append(version)
        return tuple(Part(key, tuple(versions)) for key, versions in by_key.items())

    @property
    def indexes(self) -> tuple[str, ...]:
        """The history indexes it touched, in the order it first touched each."""
        return tuple(dict.fromkeys(self.keys)) if self.keys else (self.key,)

    @property
    def paths(self) -> tuple[str, ...]:
        """Its files' paths, each once, in the order it changed them."""
        return tuple(dict.fromkeys(version.path for version in self.versions))

    @property
    def file_count(self) -> int:
        """How many files it took, each once (a path in two indexes is two)."""
        return sum(len({version.path for version in part.versions}) for part in self.parts)

    @property
    def restored(self) -> int:
        """How many of its files were put back since."""
        return len(self.restores)

    @property
    def restored_at(self) -> int | None:
        """When the last of them was put back (None: none was)."""
        return max((version.at for version in self.restores), default=None)

    def restored_words(self) -> str:
        """`restored`, `3 of 20 restored`, or "" when nothing was put back."""
        if not self.restores or self.restored >= self.file_count:
            return "restored" if self.restores else ""
        return f"{self.restored} of {self.file_count} restored"

    @property
    def at(self) -> int:
        return self.versions[0].at

    @property
    def deleted(self) -> int:
        return sum(1 for version in self.versions if version.deleted)

    @property
    def rewritten(self) -> int:
        return len(self.versions) - self.deleted

    def words(self) -> str:
        """`Claude Code removed 23 files at 14:02`, with what it took where across memories."""
        counts = (("removed", self.deleted), ("rewrote", self.rewritten))
        parts = [f"{verb} {plural(count, 'file')}" for verb, count in counts if count]
        when = time.strftime("%H:%M", time.localtime(self.at / 1000))
        where = self.where_words()
        return f"{actor_name(self.actor)} {' and '.join(parts)} at {when}" + (
            f": {where}" if where else ""
        )

    def where_words(self) -> str:
        """What it took in each memory when more than one (`2 of Claude Code's, 1 in Global`), else
        ""."""
        counts: dict[tuple[int, str], int] = {}
        for part in self.parts:
            for path in {version.path for version in part.versions}:
                where = memory_words(path)
                counts[where] = counts.get(where, 0) + 1
        if len(counts) < 2:
            return ""
        return ", ".join(f"{counts[where]} {where[1]}" for where in sorted(counts))

    def listed(self) -> ListedEvent:
        """The event as `memtab events --json` lists it."""
        return ListedEvent(
            id=self.id,
            at=self.at,
            actor=self.actor,
            index=self.key,
            indexes=self.indexes,
            deleted=self.deleted,
            rewritten=self.rewritten,
            paths=tuple(version.path for version in self.versions),
            words=self.words(),
            restored=self.restored,
            restored_at=self.restored_at,
        )


class ListedEvent(Record):
    """One event of `memtab events --json` (stable: fields only added; docs/formats.md §14.5)."""

    id: str
    at: int
    actor: str
    index: str
    """The history index of its first version (`ChangeEvent.key`)."""
    deleted: int
    rewritten: int
    paths: tuple[str, ...]
    words: str
    restored: int = 0
    """How many of its files were put back since (by a restore of what it took)."""
    restored_at: int | None = None
    """When the last of them was put back (null: none was)."""
    files_before: int | None = None
    """How many files its index held just before it (`memtab.watch.guard`)."""
    mass: bool = False
    """Whether the guard flags it as a mass change (`memtab.watch.guard.is_mass`)."""
    indexes: tuple[str, ...] = ()
    """Every history index it touched, `index` first (`ChangeEvent.indexes`)."""


def memory_words(path: str) -> tuple[int, str]:
    """Whose memory a history path is in, as an event's words count it, and its place in the
    tree."""
    if is_virtual_path(path):
        try:
            scope = parse_file_path(path).scope
        except PathError:
            scope = None
        if scope is None:
            return len(SCOPE_ORDER) + len(AGENT_TITLES), "elsewhere"
        return SCOPE_ORDER.index(scope), f"in {scope.value.capitalize()}"
    try:
        agent = parse_file_id(path).agent
    except SourceError:
        return len(SCOPE_ORDER) + len(AGENT_TITLES), "elsewhere"
    titles = enumerate(AGENT_TITLES.items())
    rank, title = next(((i, t) for i, (a, t) in titles if a == agent), (len(AGENT_TITLES), agent))
    return len(SCOPE_ORDER) + rank, f"of {title}'s"


def change_events(
    home: Home, *, min_files: int = 1, since_ms: int = 0, keys: Collection[str] | None = None
) -> list[ChangeEvent]:
    """Every event with at least `min_files` files (touching `keys`, when given), newest first, with
    what was restored since; read across every index so an event's id is the same however asked."""
    histories: dict[str, list[Version]] = {}
    restores: dict[str, Version] = {}  # a restored version's id → the restore
    changes: list[tuple[str, Version]] = []
    for key in index_keys(home):
        versions = histories[key] = ScopeHistory(home, key).versions()
        for version in versions:
            if version.restored_from is not None and version.op == "restore":
                restores[version.restored_from] = version
            if _counts(version, since_ms):
                changes.append((key, version))
    earlier = {key: Earlier(versions) for key, versions in histories.items()}
    events = [
        _with_restores(event, earlier, restores)
        for event in _events_of(changes)
        if len(event.versions) >= min_files
        and (keys is None or any(key in keys for key in event.indexes))
    ]
    return sorted(events, key=lambda event: event.id, reverse=True)


def _with_restores(
    event: ChangeEvent, earlier: Mapping[str, Earlier], restores: Mapping[str, Version]
) -> ChangeEvent:
    """`event` with the restores of what it took."""
    found: list[Version] = []
    for part in event.parts:
        for taken in earlier[part.key].taken(part.versions):
            restore = restores.get(taken.held.id) if taken.held is not None else None
            if restore is not None and restore.at >= event.at:
                found.append(restore)
    return replace(event, restores=tuple(found)) if found else event


class Taken(NamedTuple):
    """One file of an event and what the event took of it."""

    path: str
    last: Version
    """Its last version in the event (a deletion, or what a rewrite left)."""
    held: Version | None
    """What it held before (None: history has nothing of it from before)."""


class Earlier:
    """The versions of one index, to tell what each file of an event held before it, by
    bisection."""

    def __init__(self, history: Sequence[Version]) -> None:
        self._history = history
        self._position: dict[str, int] = {}
        self._by_path: dict[str, list[int]] = {}

    def before(self, path: str, version_id: str) -> Version | None:
        """The newest version of `path` recorded before version `version_id`."""
        if not self._position:
            for index, version in enumerate(self._history):
                self._position[version.id] = index
                self._by_path.setdefault(version.path, []).append(index)
        positions = self._by_path.get(path, [])
        count = bisect.bisect_left(positions, self._position.get(version_id, len(self._history)))
        return self._history[positions[count - 1]] if count else None

    def taken(self, versions: Sequence[Version]) -> list[Taken]:
        """Each file an event's `versions` changed in this index, once in order, and what they
        took."""
        taken = []
        first = versions[0].id if versions else ""
        for version in {version.path: version for version in versions}.values():
            held: Version | None = version
            if not version.deleted:
                held = self.before(version.path, first)
                held = held if held is not None and not held.deleted else None
            taken.append(Taken(version.path, version, held))
        return taken


def taken_by(home: Home, event: ChangeEvent) -> list[tuple[str, Taken]]:
    """Each file `event` took, with its history index, and what it took of it."""
    return [
        (part.key, taken)
        for part in event.parts
        for taken in Earlier(ScopeHistory(home, part.key).versions()).taken(part.versions)
    ]


def _counts(version: Version, since_ms: int) -> bool:
    """Whether a version can be part of an event: another program's deletion or rewrite."""
    if version.at < since_ms or version.actor in MEMTAB_ACTORS or version.op == "move":
        return False
    return version.deleted or version.op not in ("seen", "create")


def _events_of(changes: Iterable[tuple[str, Version]]) -> list[ChangeEvent]:
    """The events of `changes`: one actor's, each within `GAP_MS` of the one before."""
    events: list[ChangeEvent] = []
    open_by_actor: dict[str, list[tuple[str, Version]]] = {}
    for key, version in sorted(changes, key=lambda change: change[1].at):
        group = open_by_actor.get(version.actor)
        if group and version.at - group[-1][1].at > GAP_MS:
            events.append(_event(group))
            group = None
        if group is None:
            group = open_by_actor[version.actor] = []
        group.append((key, version))
    events += [_event(group) for group in open_by_actor.values()]
    return events


def _event(group: Sequence[tuple[str, Version]]) -> ChangeEvent:
    keys = tuple(key for key, _version in group)
    versions = tuple(version for _key, version in group)
    across = keys if any(key != keys[0] for key in keys) else ()
    return ChangeEvent(keys[0], versions[0].actor, versions, keys=across)


def find_event(home: Home, event_id: str) -> ChangeEvent:
    """The event with this id; LookupError naming how to list them when there is none."""
    for event in change_events(home):
        if event.id == event_id:
            return event
    raise LookupError(f"No event {event_id!r} (see `memtab events`)")


class LeftPath(Record):
    """A file an event's restore left as it is, and why."""

    path: str
    why: str


class EventRestore(Record):
    """What restoring an event did: paths restored, and those left with why."""

    event_id: Annotated[str, Key("event")]
    restored: tuple[str, ...] = ()
    left: tuple[LeftPath, ...] = ()


class RestoredFile(NamedTuple):
    """A file an event's restore put back, what the event left in it, the restore's sha256."""

    path: str
    file: MemoryFile
    left: Version
    sha256: str


def restore_event(
    home: Home,
    event: ChangeEvent,
    only: Collection[str] | None = None,
    *,
    done: list[RestoredFile] | None = None,
) -> EventRestore:
    """Put back what `event` deleted or rewrote in every index (`only`: those paths); each added to
    `done`; mux's scopes' files together."""
    targets = Targets.find(home)
    outcomes: list[_Outcome] = []
    with contextlib.ExitStack() as counting:  # the uses counted in one sidecar update
        stores = _Stores(counting)
        batches: dict[str, _ScopeBatch] = {}
        for key, taken in taken_by(home, event):
            if only is not None and taken.path not in only:
                continue
            outcome = _Outcome(taken)
            outcomes.append(outcome)
            try:
                _restore_one(targets, key, outcome, stores, batches)
            except (MemoryStoreError, SourceError, OSError) as error:
                outcome.why = str(error)
        for batch in batches.values():
            batch.restore()
    restored: list[str] = []
    left: list[LeftPath] = []
    for outcome in outcomes:
        taken, file = outcome.taken, outcome.file
        if outcome.why is None and file is not None:
            restored.append(taken.path)
            if done is not None and taken.held is not None:
                done.append(RestoredFile(taken.path, file, taken.last, taken.held.sha256))
        else:
            left.append(LeftPath(path=taken.path, why=outcome.why or "it was not put back"))
    return EventRestore(event_id=event.id, restored=tuple(restored), left=tuple(left))


@dataclass
class _Outcome:
    """A restore of one file: put back (`file`) or left (`why`); neither while it waits."""

    taken: Taken
    why: str | None = None
    file: MemoryFile | None = None


class _Stores:
    """The user's store of each scope a restore writes, its uses counted in one update at the
    end."""

    def __init__(self, counting: contextlib.ExitStack) -> None:
        self._counting = counting
        self._stores: dict[int, MemoryStore] = {}

    def of(self, store: MemoryStore) -> MemoryStore:
        users = self._stores.get(id(store))
        if users is None:
            users = self._stores[id(store)] = _users_store(store)
            self._counting.enter_context(users.writes_counted_once())
        return users


@dataclass
class _ScopeBatch:
    """An event's files in one of mux's scopes, put back together by
    `bulk_restore.restore_contents`, each only where the event left it (checked under the scope
    lock)."""

    store: MemoryStore
    scope: Scope
    outcomes: list[_Outcome] = field(default_factory=list)
    items: list[Restore] = field(default_factory=list)

    def add(self, outcome: _Outcome, at: VirtualPath, data: bytes) -> None:
        last, held = outcome.taken.last, outcome.taken.held
        assert held is not None
        self.outcomes.append(outcome)
        expected = None if last.deleted else last.sha256
        meta = held.meta if held.deleted else None
        self.items.append(Restore(at, data, expected, restored_from=held.id, meta=meta))

    def restore(self) -> None:
        try:
            result = restore_contents(self.store, self.scope, self.items)
        except MemoryStoreError as error:  # the scope cannot be written at all
            for outcome in self.outcomes:
                outcome.why = str(error)
            return
        written, changed = set(result.written), set(result.changed)
        for outcome, item in zip(self.outcomes, self.items, strict=True):
            if item.path in written:
                outcome.file = MuxFile(self.store, item.path)
                if not item.meta:  # else its uses came back with it
                    self.store.record_write(item.path, created=item.expected_sha256 is None)
            elif item.path in changed:
                deleted = outcome.taken.last.deleted
                outcome.why = "a file is there again" if deleted else "it changed again since"
            else:
                outcome.why = result.failed.get(item.path, "it was not put back")


def _restore_one(
    targets: Targets, key: str, outcome: _Outcome, stores: _Stores, batches: dict[str, _ScopeBatch]
) -> None:
    """Restore one file of an event, or add it to its scope's batch."""
    path, version, target = outcome.taken
    if target is None:
        outcome.why = "history has nothing of it from before the event"
        return
    if key.startswith(INDEX_PREFIX):
        outcome.why, outcome.file = _restore_source_file(targets, path, version, target)
        return
    found = targets.scopes.get(key)
    if found is None:
        outcome.why = "its workspace is no longer in the registry"
        return
    at = parse_file_path(path)
    batch = batches.get(key)
    if batch is None:
        batch = batches[key] = _ScopeBatch(stores.of(found.store), found.scope)
    batch.add(outcome, at, content_of(targets.home, target))


def _users_store(store: MemoryStore) -> MemoryStore:
    """The same scopes through a store whose changes are the user's (a restore)."""
    if isinstance(store, OrphanProjectStore):
        return OrphanProjectStore(store.home, store.dir_name, identity=store.identity)
    return MemoryStore(store.home, store.workspace)


def _restore_source_file(
    targets: Targets, file_id: str, version: Version, target: Version
) -> tuple[str | None, MemoryFile | None]:
    ref = parse_file_id(file_id)
    source = targets.sources.get(ref.source_id)
    if source is None:
        return f"{ref.source_id} is not found any more", None
    now = source_file(source, ref.path)
    if version.deleted and now is not None:
        return "a file is there again", None
    if not version.deleted:
        shown = read_source_file(source, now).text if now is not None else None
        if shown is None or sha256_of(encode_utf8(shown)) != version.sha256:
            return "it changed again since", None
    history = SourceVersions(targets.home)
    restore_version(history, source, file_id, target.id)
    return None, AgentFile(source, target_file(source, ref.path), history)
