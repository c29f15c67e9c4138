"""Changes Memtab did not make (mux, an editor, `echo >>`), recorded as `external`: each file's stat
against its newest version, hashing what changed or is too new for its stat to tell (`fs.memo`); a
gone file's content at a new path is a rename. Off the GUI thread; a read passes `wait=False`."""

from __future__ import annotations

import logging
import os
import stat
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path

from memtab.fs.atomic import atomic_write_json
from memtab.fs.clock import now_ms
from memtab.fs.memo import settled
from memtab.fs.private import PRIVATE_FILE_MODE
from memtab.fs.readable import HardLinkedFileError
from memtab.fs.records import Record, ValidEntries
from memtab.fs.records import field as records_field
from memtab.fs.sidecar import read_sidecar
from memtab.store.catch_up.recording import unrecorded_reason
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
RECORD_BATCH = 200  # files read and copied into history between two looks at `cancel`
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
    moved: int = 0  # files another program renamed (recorded as moves: `renames`)
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
        lost = f"it cannot restore earlier contents of {them}"
        return (
            f"history keeps no copy of {listed}: {lost}; the files themselves are left as they are"
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
    """Record every change to the store's `scopes` history has not seen; never raises for one file
    or scope. `cancel` is asked between batches; without `wait` a busy scope is left for the next
    pass; `actor_of` names who made them (else `external`); `walked` gets each walked file's
    `lstat`."""
    report = ExternalReport()
    stop = cancel or (lambda: False)
    workspace_id = store.workspace.id if store.workspace else None
    recorder = HistoryRecorder(
        store.home, actor="external", run_id=None, workspace_id=workspace_id, clock=now_ms
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
    started_ms = now_ms()  # before the walk: no content read this pass is older
    infos: dict[str, os.stat_result] = {} if stats is None else stats
    walked, complete, raw = _stat_walk(scope, store.root(scope), infos)
    report.scanned += len(walked)
    key = store.history_key(scope)
    newest = ScopeHistory(store.home, key).newest_by_path()
    cache_path = store.home.history_index_dir / f"{key}.stat.json"
    cache, not_kept, verified_ms = _load_stat_cache(cache_path)
    candidates = [
        p
        for p, found in walked.items()
        if not _unchanged(newest.get(p), found, infos[p], cache, verified_ms)
        and not_kept.get(p) != found
    ]
    # Read as their stat is: a stat cache entry would vouch for a same-size rewrite at that mtime.
    unsettled = {p for p in candidates if not settled(infos[p], started_ms)}
    gone = [
        p
        for p, v in newest.items()
        # Not walked (deeper than the walk goes) is not gone.
        if complete and not v.deleted and p not in walked and p.count("/") - 2 <= MAX_PATH_DEPTH
    ]
    kept_cache = {p: entry for p, entry in cache.items() if p in walked}
    still_not_kept = {p: found for p, found in not_kept.items() if walked.get(p) == found}
    old = (cache, not_kept, verified_ms)
    if not candidates and not gone:
        _save_stat_cache(cache_path, old, (kept_cache, still_not_kept, verified_ms))
        return
    not_kept_before, problems_before = len(report.not_kept), len(report.problems)
    recording = _Recording(store, recorder, scope, key, report, lock_wait_s, actor_of)
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
                store.root(scope), scope, chunk, raw, newest, walked, kept_cache, report, unsettled
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
        _record_renames(recording, renames)
        observed += [observation.stored() for observation in arrived]
    if gone and not report.cancelled:
        meta = store.meta_snapshot()
        against = {p: ReadAgainst(newest[p].id) for p in gone}
        observed += [
            Observation(p, None, meta=meta.get(_meta_key(store, p)), read_against=against[p])
            for p in gone
        ]
    for start in range(0, len(observed), INDEX_BATCH):
        if start and stop():
            report.cancelled = True
            break
        _record(recording, observed[start : start + INDEX_BATCH])
    for path_text, _ in report.not_kept[not_kept_before:]:
        still_not_kept[path_text] = walked[path_text]
    # Every file read and its change recorded: each left of its newest version's stat holds it.
    whole = (len(report.not_kept), len(report.problems)) == (not_kept_before, problems_before)
    if whole and candidates and not report.cancelled:
        verified_ms = started_ms
    _save_stat_cache(cache_path, old, (kept_cache, still_not_kept, verified_ms))


def _read_changed(
    root: Path,
    scope: Scope,
    paths: list[str],
    raw: dict[str, tuple[str, ...]],
    newest: dict[str, Version],
    walked: dict[str, Stat],
    kept_cache: dict[str, tuple[int, int, str]],
    report: ExternalReport,
    unsettled: set[str],
) -> list[Observation]:
    """What files whose stat changed hold now, where it differs from their newest version; one
    that holds it is cached by stat unless `unsettled`."""
    seen: list[Observation] = []
    for path_text, data in _read_files(root, scope, paths, raw, report):
        report.hashed += 1
        digest = sha256_of(data)
        current = newest.get(path_text)
        if current is not None and not current.deleted and current.sha256 == digest:
            if path_text not in unsettled and current.stat != walked[path_text]:
                kept_cache[path_text] = (*walked[path_text], digest)  # else `verifiedAt` holds it
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
    """(path, content) of each file, read through its parent opened once, never through a link;
    `raw` holds the on-disk names of shown-name paths. One not kept is in `report.not_kept`."""
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
                    is_file = kind_in(directory, path.name) == "file"
                    data = read_whole(directory, path.name) if is_file else None
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


@dataclass(frozen=True)
class _Recording:
    """One scope's pass: where its changes are recorded, as whom, and what it found."""

    store: MemoryStore
    recorder: HistoryRecorder
    scope: Scope
    key: str
    report: ExternalReport
    lock_wait_s: float
    actor_of: ActorOf | None

    def actor(self, paths: list[str]) -> str:
        return self.actor_of(self.scope, paths) if self.actor_of is not None else "external"

    def writing(self) -> AbstractContextManager[object]:
        # Under the scope lock: a Memtab change is recorded by its own process first.
        return self.store.writing(self.scope, timeout_s=self.lock_wait_s, changes_home=False)


def _record(recording: _Recording, seen: list[Observation]) -> None:
    if not seen:
        return
    store, actor = recording.store, recording.actor([o.path for o in seen])
    with recording.writing():
        still = [o for o in seen if not o.gone or _missing(store, o.path)]
        added = recording.recorder.observe(recording.key, still, actor=actor)
    recording.report.recorded += sum(1 for version in added if not version.deleted)
    recording.report.deleted += sum(1 for version in added if version.deleted)


@dataclass(frozen=True)
class Rename:
    """A file another program renamed: its old path and what was read at the new one."""

    old: str
    new: Observation


def pair_renames(
    observed: Sequence[Observation], gone: Sequence[str], newest: dict[str, Version]
) -> tuple[list[Rename], list[Observation], list[str]]:
    """The renames among a pass's new files and gone paths; what is left of each."""
    by_sha: dict[str, list[str]] = {}
    for path in sorted(gone):
        by_sha.setdefault(newest[path].sha256, []).append(path)
    renames: list[Rename] = []
    left: list[Observation] = []
    for observation in observed:
        current = newest.get(observation.path)
        olds = by_sha.get(observation.sha256 or "")
        if olds and (current is None or current.deleted):
            old = _likeliest(olds, observation.path)
            olds.remove(old)
            renames.append(Rename(old, observation))
        else:
            left.append(observation)
    moved = {rename.old for rename in renames}
    return renames, left, [path for path in gone if path not in moved]


def _likeliest(olds: list[str], new: str) -> str:
    """The old path `new` most likely was: the same name, then the same folder."""
    folder, _, name = new.rpartition("/")
    same_name = [old for old in olds if old.rpartition("/")[2] == name]
    same_folder = [old for old in olds if old.rpartition("/")[0] == folder]
    return (same_name or same_folder or olds)[0]


def _record_renames(recording: _Recording, renames: list[Rename]) -> None:
    """Record each rename as a move, pins and usage carried, where the old path is still gone and
    history recorded neither since the pass read them."""
    if not renames:
        return
    store, key = recording.store, recording.key
    actor = recording.actor([path for r in renames for path in (r.old, r.new.path)])
    meta = store.meta_snapshot()
    with recording.writing():
        newest = ScopeHistory(store.home, key).newest_by_path()
        still = [r for r in renames if _missing(store, r.old) and _as_read(newest, r)]
        changes: list[FileChange] = []
        for rename in still:
            new, data, old_meta = (
                rename.new,
                rename.new.data,
                meta.get(_meta_key(store, rename.old)),
            )
            changes += [
                FileChange(rename.old, data, None, "move", moved_to=new.path, meta=old_meta),
                FileChange(
                    new.path, None, data, "move", stat=new.stat, after_sha256=new.sha256,
                    moved_from=rename.old,
                ),
            ]  # fmt: skip
        recording.recorder.record(key, changes, actor=actor, before_kept=True, after_kept=True)
    recording.report.moved += len(still)
    for rename in still:
        old_key, new_key = _meta_key(store, rename.old), _meta_key(store, rename.new.path)
        try:
            store.meta.move_subtree(old_key, new_key, record_write=False)
        except (OSError, MemoryStoreError) as error:
            logger.warning("Could not update memory-meta.json for %s: %s", rename.new.path, error)


def _as_read(newest: dict[str, Version], rename: Rename) -> bool:
    """Whether history holds what the pass read of a rename's two paths."""
    old, new = newest.get(rename.old), rename.new
    if old is None or old.deleted or old.sha256 != new.sha256:
        return False
    current = newest.get(new.path)
    against = new.read_against
    return against is None or against.version_id == (current.id if current else None)


def _unchanged(
    version: Version | None,
    found: Stat,
    info: os.stat_result,
    cache: dict[str, tuple[int, int, str]],
    verified_ms: int,
) -> bool:
    """Whether a file's stat shows it holds its newest version: the version's own stat where the
    file was settled when it was recorded or last read whole (`verified_ms`), else a stat cache
    entry (only a settled file has one)."""
    if version is None or version.deleted:
        return False
    if version.stat == found and settled(info, max(version.at, verified_ms)):
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


def _stat_walk(
    scope: Scope, root: Path, stats: dict[str, os.stat_result] | None = None
) -> tuple[dict[str, Stat], bool, dict[str, tuple[str, ...]]]:
    """(size, mtime_ns) of every file of a scope but dotfiles, to `MAX_PATH_DEPTH`; whether every
    directory could be read; the on-disk names of shown-name paths. `stats` gets each `lstat`."""
    found: dict[str, Stat] = {}
    raw: dict[str, tuple[str, ...]] = {}
    too_deep: list[tuple[str, ...]] = []
    complete = True
    # (directory, its segments on disk, as shown, whether one is not addressable, its virtual path)
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
                # A name no virtual path parses: read by its segments on disk.
                if odd or not addressable:
                    raw[path_text] = child
    note_too_deep(scope, root, too_deep)
    return found, complete, raw


StatCache = tuple[dict[str, tuple[int, int, str]], dict[str, Stat], int]


class StatCacheFile(Record):
    """`memtab/history/index/<key>.stat.json` (docs/formats.md §14.2): files whose stat changed but
    not their content, files history keeps no copy of, and when a pass last read every file it
    could not trust by stat (ms); it only saves hashing."""

    files: ValidEntries[dict[str, tuple[int, int, str]]] = records_field(default_factory=dict)
    not_kept: ValidEntries[dict[str, tuple[int, int]]] = records_field(default_factory=dict)
    verified_at: int = 0


def _load_stat_cache(path: Path) -> StatCache:
    """The stat cache: unchanged contents (`files`) and files not kept (`notKept`), `verifiedAt`."""
    cached = StatCacheFile.read(read_sidecar(path).document) or StatCacheFile()
    return dict(cached.files), dict(cached.not_kept), cached.verified_at


def _save_stat_cache(path: Path, old: StatCache, new: StatCache) -> None:
    if old == new:
        return
    files, not_kept, verified_at = new
    document = StatCacheFile(files=files, not_kept=not_kept, verified_at=verified_at).to_json()
    try:
        atomic_write_json(path, document, mode=PRIVATE_FILE_MODE)  # memory files' names
    except OSError as error:  # only speed depends on it; a full disk is told as history's
        logger.info("Cannot write %s: %s", path, error.strerror or error)
