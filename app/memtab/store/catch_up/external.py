"""Changes Memtab did not make (mux, an editor, `echo >>`), recorded as `external`.

`record_external(store)` compares each file of the store's scopes with its newest recorded
version by size and mtime only, reads and hashes just the files whose stat differs, and
records a version for each whose content differs (a file seen for the first time gets a
baseline version). A file history has as existing but that is gone is recorded as
deleted — its content stays in history, so a file mux deletes can be restored — unless a
file new to history holds what it held: then it was renamed, and is recorded as moved
there, its pins and usage with it (`renames`). What a
pass read is recorded only if history has recorded nothing for that file since the pass
read it (a Memtab save in between: what it read may be older than the save), else the
next pass looks again.

On an unchanged home this is one `lstat` per file and no reads. A file whose stat
changed but whose content did not (touched, or moved by Memtab as part of a directory)
is remembered in `index/<scope>.stat.json`, so it is hashed once, not at every pass.

The first recording pass of a big home reads every file. It copies the changed contents into
history first, `RECORD_BATCH` files at a time, all made durable together when the scope's
files are read (`BlobStore.batch`: one flush of the file system, or a few fsynced packs),
then records their versions in batches of `INDEX_BATCH`, each under the scope lock for
that batch only (so Memtab's own saves wait at most one batch: milliseconds). It stops
between batches when `cancel()` says so (a window closing); the next pass goes on where
it stopped, and finds the contents it copied already there.

A file another program named so that no virtual path reaches it (a line break, a
backslash, bytes that are not UTF-8 in its name) is kept too, under its shown name
(`paths.shown_name`: escapes where the name is not text; no virtual path parses to it),
so its content is in history though Memtab cannot open it (docs/formats.md §4.2).

History keeps no copy of a file over 16 MB or with other hard links (one may be a file
outside the home). Such files are named in one notice (`ExternalReport.not_kept_notice`) the
first time a pass meets them, and remembered by stat in the same file, so they are not
read or named again until they change.

It reads the disk: run it off the GUI thread (after each scan), and before the CLI lists
history, trash or runs. A read command passes `wait=False`: reads never wait on a
writer, so a scope whose lock another process holds is left for the next pass.
"""

from __future__ import annotations

import logging
import os
import stat
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from memtab.fs.atomic import atomic_write_json
from memtab.fs.clock import now_ms
from memtab.fs.private import PRIVATE_FILE_MODE
from memtab.fs.readable import HardLinkedFileError
from memtab.fs.records import Record, ValidEntries
from memtab.fs.records import field as records_field
from memtab.fs.sidecar import read_sidecar
from memtab.store.catch_up.recording import unrecorded_reason
from memtab.store.catch_up.renames import Rename, pair_renames
from memtab.store.errors import MemoryStoreError, NotFoundError, ScopeBusyError
from memtab.store.files import note_too_deep
from memtab.store.history.blobs import sha256_of
from memtab.store.history.capture import (
    MAX_HISTORY_FILE_BYTES,
    MB,
    TooLargeForHistoryError,
    read_whole,
)
from memtab.store.history.recorder import FileChange, HistoryRecorder, Observation, ReadAgainst
from memtab.store.history.versions import ScopeHistory, Version
from memtab.store.paths import (
    MAX_PATH_DEPTH,
    SCOPE_ORDER,
    PathError,
    Scope,
    VirtualPath,
    is_addressable_name,
    parse_file_path,
    shown_name,
)
from memtab.store.scope_walk import holds_entries, is_hidden_name
from memtab.store.scopes.memory import MemoryStore
from memtab.store.scopes.scope_store import READ_LOCK_WAIT_S, SCOPE_LOCK_TIMEOUT_S
from memtab.store.scopes.scope_view import kind_in, open_scope_directory

logger = logging.getLogger(__name__)

Stat = tuple[int, int]
RECORD_BATCH = 200
"""Files read and copied into history between two looks at `cancel`."""
INDEX_BATCH = 1000
"""Versions recorded per hold of the scope lock (their contents are stored already)."""
NOTICE_NAMES = 3  # files named in the not-kept notice; the rest are counted


