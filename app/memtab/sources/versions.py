"""Memtab's history of other agents' files: what Memtab wrote over, created or removed.

Other agents' files are kept in the home's history like mux's (`memtab.store.history`:
the same blobs, index format and pruning), one index per source, `source-<16 hex digits
of the source id's sha256>` (a source id holds `:` and may be long), each version's
`path` its file id (`claude-code:user:CLAUDE.md`). Memtab records its own changes there,
under the file's lock, with the bytes before and after: an editor save, a copy in (Copy
to…, `memtab copy`), the removal of a copy (Edit → Undo) and a restore. Write-ahead, as
for mux's files: before Memtab replaces or removes a file's content, still under the lock,
`keep_before` stores that content and, if the agent wrote it since the last version,
records it as `external` (the recorder's `keep_before`), so a crash between the write and
its `record` loses nothing the agent wrote; a change that would destroy what history
cannot keep is refused (`UnkeptChangeError`) unless the caller allows it. What the agents
write while Memtab does not write the file is not followed (a file id is not a virtual
path: `sync_external` walks mux's scopes).
"""

from __future__ import annotations

import hashlib
import logging
import os
from dataclasses import dataclass

from memtab.fs.atomic import encode_utf8
from memtab.fs.clock import now_ms
from memtab.sources.model import ReadOnlyError, Source, SourceError, SourceFile, parse_file_id
from memtab.store.errors import SaveConflictError
from memtab.store.files import content_sha256
from memtab.store.history.recorder import FileChange, HistoryRecorder
from memtab.store.history.undo import HistoryError, content_of, text_of
from memtab.store.history.versions import Op, ScopeHistory, Version
from memtab.store.home import Home

logger = logging.getLogger(__name__)

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
        """Write-ahead: under the file's lock and before Memtab replaces or removes it,
        keep `before` (what it holds) in history. Whether it was kept (pass it to `record`
        as `before_kept`). A change that `destroys` it when history cannot keep a copy is
        refused (UnkeptChangeError) unless `allow_unkept` (see
        `HistoryRecorder.keep_before`)."""
        return self._recorder().keep_before(
            index_key(file.source_id),
            [(file.id, before)],
            label=file.id,
            done=done,
            destroys=destroys,
            allow_unkept=allow_unkept,
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
        """Record one change (never raises: history must not fail the change).
        `before_kept`: what `keep_before` returned for `before`."""
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
    """Make a writable file of `source` hold one of its versions again (a deleted one comes
    back), recorded as a `restore`; False when it already holds it. `expected_sha256`:
    only if the file holds that content now (an undo). HistoryError (unknown version,
    content pruned), SaveConflictError (changed meanwhile), UnkeptChangeError (what it
    holds cannot be kept; `allow_unkept`: restore anyway), ReadOnlyError and SourceError
    (one line) otherwise."""
    from memtab.sources.content import read_source_file, save_source_file
    from memtab.sources.copy import target_file
    from memtab.sources.listing import source_file

    version = history.find(file_id, version_id)
    data = content_of(history.home, version)
    relative = parse_file_id(file_id).relative
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
