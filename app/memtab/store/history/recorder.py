"""Recording changes as `MemoryStore` makes them (actor, run, before and after) under the scope
lock; another program's change meanwhile is recorded first as `external`, destroyed content kept
before (`keep_before`, docs/formats.md §14.2). Recording never fails the change."""

from __future__ import annotations

import errno
import logging
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import NamedTuple

from memtab.fs.clock import Clock
from memtab.store.errors import HistoryUnavailableError, UnkeptChangeError
from memtab.store.history.blobs import BlobBatch, BlobStore, sha256_of
from memtab.store.history.versions import Op, ScopeHistory, Version, new_version_id
from memtab.store.home import Home

logger = logging.getLogger(__name__)
StatOf = Callable[[str], tuple[int, int] | None]


@dataclass(frozen=True)
class FileChange:
    """One file's change as the store made it. `before`/`after` None: no file."""

    path: str
    before: bytes | None
    after: bytes | None
    op: Op
    stat: tuple[int, int] | None = None  # (size, mtime_ns) of the file after the change
    after_sha256: str | None = None  # of `after`, when the caller has it (`keep_contents`)
    moved_from: str | None = None
    moved_to: str | None = None
    restored_from: str | None = None
    revert_of: str | None = None
    meta: dict[str, object] | None = None  # pins and usage of a file deleted or moved away


class ReadAgainst(NamedTuple):
    """The path's newest version in history when an observation was made (None: none)."""

    version_id: str | None


@dataclass(frozen=True)
class Observation:
    """What a file holds now, as `record_external` read it (`data`, or its stored `sha256` and
    `size`; neither: gone); `read_against`: the newest version when read, not recorded if history
    moved since."""

    path: str
    data: bytes | None
    stat: tuple[int, int] | None = None
    meta: dict[str, object] | None = None  # pins and usage of a file found gone
    sha256: str | None = None  # of the content, when the caller has it already
    size: int | None = None  # of the content, when `data` is dropped
    read_against: ReadAgainst | None = None

    @property
    def gone(self) -> bool:
        return self.data is None and self.sha256 is None

    def stored(self) -> Observation:
        """This observation without its data (its content is in the blob store)."""
        if self.data is None:
            return self
        digest = self.sha256 or sha256_of(self.data)
        return replace(self, data=None, sha256=digest, size=len(self.data))


@dataclass(frozen=True)
class RecordedChange:
    """A change as recorded: the version before it (None: no file) and its own."""

    key: str
    path: str
    before: Version | None
    after: Version


class ContentKeeper:
    """Copies of contents kept a content at a time (`HistoryRecorder.keeping_contents`)."""

    def __init__(self, batch: BlobBatch | None) -> None:
        self.batch = batch
        self.kept = batch is not None
        """Whether every content given was kept (False once one could not be)."""

    def keep(self, data: bytes) -> str | None:
        """Keep `data`; its sha256, or None once a copy could not be made."""
        if not self.kept or self.batch is None:
            return None
        try:
            return self.batch.put(data)
        except OSError as error:
            logger.info("Contents not copied into history before their change: %s", error)
            self.kept = False
            return None