@dataclass
class ExternalReport:
    """What one recording pass found."""

    scanned: int = 0
    hashed: int = 0
    recorded: int = 0
    deleted: int = 0
    moved: int = 0
    """Files another program renamed (recorded as moves: `renames`)."""
    problems: list[str] = field(default_factory=list)
    not_kept: list[tuple[str, str]] = field(default_factory=list)  # (path, why), new ones
    cancelled: bool = False
    unrecorded: str | None = None
    """Why history could not be written, when it could not (a full disk: `recording`)."""

    @property
    def changed(self) -> bool:
        return bool(self.recorded or self.deleted or self.moved)

    def warnings(self) -> list[str]:
        """What to tell the user, a line each: the problems, then the not-kept notice."""
        notice = self.not_kept_notice()
        return [*self.problems, *([notice] if notice else [])]

    def not_kept_notice(self) -> str | None:
        """One line naming the files history newly found it cannot keep, or None."""
        if not self.not_kept:
            return None
        named = [f"{path} ({why})" for path, why in sorted(self.not_kept)[:NOTICE_NAMES]]
        more = len(self.not_kept) - len(named)
        listed = ", ".join(named) + (f" and {more} more" if more else "")
        them = "it" if len(self.not_kept) == 1 else "them"
        return (
            f"history keeps no copy of {listed}: it cannot restore earlier contents of "
            f"{them}; the files themselves are left as they are"
        )


ActorOf = Callable[[Scope, Sequence[str]], str]
"""Who changed these paths of a scope, as far as can be told (`external` when not)."""


def record_external(
    store: MemoryStore,
    cancel: Callable[[], bool] | None = None,
    *,
    wait: bool = True,
    scopes: Sequence[Scope] = SCOPE_ORDER,
    actor_of: ActorOf | None = None,
    walked: dict[str, os.stat_result] | None = None,
) -> ExternalReport:
    """Record every change to the store's `scopes` that history has not seen (see the
    module doc). Never raises for one file or scope: problems are listed and logged.
    `cancel` is asked between batches; once it says yes, the report is `cancelled`.
    Without `wait`, a scope whose lock is busy (another process is changing it) is left
    for the next pass, quietly, after READ_LOCK_WAIT_S: what a read command passes.
    `actor_of` names who made the changes found (the recorder asks the agents' own
    records); without it they are `external`. `walked`, when given, gets the `lstat` of
    every regular file the pass walked, by its virtual path (a caller that lists the scope
    next need not stat them again: sync's `read_scope`)."""
    report = ExternalReport()
    stop = cancel or (lambda: False)
    recorder = HistoryRecorder(
        store.home,
        actor="external",
        run_id=None,
        workspace_id=store.workspace.id if store.workspace else None,
        clock=now_ms,
    )
    for scope in scopes:
        if store.unavailable_reason(scope):
            continue
        if stop():
            report.cancelled = True
            break
        lock_wait_s = SCOPE_LOCK_TIMEOUT_S if wait else READ_LOCK_WAIT_S
        try:
            _record_scope(store, recorder, scope, report, stop, lock_wait_s, actor_of, walked)
        except ScopeBusyError as busy:
            if wait:
                problem = f"cannot record external changes of the {scope.value} scope: {busy}"
                logger.warning("%s", problem)
                report.problems.append(problem)
            else:
                logger.debug("The %s scope is busy; the next pass records it", scope.value)
        except (OSError, TimeoutError, MemoryStoreError) as error:
            problem = f"cannot record external changes of the {scope.value} scope: {error}"
            logger.warning("%s", problem)
            report.problems.append(problem)
            report.unrecorded = report.unrecorded or unrecorded_reason(error, store.home)
    return report


