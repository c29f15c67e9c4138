"""What the catalog lists before it answers, from a stat walk alone (docs/formats.md §22.11): every
file a search may find with its stamp, a first search by names and inodes, and what the watch
reports re-stat'ed (everything relisted for a folder, too many files or an overflow)."""

from __future__ import annotations

import logging
import math
import os
import stat
import threading
import time
import weakref
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from pathlib import Path
from typing import NamedTuple

from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers.api import BaseObserver

from memtab.fs import memo
from memtab.fs.memo import Stamp
from memtab.search_index.documents import IndexedFile, trusted_stamp
from memtab.search_index.index import Rows, SearchIndex
from memtab.sources.codex.imports import link_imports
from memtab.sources.config import SourceContext
from memtab.sources.discovery import discover, is_shown
from memtab.sources.layouts import watch_targets
from memtab.sources.listing import list_source, source_file_row
from memtab.sources.model import Source
from memtab.store.files import (
    MAX_FILE_BYTES,
    name_scope,
    note_too_deep,
    stat_listed_file,
    stat_names,
)
from memtab.store.paths import SCOPE_ORDER, Scope, VirtualPath, too_deep_words
from memtab.store.scopes.file_rows import FileRow
from memtab.store.scopes.memory import MemoryStore


class Listed(NamedTuple):
    """A file a search may find: its root, scope, path, whether `view` may read it, its stamp (None:
    read every time), whether read through a link, its row (sources'), its walked stat. A tuple:
    made by the thousand."""

    root: str
    scope: str
    physical: str
    readable: bool
    stamp: Stamp | None
    linked: bool = False
    row: FileRow | None = None
    info: os.stat_result | None = None

    def indexed(self, key: str) -> IndexedFile:
        """The file as the index takes it, labelled by path and description."""
        physical = self.physical if self.readable else None
        if self.row is not None:
            label = f"{key}\n{self.row.description or ''}"
            return IndexedFile(self.root, key, label, physical, self.stamp, self.linked)
        return IndexedFile(self.root, key, key, physical, self.stamp, described=self.physical)