class HistoryRecorder:
    """Records the changes of one store (one actor, one run) into a home's history."""

    def __init__(
        self, home: Home, *, actor: str, run_id: str | None, workspace_id: str | None, clock: Clock
    ) -> None:
        self.home = home
        self.actor = actor
        self.run_id = run_id
        self.workspace_id = workspace_id
        self.blobs = BlobStore(home.history_blobs_dir, own=home.memtab_dir)
        self._clock = clock
        self._collectors = threading.local()

    def scope(self, key: str) -> ScopeHistory:
        return ScopeHistory(self.home, key)

    @contextmanager
    def collecting(self) -> Iterator[list[RecordedChange]]:
        """Collect what this thread records during the block."""
        stack: list[list[RecordedChange]] = self._collector_stack()
        collected: list[RecordedChange] = []
        stack.append(collected)
        try:
            yield collected
        finally:
            stack.remove(collected)

    def _collector_stack(self) -> list[list[RecordedChange]]:
        stack: list[list[RecordedChange]] = vars(self._collectors).setdefault("stack", [])
        return stack

    def keep_before(
        self,
        key: str,
        contents: Sequence[tuple[str, bytes]],
        *,
        label: str,
        done: str,
        destroys: bool,
        allow_unkept: bool,
        stat_of: StatOf | None = None,
    ) -> bool:
        """Write-ahead: store each content a change is about to replace or remove durably, recorded
        `external` where it is not its path's newest (with `stat_of(path)`); whether kept. A change
        that `destroys` what history cannot keep raises UnkeptChangeError unless `allow_unkept`."""
        try:
            self._keep(key, contents, stat_of)
        except HistoryUnavailableError as error:
            if destroys and not allow_unkept:
                raise UnkeptChangeError(label, done, error.cause) from None
            done = done if destroys else f"{done} (nothing of it was lost)"
            logger.warning("%s %s without a copy in history: %s", label, done, error.cause)
            return False
        return True

    def _keep(
        self, key: str, contents: Sequence[tuple[str, bytes]], stat_of: StatOf | None
    ) -> None:
        """`keep_before`'s copy; HistoryUnavailableError (the cause) when it cannot be made."""
        if not contents:
            return
        try:
            history = self.scope(key)
            newest = history.newest_by_path()  # unlocked first: mostly nothing to record
            # Its newest version holds it already: nothing to store or record.
            missing = [
                (path, data, sha)
                for path, data in contents
                if not _holds(newest.get(path), sha := sha256_of(data))
            ]
            if not missing:
                return
            for _, data, sha in missing:
                self.blobs.put(data, sha)
            with history.file.locked():
                newest = history.newest_by_path()
                added: list[Version] = []
                for path, data, sha in missing:
                    size = len(data)
                    current = newest.get(path)
                    stat = stat_of(path) if stat_of is not None else None
                    stat = stat if stat is not None and stat[0] == size else None
                    version = self._caught_up_to(current, path, sha, size, stat=stat)
                    if version is not current:
                        added.append(version)
                        newest[path] = version
                history.file.append_locked([version.to_json() for version in added])
        except Exception as error:
            raise HistoryUnavailableError(history_problem(error, self.home.history_dir)) from error

    def keep_contents(
        self, contents: Sequence[bytes], *, each: bool, flushed_with: Path | None = None
    ) -> list[str] | None:
        """Store contents a change will write, durably (each fsynced, or together by one flush,
        `flushed_with` the caller's); their sha256, or None: the record copies them."""
        try:
            if each:
                return [self.blobs.put(data) for data in contents]
            with self.blobs.batch(flushed_with=flushed_with) as batch:
                digests = [batch.put(data) for data in contents]
        except OSError as error:
            logger.info("Contents not copied into history before their change: %s", error)
            return None
        return digests

    @contextmanager
    def keeping_contents(self, *, flushed_with: Path | None = None) -> Iterator[ContentKeeper]:
        """`keep_contents` a content at a time, durable once the block ends; one that fails makes
        `kept` False."""
        batching = self.blobs.batch(flushed_with=flushed_with)
        keeper = ContentKeeper(batching.__enter__())  # holds the copies: nothing written yet
        try:
            yield keeper
        except BaseException as raised:  # the caller's: the held copies are dropped
            batching.__exit__(type(raised), raised, raised.__traceback__)
            raise
        try:
            batching.__exit__(None, None, None)  # the held copies written, and durable
        except OSError as error:
            logger.info("Contents not copied into history before their change: %s", error)
            keeper.kept = False

    def record(
        self,
        key: str,
        changes: Sequence[FileChange],
        *,
        actor: str | None = None,
        before_kept: bool = False,
        after_kept: bool = False,
    ) -> list[RecordedChange]:
        """Record changes of one scope; never raises. `before_kept`/`after_kept`: stored already."""
        if not changes:
            return []
        try:
            recorded = self._record(
                key, changes, actor or self.actor, before_kept=before_kept, after_kept=after_kept
            )
        except Exception as error:  # history must never fail the change itself
            paths = ", ".join(change.path for change in changes[:3])
            logger.warning("Could not record the history of %s: %s", paths, error)
            return []
        for collected in self._collector_stack():
            collected.extend(recorded)
        return recorded

    def observe(
        self, key: str, seen: Sequence[Observation], *, actor: str = "external"
    ) -> list[Version]:
        """Record what files hold now where it differs from their newest version, as `external` or
        `actor`'s; an observation with only a sha names a stored content. OSError and lock timeouts
        are the caller's."""
        # Still on disk: their copies are made durable at once, before the index names them.
        with self.blobs.batch() as batch:
            for observation in seen:
                if observation.data is not None:
                    batch.put(observation.data, observation.sha256)
        history = self.scope(key)
        with history.file.locked():
            newest = history.newest_by_path()
            added: list[Version] = []
            for observation in seen:
                current = newest.get(observation.path)
                against = observation.read_against
                now_id = current.id if current is not None else None
                if against is not None and against.version_id != now_id:
                    continue  # read before a version recorded since: maybe older than it
                if observation.gone:
                    change = FileChange(observation.path, None, None, "seen")
                    version = self._catch_up(current, change, actor)
                else:
                    known = observation.stored()
                    assert known.sha256 is not None and known.size is not None
                    version = self._caught_up_to(
                        current, known.path, known.sha256, known.size, stat=known.stat, actor=actor
                    )
                if version is None or version is current:
                    continue
                if version.deleted and observation.meta:
                    version = version.replaced(meta=dict(observation.meta))
                added.append(version)
                newest[observation.path] = version
            history.file.append_locked([version.to_json() for version in added])
        return added

    def _record(
        self,
        key: str,
        changes: Sequence[FileChange],
        actor: str,
        *,
        before_kept: bool,
        after_kept: bool = False,
    ) -> list[RecordedChange]:
        # Blobs first, outside the index lock, made durable together.
        sides = [
            (None if before_kept else c.before, None if after_kept else c.after) for c in changes
        ]
        contents = [data for pair in sides for data in pair if data is not None]
        if len(contents) > 2:
            with self.blobs.batch() as batch:
                for data in contents:
                    batch.put(data)
        else:
            for data in contents:
                self.blobs.put(data)
        history = self.scope(key)
        recorded: list[RecordedChange] = []
        entropy = os.urandom(3 * len(changes))  # the ids' random digits, drawn at once
        with history.file.locked():
            newest = history.newest_by_path()
            lines: list[Version] = []
            for number, change in enumerate(changes):
                previous = self._catch_up(newest.get(change.path), change)
                if previous is not None and previous is not newest.get(change.path):
                    lines.append(previous)
                drawn = entropy[3 * number : 3 * number + 3]
                version = self._version(change, previous, actor, drawn)
                lines.append(version)
                newest[change.path] = version
                alive = previous if previous is not None and not previous.deleted else None
                recorded.append(RecordedChange(key, change.path, alive, version))
            history.file.append_locked([line.to_json() for line in lines])
        return recorded

    def _catch_up(
        self, newest: Version | None, change: FileChange, actor: str = "external"
    ) -> Version | None:
        """The version that held `change.before`: the newest, or an `external` one recorded now."""
        before = change.before
        if before is None:
            if newest is None or newest.deleted:
                return newest
            # Recorded as existing but gone: deleted by another program.
            sha, size = newest.sha256, newest.size_bytes
            return self._new_version(
                newest.path, sha, size, "delete", actor, deleted=True, prev_sha256=sha
            )
        return self._caught_up_to(newest, change.path, sha256_of(before), len(before), actor=actor)

    def _caught_up_to(
        self,
        newest: Version | None,
        path: str,
        sha: str,
        size: int,
        *,
        stat: tuple[int, int] | None = None,
        actor: str = "external",
    ) -> Version:
        """The version that holds `sha`: `newest`, or an `external` one recorded now."""
        if newest is not None and _holds(newest, sha):
            return newest
        op: Op = "seen" if newest is None else "create" if newest.deleted else "edit"
        prev = None if newest is None or newest.deleted else newest.sha256
        return self._new_version(path, sha, size, op, actor, prev_sha256=prev, stat=stat)

    def _version(
        self, change: FileChange, previous: Version | None, actor: str, entropy: bytes
    ) -> Version:
        alive_before = previous is not None and not previous.deleted
        prev_sha = previous.sha256 if alive_before and previous is not None else None
        if change.after is None:
            content = change.before
            assert content is not None, "a deletion records the content it deleted"
            sha, size, deleted = sha256_of(content), len(content), True
        else:
            sha = change.after_sha256 or sha256_of(change.after)
            size, deleted = len(change.after), False
        now = self._clock()
        return Version(
            id=new_version_id(now, entropy),
            at=now,
            path=change.path,
            actor=actor,
            op=change.op,
            sha256=sha,
            size_bytes=size,
            deleted=deleted,
            prev_sha256=prev_sha,
            run_id=self.run_id,
            workspace_id=self.workspace_id,
            moved_from=change.moved_from,
            moved_to=change.moved_to,
            restored_from=change.restored_from,
            revert_of=change.revert_of,
            stat=change.stat,
            meta=dict(change.meta) if change.meta else None,
        )

    def _new_version(
        self,
        path: str,
        sha: str,
        size: int,
        op: Op,
        actor: str,
        *,
        deleted: bool = False,
        prev_sha256: str | None = None,
        stat: tuple[int, int] | None = None,
    ) -> Version:
        now = self._clock()
        return Version(
            id=new_version_id(now),
            at=now,
            path=path,
            actor=actor,
            op=op,
            sha256=sha,
            stat=stat,
            size_bytes=size,
            deleted=deleted,
            prev_sha256=prev_sha256,
            workspace_id=self.workspace_id,
        )