def _record_scope(
    store: MemoryStore,
    recorder: HistoryRecorder,
    scope: Scope,
    report: ExternalReport,
    stop: Callable[[], bool],
    lock_wait_s: float,
    actor_of: ActorOf | None,
    stats: dict[str, os.stat_result] | None = None,
) -> None:
    walked, complete, raw = _stat_walk(scope, store.root(scope), stats)
    report.scanned += len(walked)
    key = store.history_key(scope)
    newest = ScopeHistory(store.home, key).newest_by_path()
    cache_path = store.home.history_index_dir / f"{key}.stat.json"
    cache, not_kept = _load_stat_cache(cache_path)
    candidates = [
        p
        for p, found in walked.items()
        if not _unchanged(newest.get(p), found, cache) and not_kept.get(p) != found
    ]
    gone = (
        [p for p, v in newest.items() if not v.deleted and p not in walked and _walked_to(p)]
        if complete
        else []
    )
    kept_cache = {p: entry for p, entry in cache.items() if p in walked}
    still_not_kept = {p: found for p, found in not_kept.items() if walked.get(p) == found}
    if not candidates and not gone:
        _save_stat_cache(cache_path, (cache, not_kept), (kept_cache, still_not_kept))
        return
    not_kept_before = len(report.not_kept)
    observed: list[Observation] = []
    arrived: list[Observation] = []  # new files a gone one's content: maybe it, renamed
    gone_contents = {newest[p].sha256 for p in gone}
    with recorder.blobs.batch() as blobs:  # durable once the block ends: index them after
        for start in range(0, len(candidates), RECORD_BATCH):
            if start and stop():
                report.cancelled = True
                break
            chunk = candidates[start : start + RECORD_BATCH]
            for observation in _read_changed(
                store.root(scope), scope, chunk, raw, newest, walked, kept_cache, report
            ):
                assert observation.data is not None
                blobs.put(observation.data, observation.sha256)
                current = newest.get(observation.path)
                if observation.sha256 in gone_contents and (current is None or current.deleted):
                    arrived.append(observation)  # its content kept in hand for the move
                else:
                    observed.append(observation.stored())
    if not report.cancelled:  # cancelled, the next pass pairs them
        renames, arrived, gone = pair_renames(arrived, gone, newest)
        _record_renames(store, recorder, scope, key, renames, report, lock_wait_s, actor_of)
        observed += [observation.stored() for observation in arrived]
    if gone and not report.cancelled:
        meta = store.meta_snapshot()
        observed += [
            Observation(
                p, None, meta=meta.get(_meta_key(store, p)), read_against=ReadAgainst(newest[p].id)
            )
            for p in gone
        ]
    for start in range(0, len(observed), INDEX_BATCH):
        if start and stop():
            report.cancelled = True
            break
        batch = observed[start : start + INDEX_BATCH]
        _record(store, recorder, scope, key, batch, report, lock_wait_s, actor_of)
    for path_text, _ in report.not_kept[not_kept_before:]:
        still_not_kept[path_text] = walked[path_text]
    _save_stat_cache(cache_path, (cache, not_kept), (kept_cache, still_not_kept))


def _read_changed(
    root: Path,
    scope: Scope,
    paths: list[str],
    raw: dict[str, tuple[str, ...]],
    newest: dict[str, Version],
    walked: dict[str, Stat],
    kept_cache: dict[str, tuple[int, int, str]],
    report: ExternalReport,
) -> list[Observation]:
    """What files (of the scope rooted at `root`) whose stat changed hold now, where it
    differs from their newest version (the others are remembered in the stat cache)."""
    seen: list[Observation] = []
    for path_text, data in _read_files(root, scope, paths, raw, report):
        report.hashed += 1
        digest = sha256_of(data)
        current = newest.get(path_text)
        if current is not None and not current.deleted and current.sha256 == digest:
            kept_cache[path_text] = (*walked[path_text], digest)
            continue
        against = ReadAgainst(current.id if current is not None else None)
        seen.append(
            Observation(path_text, data, walked[path_text], sha256=digest, read_against=against)
        )
    return seen


def _read_files(
    root: Path,
    scope: Scope,
    paths: list[str],
    raw: dict[str, tuple[str, ...]],
    report: ExternalReport,
) -> Iterator[tuple[str, bytes]]:
    """(path, whole content) of each file, read through its parent directory opened once
    per directory (never through a symlink, as the store reads). `raw`: the names on disk
    of paths recorded by their shown name. A file gone since the walk is skipped (the
    next pass sees it); one history does not keep is in `report.not_kept`, one that
    cannot be read a problem."""
    by_parent: dict[VirtualPath, list[tuple[str, VirtualPath]]] = {}
    for path_text in paths:
        segments = raw.get(path_text)
        path = parse_file_path(path_text) if segments is None else VirtualPath(scope, segments)
        by_parent.setdefault(path.parent, []).append((path_text, path))
    for parent, files in by_parent.items():
        try:
            directory = open_scope_directory(root, parent, target=files[0][1], create=False)
        except NotFoundError:
            continue
        except (MemoryStoreError, PathError) as error:
            report.problems += [f"{text}: {error}" for text, _ in files]
            continue
        with directory:
            for path_text, path in files:
                try:
                    data = (
                        read_whole(directory, path.name)
                        if kind_in(directory, path.name) == "file"
                        else None
                    )
                except TooLargeForHistoryError:
                    report.not_kept.append((path_text, f"over {MAX_HISTORY_FILE_BYTES // MB} MB"))
                    continue
                except HardLinkedFileError:
                    report.not_kept.append((path_text, "it has other hard links"))
                    continue
                except OSError as error:
                    report.problems.append(
                        f"{path_text}: cannot read it: {error.strerror or error}"
                    )
                    continue
                if data is not None:
                    yield path_text, data