class ListedFiles(Mapping[str, Listed]):
    """Every file listed by key (the store's first, in `SCOPE_ORDER`): the store's kept as their
    stat alone (None: presumed), each `Listed` made when asked."""

    __slots__ = ("_infos", "_listed", "_scopes", "_stamps")

    def __init__(
        self,
        infos: dict[str, os.stat_result | None],
        scopes: tuple[tuple[str, str, str, str], ...] = (),
        stamps: Mapping[str, dict[str, Stamp | None]] | None = None,
        listed: dict[str, Listed] | None = None,
    ) -> None:
        """`infos`: the store's files' stat by key; `scopes`: each scope's key prefix, root, name
        and join path; `stamps`: each root's stamps; `listed`: files as listed."""
        self._infos = infos
        self._scopes = scopes
        self._stamps = stamps or {}
        self._listed = listed or {}

    def __getitem__(self, key: str) -> Listed:
        listed = self._listed.get(key)
        if listed is not None:
            return listed
        root, scope, physical, stamp, readable = self._where(key)
        return Listed(root, scope, physical, readable, stamp, info=self._infos[key])

    def __contains__(self, key: object) -> bool:
        return key in self._listed or key in self._infos

    def __iter__(self) -> Iterator[str]:
        yield from (key for key in self._infos if key not in self._listed)
        yield from self._listed

    def __len__(self) -> int:
        return len(self._infos) + sum(key not in self._infos for key in self._listed)

    @property
    def presumed(self) -> bool:
        """Whether a file is presumed as the index holds it, never stat'ed."""
        return None in self._infos.values()

    def indexed(self, key: str) -> IndexedFile:
        """The file `key` as the index takes it, no `Listed` made for a store file."""
        if key in self._listed:
            return self._listed[key].indexed(key)
        root, _, physical, stamp, readable = self._where(key)
        text = physical if readable else None
        return IndexedFile(root, key, key, text, stamp, described=physical)

    def changed(self, listed: Mapping[str, Listed], gone: Collection[str]) -> ListedFiles:
        """These files with `listed` as re-stat'ed now and `gone` no longer listed."""
        infos = self._infos
        if gone:
            infos = {key: info for key, info in infos.items() if key not in gone}
        kept = {key: file for key, file in self._listed.items() if key not in gone}
        return ListedFiles(infos, self._scopes, self._stamps, kept | dict(listed))

    def differing(self, now: Listing) -> list[str]:
        """Where the store's files `now` finds changed, new, gone or racy are, each root compared as
        one mapping of stamps."""
        paths: list[str] = []
        overridden = {listed.root for listed in self._listed.values()}
        for root, theirs in now.stamps.items():
            unchanged = root not in overridden and self._stamps.get(root) == theirs
            if unchanged and None not in theirs.values():
                continue
            for key, stamp in theirs.items():
                seen = self.get(key)
                if stamp is None or seen is None or seen.stamp != stamp:
                    paths.append(now.files[key].physical)
            paths += [self[key].physical for key in self._stamps.get(root, {})
                      if key not in theirs and key in self]  # fmt: skip
        return paths

    def presumes(self, key: str) -> bool:
        """Whether the file `key` is presumed as the index holds it (never stat'ed)."""
        return key not in self._listed and key in self._infos and self._infos[key] is None

    def confirm(self, keys: Iterable[str]) -> tuple[list[str], list[tuple[str, str]]]:
        """Stat the presumed files among `keys`: the keys whose stamp is not the one presumed, and
        the roots and keys of those gone."""
        racy_after_ns = time.time_ns() - memo.RACY_MARGIN_NS
        changed: list[str] = []
        gone: list[tuple[str, str]] = []
        for key in keys:
            if self.presumes(key):
                root, _, physical, presumed, _ = self._where(key)
                try:
                    info = os.lstat(physical)
                except OSError:
                    info = None
                if info is None or not stat.S_ISREG(info.st_mode):
                    del self._infos[key]
                    self._stamps[root].pop(key, None)
                    gone.append((root, key))
                    continue
                self._infos[key] = info
                stamp = self._stamps[root][key] = trusted_stamp(info, racy_after_ns)
                if stamp is None or stamp != presumed:
                    changed.append(key)
        return changed, gone

    def _where(self, key: str) -> tuple[str, str, str, Stamp | None, bool]:
        """A store file's root, scope, path, stamp, and whether `view` may read it."""
        for prefix, root, scope, base in self._scopes:
            if key.startswith(prefix):
                info, stamp = self._infos[key], self._stamps[root].get(key)
                size = info.st_size if info is not None else stamp[0] if stamp is not None else 0
                return root, scope, base + key[len(prefix) :], stamp, size <= MAX_FILE_BYTES
        raise KeyError(key)


class Listing(NamedTuple):
    """Every file listed, what the walk left out, every root listed, each root's stamps by key."""

    files: ListedFiles
    notes: tuple[str, ...]
    roots: tuple[str, ...]
    stamps: dict[str, dict[str, Stamp | None]]


def missing_home_words(root: Path) -> str | None:
    """Why a session of a home that is no folder lists nothing (docs/formats.md §22.1), said in
    every answer; None: a folder."""
    if root.is_dir():
        return None
    what = "is not a folder" if os.path.lexists(root) else "does not exist"
    return (
        f"The memory home {root} {what}, so nothing is listed or found in it: tell the user, "
        "whose agent settings may name it by mistake (a typo in `--home`, a home moved or "
        "deleted since). `memtab doctor` names the settings that start Memtab on it; "
        "`memtab mcp install` makes the home it registers."
    )


def kept_sources(
    sources: Callable[[], SourceContext] | None, keep: Callable[[Source], bool] | None
) -> list[Source]:
    """The other agents' sources found that the session reads (its project's)."""
    if sources is None:
        return []
    return [source for source in discover(sources()).sources if keep is None or keep(source)]