def _holds(version: Version | None, sha: str) -> bool:
    """Whether `version` is of an existing file with content `sha`."""
    return version is not None and not version.deleted and version.sha256 == sha


def history_problem(error: BaseException, history_dir: Path) -> str:
    """Why history could not keep a copy, naming the place."""
    if isinstance(error, TimeoutError):  # a lock: an OSError too, so first
        return f"its index is locked by another process: {error}"
    if not isinstance(error, OSError):
        return str(error)
    where = Path(error.filename) if isinstance(error.filename, str) else history_dir
    if error.errno == errno.EROFS:
        return f"{history_dir} is on a read-only file system"
    if error.errno in (errno.EACCES, errno.EPERM):
        return f"{history_dir} is read-only (cannot write {where})"
    if error.errno in (errno.ENOSPC, errno.EDQUOT):
        return f"the disk holding {history_dir} is full"
    if error.errno == errno.ENOTDIR:
        return f"{_not_a_directory(where)} is not a directory"
    return f"{error.strerror or error} ({where})"


def _not_a_directory(path: Path) -> Path:
    """The first of `path` and its parents that exists and is no directory, else `path`."""
    for candidate in (path, *path.parents):
        if os.path.lexists(candidate):
            return path if os.path.isdir(candidate) else candidate
    return path