def _record(
    store: MemoryStore,
    recorder: HistoryRecorder,
    scope: Scope,
    key: str,
    seen: list[Observation],
    report: ExternalReport,
    lock_wait_s: float,
    actor_of: ActorOf | None,
) -> None:
    if not seen:
        return
    actor = actor_of(scope, [o.path for o in seen]) if actor_of is not None else "external"
    # Under the scope lock: a Memtab change is recorded by its own process first.
    with store.writing(scope, timeout_s=lock_wait_s, changes_home=False):
        still = [o for o in seen if not o.gone or _missing(store, o.path)]
        added = recorder.observe(key, still, actor=actor)
    report.recorded += sum(1 for version in added if not version.deleted)
    report.deleted += sum(1 for version in added if version.deleted)


def _record_renames(
    store: MemoryStore,
    recorder: HistoryRecorder,
    scope: Scope,
    key: str,
    renames: list[Rename],
    report: ExternalReport,
    lock_wait_s: float,
    actor_of: ActorOf | None,
) -> None:
    """Record each rename as a move (`renames`), the old path's pins and usage carried to
    the new one — where, under the scope lock, the old path is still gone and history has
    recorded neither path since the pass read them (else the next pass looks again)."""
    if not renames:
        return
    paths = [path for rename in renames for path in (rename.old, rename.new.path)]
    actor = actor_of(scope, paths) if actor_of is not None else "external"
    meta = store.meta_snapshot()
    with store.writing(scope, timeout_s=lock_wait_s, changes_home=False):
        newest = ScopeHistory(store.home, key).newest_by_path()
        still = [r for r in renames if _missing(store, r.old) and _as_read(newest, r)]
        changes: list[FileChange] = []
        for rename in still:
            new, data = rename.new, rename.new.data
            old_meta = meta.get(_meta_key(store, rename.old))
            changes.append(
                FileChange(rename.old, data, None, "move", moved_to=new.path, meta=old_meta)
            )
            changes.append(
                FileChange(
                    new.path,
                    None,
                    data,
                    "move",
                    stat=new.stat,
                    after_sha256=new.sha256,
                    moved_from=rename.old,
                )
            )
        recorder.record(key, changes, actor=actor, before_kept=True, after_kept=True)
    report.moved += len(still)
    for rename in still:
        old_key, new_key = _meta_key(store, rename.old), _meta_key(store, rename.new.path)
        try:
            store.meta.move_subtree(old_key, new_key, record_write=False)
        except (OSError, MemoryStoreError) as error:
            logger.warning("Could not update memory-meta.json for %s: %s", rename.new.path, error)


def _as_read(newest: dict[str, Version], rename: Rename) -> bool:
    """Whether history holds what the pass read of a rename's two paths: the old one's
    content as its newest version, nothing recorded at the new one since."""
    old, new = newest.get(rename.old), rename.new
    if old is None or old.deleted or old.sha256 != new.sha256:
        return False
    current = newest.get(new.path)
    against = new.read_against
    return against is None or against.version_id == (current.id if current else None)


def _unchanged(
    version: Version | None, found: Stat, cache: dict[str, tuple[int, int, str]]
) -> bool:
    if version is None or version.deleted:
        return False
    if version.stat == found:
        return True
    cached = cache.get(version.path)
    return cached is not None and cached[:2] == found and cached[2] == version.sha256


def _missing(store: MemoryStore, path_text: str) -> bool:
    try:
        return store.kind_of(parse_file_path(path_text)) is None
    except (PathError, MemoryStoreError):
        return False