def list_files(store: MemoryStore, kept: list[Source]) -> Listing:
    """Stat every file of the available scopes and list the `kept` sources."""
    return list_presumed(store, kept, lambda _roots: None)


def list_presumed(
    store: MemoryStore,
    kept: list[Source],
    held_for: Callable[[tuple[str, ...]], Mapping[str, Rows] | None],
) -> Listing:
    """Every file of the available scopes walked by names and the `kept` sources, each one the index
    holds under the same name and inode presumed as it is (the caller confirms those it answers
    with), the rest stat'ed."""
    racy_after_ns = time.time_ns() - memo.RACY_MARGIN_NS
    walks = [
        (root, scope, scope.virtual_root + "/", name_scope(root))
        for scope, root in scope_roots(store).items()
    ]
    stamps: dict[str, dict[str, Stamp | None]] = {root: {} for root, *_ in walks}
    listed = _list_sources(kept, stamps)
    roots = tuple(stamps)  # the scopes', then the sources'
    held = held_for(roots) or {}
    infos: dict[str, os.stat_result | None] = {}
    notes: list[str] = []
    for root, scope, prefix, walk in walks:
        rows, stamped = held.get(root, {}), stamps[root]
        for folder in walk.folders:
            inside = prefix + "".join(f"{name}/" for name in folder.segments)
            unknown = []
            for name, inode in zip(folder.files, folder.inodes, strict=True):
                key = inside + name  # the hot loop: 20,000 files, no call
                row = rows.get(key)
                if row is not None and row[3] == inode:
                    stamped[key] = row
                else:
                    unknown.append(name)
            if unknown:
                for key, info in stat_names(folder.path, unknown, inside).items():
                    infos[key], stamped[key] = info, trusted_stamp(info, racy_after_ns)
        infos.update((key, None) for key in stamped if key not in infos)
        too_deep = note_too_deep(scope, root, walk.too_deep)
        notes += [f"Not listed or searched: {too_deep_words(path)}" for path in too_deep]
    scopes = tuple((prefix, root, scope.value, root + os.sep) for root, scope, prefix, _ in walks)
    return Listing(ListedFiles(infos, scopes, stamps, listed), tuple(notes), roots, stamps)


def confirm_answer(files: ListedFiles, index: SearchIndex, keys: list[str]) -> bool:
    """Stat the presumed files among an answer's `keys` and reindex those changed or gone; whether
    any was."""
    changed, gone = files.confirm(keys)
    if gone or changed:
        index.update([files.indexed(key) for key in changed], gone)
    return bool(gone or changed)


def _list_sources(
    kept: list[Source], stamps: dict[str, dict[str, Stamp | None]]
) -> dict[str, Listed]:
    """The `kept` sources' files listed whole, their stamps under each source's id."""
    listed: dict[str, Listed] = {}
    listings = [shown for s in kept if is_shown(shown := list_source(s))]
    links = link_imports(listings)  # Codex's copies of Claude Code memory, both ways
    for listing in listings:
        stamped = stamps.setdefault(listing.source.id, {})
        for source_file in listing.files:
            # Sources are stamped by their listing's size and time alone.
            stamp = (source_file.size_bytes, source_file.modified_at_ms, 0, 0)
            stamped[source_file.id] = stamp
            listed[source_file.id] = Listed(
                source_file.source_id,
                source_file.source_id,
                os.fspath(source_file.physical),
                source_file.size_bytes <= MAX_FILE_BYTES,
                stamp,
                source_file.linked,
                source_file_row(source_file, links),
            )
    return listed


# How often a call stats the other agents' files (`SourceProbe`, a stat each: a few ms for
# a thousand): a change of theirs is answered within this, a burst of calls pays it once.
PROBE_EVERY_S = 1.0
FolderStamp = tuple[int, int, int]
"""A folder as a probe saw it: its device, inode and mtime (a file made, removed or renamed
in it changes that)."""


