"""Another agent's memory file as a `MemoryFile`, and Memtab's history of such files: one index
per source in the home's history, its changes recorded write-ahead under the file's lock as for
mux's files (`keep_before`), so a crash loses nothing the agent wrote."""

from __future__ import annotations

import contextlib
import hashlib
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from memtab.file_protocol.file_ref import MemoryFileRef, SourceError, parse_file_id
from memtab.file_protocol.memory_file import (
    Commit,
    MemoryFileError,
    MemoryFileMissingError,
    Restored,
)
from memtab.fs.atomic import encode_utf8
from memtab.fs.clock import now_ms
from memtab.humanize import display_path
from memtab.sources.content import (
    read_raw_source_text,
    read_source_file,
    remove_created_file,
    save_source_file,
)
from memtab.sources.history import file_at, source_history
from memtab.sources.listing import source_file, target_file
from memtab.sources.model import FileKind, ReadOnlyError, Source, SourceFile
from memtab.store.errors import MemoryStoreError, SaveConflictError, UnkeptChangeError
from memtab.store.files import FileContent, content_sha256
from memtab.store.history.recorder import FileChange, HistoryRecorder
from memtab.store.history.versions import Op, ScopeHistory, Version
from memtab.store.home import Home
from memtab.store.restore.from_history import HistoryError, content_of, text_of
from memtab.store.scopes.memory import MemoryStore

INDEX_PREFIX = "source-"


def index_key(source_id: str) -> str:
    """The history index of a source's files."""
    return INDEX_PREFIX + hashlib.sha256(encode_utf8(source_id)).hexdigest()[:16]


@dataclass(frozen=True)
class SourceVersions:
    """Records and lists the versions of other agents' files in `home`'s history."""

    home: Home
    actor: str = "user"

    def keep_before(
        self, file: SourceFile, before: bytes, *, done: str, destroys: bool, allow_unkept: bool
    ) -> bool:
        """Write-ahead: under the file's lock, keep `before` in history; whether kept (pass it to
        `record`). UnkeptChangeError when it `destroys` what history cannot keep, unless
        `allow_unkept`."""
        return self._recorder().keep_before(
            index_key(file.source_id),
            [(file.id, before)],
            label=file.id,
            done=done,
            destroys=destroys,
            allow_unkept=allow_unkept,
            stat_of=lambda _: stat_now(file),
        )

    def record(
        self,
        file: SourceFile,
        before: bytes | None,
        after: bytes | None,
        op: Op,
        *,
        restored_from: str | None = None,
        before_kept: bool = False,
    ) -> None:
        """Record one change (never raises: history must not fail the change)."""
        change = FileChange(file.id, before, after, op, restored_from=restored_from)
        self._recorder().record(index_key(file.source_id), [change], before_kept=before_kept)

    def _recorder(self) -> HistoryRecorder:
        return HistoryRecorder(
            self.home, actor=self.actor, run_id=None, workspace_id=None, clock=now_ms
        )

    def versions(self, file_id: str) -> list[Version]:
        """Every recorded version of a file, newest first (SourceError: not a file id)."""
        key = index_key(parse_file_id(file_id).source_id)
        return [v for v in reversed(ScopeHistory(self.home, key).versions()) if v.path == file_id]

    def find(self, file_id: str, version_id: str) -> Version:
        """One version of a file; HistoryError when it has no such version."""
        found = next((v for v in self.versions(file_id) if v.id == version_id), None)
        if found is None:
            raise HistoryError(
                f"No version {version_id!r} of {file_id} (see `memtab history {file_id}`)"
            )
        return found


def restore_version(
    history: SourceVersions,
    source: Source,
    file_id: str,
    version_id: str,
    *,
    expected_sha256: str | None = None,
    allow_unkept: bool = False,
) -> bool:
    """Make a writable file of `source` hold one of its versions again, recorded as a `restore`;
    False when it already does (`expected_sha256`: only over that content). HistoryError,
    SaveConflictError, UnkeptChangeError, ReadOnlyError, SourceError."""
    version = history.find(file_id, version_id)
    data = content_of(history.home, version)
    relative = parse_file_id(file_id).path
    file = source_file(source, relative)
    expected: str | None = None
    if file is None:  # gone: created again where the layout lets Memtab write one
        if expected_sha256 is not None:
            raise SaveConflictError("missing", f"{file_id} is gone; nothing was changed")
        if os.path.lexists(source.root.joinpath(*relative.split("/"))):
            raise SourceError(f"{file_id} cannot be restored: something else is there")
        file = target_file(source, relative)
    else:
        if not file.writable:
            raise ReadOnlyError(f"{file.id} is read-only: {file.read_only_reason}")
        expected = read_source_file(source, file).sha256
        if expected_sha256 is not None and expected != expected_sha256:
            raise SaveConflictError("changed", f"{file_id} changed since; kept")
        if expected == content_sha256(text_of(data)):
            return False
    save_source_file(
        source,
        file,
        text_of(data),
        expected,
        history=history,
        restored_from=version.id,
        allow_unkept=allow_unkept,
    )
    return True