def _meta_key(store: MemoryStore, path_text: str) -> str:
    try:
        return store.meta_key(parse_file_path(path_text))
    except (PathError, MemoryStoreError):
        return ""


def _walked_to(path_text: str) -> bool:
    """Whether the walk goes as deep as a path (history may hold deeper ones, recorded
    before the depth was a rule: not walked is not gone)."""
    return path_text.count("/") - 2 <= MAX_PATH_DEPTH


def _stat_walk(
    scope: Scope, root: Path, stats: dict[str, os.stat_result] | None = None
) -> tuple[dict[str, Stat], bool, dict[str, tuple[str, ...]]]:
    """(size, mtime_ns) of every file of a scope but dotfiles, by path, at most
    `MAX_PATH_DEPTH` deep; whether every directory could be read (if not, missing files
    may only be unreadable: none count as gone); and the names on disk of the paths no
    virtual path parses (shown names). `stats` gets each file's whole `lstat`."""
    found: dict[str, Stat] = {}
    raw: dict[str, tuple[str, ...]] = {}
    too_deep: list[tuple[str, ...]] = []
    complete = True
    # (directory, its segments on disk, the same as shown, whether one is not addressable,
    # its virtual path: built a name at a time, not from segments at every file)
    pending: list[tuple[str, tuple[str, ...], tuple[str, ...], bool, str]] = [
        (str(root), (), (), False, scope.virtual_root)
    ]
    while pending:
        directory, segments, shown, odd, shown_text = pending.pop()
        try:
            with os.scandir(directory) as iterator:
                entries = list(iterator)
        except FileNotFoundError:
            continue
        except OSError:
            complete = False
            continue
        for entry in entries:
            if is_hidden_name(entry.name):  # dotfiles, and Memtab's and xum's temp files
                continue
            try:
                info = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            child = (*segments, entry.name)
            addressable = is_addressable_name(entry.name)
            name = entry.name if addressable else shown_name(entry.name)
            child_shown = (*shown, name)
            path_text = f"{shown_text}/{name}"  # str(VirtualPath(scope, child_shown))
            if stat.S_ISDIR(info.st_mode):
                if len(child) < MAX_PATH_DEPTH:
                    pending.append(
                        (entry.path, child, child_shown, odd or not addressable, path_text)
                    )
                elif addressable and not odd and holds_entries(entry.path):
                    too_deep.append(child)
            elif stat.S_ISREG(info.st_mode):
                found[path_text] = (info.st_size, info.st_mtime_ns)
                if stats is not None:
                    stats[path_text] = info
                # A name no virtual path parses (`bad~name.md`, shown as it is): read by
                # its segments on disk, never parsed back from the text.
                if odd or not addressable:
                    raw[path_text] = child
    note_too_deep(scope, root, too_deep)
    return found, complete, raw


StatCache = tuple[dict[str, tuple[int, int, str]], dict[str, Stat]]


class StatCacheFile(Record):
    """`memtab/history/index/<key>.stat.json` (docs/formats.md §14.2): files whose stat
    changed but content did not, by `[size, mtimeNs, sha256]`, and files history keeps no
    copy of, by `[size, mtimeNs]`. It only saves hashing: an entry that does not read is
    dropped (the file is hashed again)."""

    files: ValidEntries[dict[str, tuple[int, int, str]]] = records_field(default_factory=dict)
    not_kept: ValidEntries[dict[str, tuple[int, int]]] = records_field(default_factory=dict)


def _load_stat_cache(path: Path) -> StatCache:
    """The stat cache: files whose stat changed but content did not (`files`), and files
    history keeps no copy of (`notKept`), each by the stat they had."""
    cached = StatCacheFile.read(read_sidecar(path).document) or StatCacheFile()
    return dict(cached.files), dict(cached.not_kept)


def _save_stat_cache(path: Path, old: StatCache, new: StatCache) -> None:
    if old == new:
        return
    files, not_kept = new
    document = StatCacheFile(files=files, not_kept=not_kept).to_json()
    try:
        atomic_write_json(path, document, mode=PRIVATE_FILE_MODE)  # memory files' names
    except OSError as error:  # only speed depends on it
        logger.warning("Cannot write %s: %s", path, error.strerror or error)