class SourceProbe:
    """What a call stats to tell whether the other agents' sources changed since they were listed —
    they are not watched (their folders are the agents' own, busy with transcripts): each listed
    file's size and mtime as its listing stamped it, and each folder a file of theirs may be made or
    removed in (those their layouts name, and those holding their files up to the source's root: a
    folder made below one changes it), as stat'ed before the listing (docs/formats.md §22.3)."""

    __slots__ = ("_files", "_folders", "_looked_at")

    def __init__(
        self, files: dict[str, tuple[int, int]], folders: dict[str, FolderStamp | None]
    ) -> None:
        self._files = files
        self._folders = folders
        self._looked_at = -math.inf

    @staticmethod
    def folders_before(
        kept: Iterable[Source], last: SourceProbe | None
    ) -> dict[str, FolderStamp | None]:
        """The folders to look at, stat'ed before a listing of `kept`: each source's
        layout's (`watch_targets`) and those that held its files at the `last` listing."""
        paths = [str(folder) for source in kept for folder, _ in watch_targets(source)]
        paths += last._folders if last is not None else ()
        return {path: folder_stamp(path) for path in paths}

    @classmethod
    def after(
        cls, listing: Listing, kept: Iterable[Source], folders: dict[str, FolderStamp | None]
    ) -> SourceProbe:
        """The probe of `kept` as `listing` listed them, `folders` as stat'ed before it (a
        folder holding a file first listed now, stat'ed now)."""
        files: dict[str, tuple[int, int]] = {}
        folders = dict(folders)
        for source in kept:
            root = str(source.root)
            for key, stamp in listing.stamps.get(source.id, {}).items():
                physical = listing.files[key].physical
                if stamp is not None:
                    files[physical] = (stamp[0], stamp[1])
                parent = os.path.dirname(physical)
                while parent not in folders and parent.startswith(root):
                    folders[parent] = folder_stamp(parent)
                    parent = os.path.dirname(parent)
        return cls(files, folders)

    def changed(self, now: float) -> bool:
        """Whether a folder or a file looked at is not as it was (a stat each), looked at
        once in `PROBE_EVERY_S` (`now`: the caller's clock): False in between."""
        if now - self._looked_at < PROBE_EVERY_S:
            return False
        self._looked_at = now
        return self._stats_changed()

    def _stats_changed(self) -> bool:
        if any(folder_stamp(path) != seen for path, seen in self._folders.items()):
            return True
        for path, (size, mtime_ms) in self._files.items():
            try:
                info = os.stat(path)
            except OSError:
                return True
            if info.st_size != size or info.st_mtime_ns // 1_000_000 != mtime_ms:
                return True
        return False


def folder_stamp(path: str) -> FolderStamp | None:
    """The folder at `path` as a probe sees it (None: no folder is there)."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return (info.st_dev, info.st_ino, info.st_mtime_ns) if stat.S_ISDIR(info.st_mode) else None


def scope_roots(store: MemoryStore) -> dict[Scope, str]:
    """The store's available scopes and their roots' paths, in `SCOPE_ORDER`."""
    return {
        scope: os.fspath(store.root(scope))
        for scope in SCOPE_ORDER
        if not store.unavailable_reason(scope)
    }


Folder = tuple[int, int]
"""A folder as a watch knows it: its device and inode."""


def folder_identity(path: str) -> Folder | None:
    """Which folder is at `path` now (None: none)."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return (info.st_dev, info.st_ino) if stat.S_ISDIR(info.st_mode) else None


def watch_lost(watched: Mapping[str, Folder | None] | None, observer: BaseObserver | None) -> bool:
    """Whether a watch of `watched` no longer sees its roots: one went, or came or was made anew."""
    if watched is None:
        return False
    if observer is not None and not all(each.is_alive() for each in list(observer.emitters)):
        return True
    return any(folder_identity(root) != seen for root, seen in watched.items())