@dataclass(frozen=True)
class AgentFile:
    """A file of another agent's source as its listing has it, its changes recorded in `history`."""

    source: Source
    file: SourceFile
    history: SourceVersions

    @property
    def ref(self) -> MemoryFileRef:
        return self.file.ref

    @property
    def home(self) -> Home:
        return self.history.home

    @property
    def title(self) -> str:
        # Where the file really is, as its agent and the user know it (the id is for the CLI).
        return display_path(self.file.physical)

    @property
    def name(self) -> str:
        return self.file.name

    @property
    def label(self) -> str:
        return self.file.relative

    @property
    def read_only_reason(self) -> str | None:
        return self.file.read_only_reason

    @property
    def note(self) -> str | None:
        return self.file.warning

    @property
    def memory_type(self) -> str | None:
        return self.file.topic_type

    def physical(self) -> Path | None:
        return self.file.physical

    def read(self) -> FileContent:
        try:
            shown = read_source_file(self.source, self.file)
        except SourceError as error:
            if not os.path.lexists(self.file.physical):
                raise MemoryFileMissingError(f"{self.file.id} is not on disk") from None
            raise MemoryFileError(str(error)) from None
        return FileContent(shown.text, shown.sha256, shown.size_bytes, shown.binary, shown.over_cap)

    def read_whole(self) -> bytes | None:
        """What Memtab shows of it (loki-mode's JSON rendered, as its versions hold it)."""
        try:
            return encode_utf8(self.read().content)
        except MemoryFileMissingError:
            return None

    def source_text(self) -> str | None:
        if self.file.kind is not FileKind.RENDERED:
            return None
        with _file_errors((SourceError,)):
            return read_raw_source_text(self.source, self.file)

    def save(
        self,
        content: str,
        expected_sha256: str | None,
        *,
        allow_unkept: bool = False,
        count_as_write: bool = True,
    ) -> str:
        del count_as_write  # another agent's file has no usage of Memtab's to count
        with _file_errors():
            return save_source_file(
                self.source,
                self.file,
                content,
                expected_sha256,
                history=self.history,
                allow_unkept=allow_unkept,
            )

    def history_index(self) -> str | None:
        return index_key(self.source.id)

    def versions(self) -> list[Version]:
        return self.history.versions(self.file.id)

    def commits(self) -> tuple[Commit, ...]:
        if not self.source.has_history:
            return ()
        return source_history(self.source, self.file.relative).commits

    def commit_text(self, sha: str) -> str:
        with _file_errors((SourceError,)):
            return file_at(self.source, sha, self.file.relative)

    def restore(
        self,
        version_id: str,
        *,
        expected_sha256: str | None = None,
        allow_unkept: bool = False,
        count_as_write: bool = True,
    ) -> Restored:
        del count_as_write  # another agent's file has no usage of Memtab's to count
        with _file_errors():
            changed = restore_version(
                self.history,
                self.source,
                self.file.id,
                version_id,
                expected_sha256=expected_sha256,
                allow_unkept=allow_unkept,
            )
        versions = self.versions()
        if not changed:
            return Restored(self, None, versions[0].sha256 if versions else "", unchanged=True)
        before = versions[1] if len(versions) > 1 else None
        created = before is None or before.deleted
        return Restored(self, before, versions[0].sha256, created=created)

    def in_store(self, store: MemoryStore | None) -> AgentFile:
        return self  # another agent's file belongs to no workspace

    def remove_created(
        self, expected_sha256: str, *, created_folders: int = 0, allow_unkept: bool = False
    ) -> None:
        with _file_errors():
            remove_created_file(
                self.source,
                self.file,
                expected_sha256,
                created_folders=created_folders,
                history=self.history,
                allow_unkept=allow_unkept,
            )


@contextlib.contextmanager
def _file_errors(
    kinds: tuple[type[Exception], ...] = (SourceError, MemoryStoreError, OSError),
) -> Iterator[None]:
    """A source's, the store's or the system's error (`kinds`) in one line; a conflict or an
    unkept change as itself."""
    try:
        yield
    except (SaveConflictError, UnkeptChangeError):
        raise
    except kinds as error:
        said = error.strerror if isinstance(error, OSError) else None
        raise MemoryFileError(said or str(error)) from None


def stat_info(file: SourceFile) -> os.stat_result | None:
    """An agent's file's stat now (None: gone or unreadable); its ctime tells `sources.external`
    whether the stat can vouch for its content."""
    try:
        return os.stat(file.physical, follow_symlinks=file.linked)
    except OSError:
        return None


def stat_now(file: SourceFile) -> tuple[int, int] | None:
    """(size, mtime_ns) of an agent's file now, as `sources.external` records it."""
    info = stat_info(file)
    return None if info is None else (info.st_size, info.st_mtime_ns)