def stop_observer(observer: BaseObserver) -> None:
    observer.stop()
    observer.join(timeout=2)


def folder_came_or_went(files: Mapping[str, Listed], path: VirtualPath) -> bool:
    """Whether a write at `path` made or removed a folder."""
    inside, beside = f"{path}/", f"{path.parent}/"
    near = len(path.segments) == 1
    for key in files:
        if key.startswith(inside):
            return True
        near = near or key.startswith(beside)
    return not near


def in_scope(value: str, scope: str | None) -> bool:
    """A file is in `scope` when its scope or agent is it."""
    return scope is None or value == scope or value.split(":", 1)[0] == scope


class NeedsListingError(Exception):
    """What a watch reported needs a listing of everything (a folder came, went or moved)."""


def restat(roots: dict[Scope, str], paths: Iterable[str]) -> tuple[dict[str, Listed], set[str]]:
    """The store files at `paths` as they are now, and the keys no longer listed; NeedsListingError
    for a folder or root."""
    racy_after_ns = time.time_ns() - memo.RACY_MARGIN_NS
    listed: dict[str, Listed] = {}
    gone: set[str] = set()
    for path in paths:
        for scope, root in roots.items():
            if path == root:
                raise NeedsListingError(path)
            if not path.startswith(root + os.sep):
                continue
            segments = tuple(path[len(root) + 1 :].split(os.sep))
            key = f"{scope.virtual_root}/{'/'.join(segments)}"
            try:
                info = stat_listed_file(root, segments)
            except IsADirectoryError:
                raise NeedsListingError(path) from None
            if info is None:
                gone.add(key)
                listed.pop(key, None)
            else:
                stamp = trusted_stamp(info, racy_after_ns)
                readable = info.st_size <= MAX_FILE_BYTES
                listed[key] = Listed(root, scope.value, path, readable, stamp, info=info)
                gone.discard(key)
            break
    return listed, gone


# Past this many files in one report, relisting costs less.
MAX_REPORTED_FILES = 1000
# watchdog tells an overflow only in its log, at WARNING.
_OVERFLOW_LOGGER = "watchdog.observers.inotify_c"
_OVERFLOW_WORDS = "Inotify queue overflowed"


class WatchedChanges(FileSystemEventHandler):
    """Observer thread: a file's change adds its path, a folder's or an overflow asks for
    everything; watches changes alone (`watch.observers.CHANGE_EVENTS`). `reported` is set while
    anything waits."""

    def __init__(self) -> None:
        super().__init__()
        self.reported = threading.Event()
        self._lock = threading.Lock()
        self._paths: set[str] = set()
        self._everything = False
        _LISTENING.add(self)

    def on_any_event(self, event: FileSystemEvent) -> None:
        if event.is_directory:
            self.everything()
            return
        self.report([os.fsdecode(path) for path in (event.src_path, event.dest_path) if path])

    def report(self, paths: list[str]) -> None:
        """Report files changed as the watch would (none: nothing reported)."""
        if not paths:
            return
        with self._lock:
            self._paths.update(paths)
            if len(self._paths) > MAX_REPORTED_FILES:
                self._everything = True
            self.reported.set()

    def everything(self) -> None:
        """Have the next call list everything again."""
        with self._lock:
            self._everything = True
            self.reported.set()

    def take(self) -> tuple[set[str], bool]:
        """The paths reported since the last take, and whether everything must be listed again."""
        with self._lock:
            paths, everything = self._paths, self._everything
            self._paths, self._everything = set(), False
            self.reported.clear()
        return paths, everything


_LISTENING: weakref.WeakSet[WatchedChanges] = weakref.WeakSet()


def _overflowed(record: logging.LogRecord) -> bool:
    """A filter of watchdog's log telling every watch that events were lost."""
    if record.getMessage().startswith(_OVERFLOW_WORDS):
        for changes in list(_LISTENING):
            changes.everything()
    return True


logging.getLogger(_OVERFLOW_LOGGER).addFilter(_overflowed)
