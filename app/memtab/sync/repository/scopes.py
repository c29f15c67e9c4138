"""The scopes a target carries, as this home holds them: read for export (conflict copies and what
history cannot keep left out), written on import through `MemoryStore` as the actor `sync`."""

from __future__ import annotations

import hashlib
import json
import logging
import os
import time
from collections.abc import Callable, Container, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Final, Literal

from memtab.fs.config.config_dir import cache_dir
from memtab.fs.jsonfile import JsonError, parse_json
from memtab.fs.memo import RACY_MARGIN_NS, Memo, remembered, still_as_read
from memtab.fs.records import PlainJson, Record
from memtab.store.catch_up.external import record_external
from memtab.store.conflict_copies import find_copies
from memtab.store.errors import MemoryStoreError, NotFoundError, ScopeUnavailableError
from memtab.store.files import name_scope, note_too_deep, stat_names
from memtab.store.history.capture import read_whole
from memtab.store.history.versions import Op
from memtab.store.home import Home
from memtab.store.paths import PathError, Scope, VirtualPath, too_deep_words
from memtab.store.scopes.memory import MemoryStore
from memtab.store.scopes.scope_view import open_scope_directory
from memtab.store.sidecars.registry import load_registry
from memtab.sync.repository.layout import SyncedScope, SyncSetupError

logger = logging.getLogger(__name__)

SEEN_VERSION: Final = 1
MAX_SEEN_BYTES = 64 * 1024 * 1024  # far more than any home's entries: a bigger file is not read


class SeenFilesFile(Record):
    """The cache file (docs/formats.md §18.2): version, home, target, each file's entry parsed."""

    version: Literal[1]
    home: str
    target: str
    files: Annotated[dict[str, Any], PlainJson]


def seen_files_path(home_root: Path, target: str) -> Path:
    digest = hashlib.sha256(os.fsencode(f"{home_root}\0{target}")).hexdigest()[:20]
    return cache_dir() / f"sync-{digest}.json"


class SeenFiles:
    """One target's cache (see the module doc), loaded at its first use."""

    def __init__(
        self, home_root: Path, target: str, *, now_ns: Callable[[], int] = time.time_ns
    ) -> None:
        """`now_ns`: the wall clock the files' times are compared with (tests: later)."""
        self._home = str(home_root)
        self._target = target
        self._memo = Memo(
            seen_files_path(home_root, target), "sync's cache", MAX_SEEN_BYTES, logger
        )
        self._now_ns = now_ns
        self._known: dict[str, Any] | None = None
        self._seen: dict[str, Any] = {}
        self._learnt = False
        self._racy_after_ns = 0

    def start(self) -> None:
        """A read of the scopes begins."""
        if self._known is None:
            self._known = self._load()
        self._racy_after_ns = self._now_ns() - RACY_MARGIN_NS
        self._seen, self._learnt = {}, False

    def recall(self, path: str, info: os.stat_result) -> tuple[str, str] | None:
        """(blob, sha256) of the file at `path` as last read, if its stat is still the same."""
        entry = (self._known or {}).get(path)
        if not still_as_read(entry, info, 2):
            return None
        assert isinstance(entry, list)
        blob, sha256 = entry[4:]
        # A blob is used only where it is the repository's; a sha256 of another shape is read.
        if not (type(blob) is str and type(sha256) is str and len(sha256) == 64):
            return None
        self._seen[path] = entry
        return blob, sha256

    def learn(self, path: str, info: os.stat_result, blob: str, sha256: str) -> None:
        """Remember a file just read, as `info` (taken before it was read) says it was."""
        entry = remembered(info, self._racy_after_ns, (blob, sha256))
        if entry is not None:
            self._seen[path] = entry
            self._learnt = True

    def save(self) -> None:
        """Keep what this read saw if it differs: atomically, not durably (a failure is logged)."""
        known = self._known or {}
        if not self._learnt and len(self._seen) == len(known):
            return
        document = SeenFilesFile(
            version=SEEN_VERSION, home=self._home, target=self._target, files=self._seen
        ).to_json()
        data = json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode()
        # private (docs/formats.md §15.5): it names the memory's files
        if self._memo.write(data, failure=logging.WARNING):
            self._known, self._seen, self._learnt = self._seen, {}, False

    def _load(self) -> dict[str, Any]:
        data = self._memo.read()
        if data is None:  # missing, mostly: every file is read
            return {}
        try:
            document = parse_json(data)
        except JsonError:
            logger.info("The sync's cache %s is not JSON: ignored", self._memo.path)
            return {}
        cache = SeenFilesFile.read(document)
        if cache is None or (cache.home, cache.target) != (self._home, self._target):
            return {}
        return cache.files


SYNC_ACTOR = "sync"


class ProjectScopeStore(MemoryStore):
    """The project scope of one project identity, without a workspace."""

    def __init__(self, home: Home, identity: str, *, actor: str, run_id: str | None) -> None:
        super().__init__(home, None, actor=actor, run_id=run_id)
        self.identity = identity

    @property
    def project_path(self) -> str | None:
        return self.identity

    def unavailable_reason(self, scope: Scope) -> str | None:
        if scope is Scope.PROJECT:
            return None
        return "Only the project scope is synced through this store"

    def root(self, scope: Scope) -> Path:
        if scope is not Scope.PROJECT:
            raise ScopeUnavailableError(self.unavailable_reason(scope) or "")
        return self.home.project_root(self.identity)


def open_scope_store(
    home: Home, synced: SyncedScope, *, actor: str = SYNC_ACTOR, run_id: str | None = None
) -> MemoryStore:
    """A store of the scope the target carries; SyncSetupError when it cannot be had here."""
    if synced.kind == "global":
        return MemoryStore(home, None, actor=actor, run_id=run_id)
    assert synced.key is not None
    if synced.kind == "project":
        return ProjectScopeStore(home, synced.key, actor=actor, run_id=run_id)
    workspace = load_registry(home).workspace(synced.key)
    if workspace is None:
        raise SyncSetupError(f"The workspace {synced.key} is not registered in {home.root}")
    return MemoryStore(home, workspace, actor=actor, run_id=run_id)


@dataclass(frozen=True)
class LocalFile:
    """A file here: its bytes, git blob id and sha256; `data` None: unchanged since read and the
    repository's."""

    data: bytes | None
    blob: str
    sha256: str

    def content(self) -> bytes:
        """Its bytes, read where a sync uses them."""
        if self.data is None:
            raise AssertionError(f"a content sync did not read ({self.blob[:12]}) was asked for")
        return self.data


@dataclass
class ScopeFiles:
    """What a scope holds, by repository path; `left_out` and what is below `too_deep` are neither
    exported nor imported."""

    files: dict[str, LocalFile]
    left_out: set[str]
    problems: list[str]
    too_deep: list[str] = field(default_factory=list)

    def leaves_out(self, path: str) -> bool:
        """Whether a repository path is left as it is, here and in the repository."""
        return path in self.left_out or any(path.startswith(f"{d}/") for d in self.too_deep)


def _stat_scope(
    scope: Scope, root: Path | None, walked: Mapping[str, os.stat_result] | None
) -> tuple[dict[str, os.stat_result], tuple[VirtualPath, ...], str | None]:
    """The files `list_scope` lists with their `lstat` (those `walked` holds not again), the
    too-deep folders, and why the root could not be read."""
    if root is None:
        return {}, (), None
    walk = name_scope(root)
    files: dict[str, os.stat_result] = {}
    head = scope.virtual_root + "/"
    for folder in walk.folders:
        inside = "".join(f"{name}/" for name in folder.segments)
        unseen: list[str] = []
        for name in folder.files:
            info = walked.get(head + inside + name) if walked else None
            if info is None:
                unseen.append(name)
            else:
                files[inside + name] = info
        if unseen:
            files.update(stat_names(folder.path, unseen, inside))
    return files, note_too_deep(scope, root, walk.too_deep), walk.error


def read_scope(
    store: MemoryStore,
    synced: SyncedScope,
    blob_id: Callable[[bytes], str],
    *,
    seen: SeenFiles | None = None,
    held: Mapping[str, str] | None = None,
    wanted: Container[str] = (),
    walked: Mapping[str, os.stat_result] | None = None,
) -> ScopeFiles:
    """Every file of the scope; with `seen`, one unchanged since read holding `held`'s blob is not
    read again unless `wanted`."""
    result = ScopeFiles({}, set(), [])
    scope = synced.scope
    try:
        root = None if store.unavailable_reason(scope) else store.root(scope)
        listed, too_deep, unread_root = _stat_scope(scope, root, walked)
    except (MemoryStoreError, PathError, OSError) as error:
        result.problems.append(f"{synced.label}: {error}")
        return result
    if unread_root:
        result.problems.append(f"{synced.label}: {unread_root}")
    for folder in too_deep:  # docs/formats.md §5
        result.too_deep.append(synced.repo_path(folder))
        result.problems.append(f"{synced.label}: not synced: {too_deep_words(folder)}")
    paths = {
        VirtualPath(scope, tuple(relative.split("/"))): info for relative, info in listed.items()
    }
    copies = find_copies(paths)
    by_folder: dict[VirtualPath, list[tuple[VirtualPath, os.stat_result]]] = {}
    for path, info in paths.items():
        if path in copies:
            result.left_out.add(synced.repo_path(path))
        else:
            by_folder.setdefault(path.parent, []).append((path, info))
    for folder, files in by_folder.items():
        unread = []  # one directory opened per folder with files to read, never through a symlink
        for path, info in files:
            repo_path = synced.repo_path(path)
            if seen is not None and repo_path not in wanted:
                known = seen.recall(repo_path, info)
                if known is not None and known[0] == (held or {}).get(repo_path):
                    result.files[repo_path] = LocalFile(None, *known)
                    continue
            unread.append((path, repo_path, info))
        if not unread:
            continue
        assert root is not None
        try:
            directory = open_scope_directory(root, folder, target=folder, create=False)
        except NotFoundError:
            continue  # gone since the listing
        except (MemoryStoreError, PathError) as error:
            for path, _, _ in unread:
                _left_out(result, synced, path, error)
            continue
        with directory:
            for path, repo_path, info in unread:
                try:
                    data = read_whole(directory, path.name)
                except OSError as error:
                    _left_out(result, synced, path, error.strerror or error)
                    continue
                if data is not None:  # else gone since the listing
                    local = LocalFile(data, blob_id(data), hashlib.sha256(data).hexdigest())
                    result.files[repo_path] = local
                    if seen is not None and info is not None:
                        seen.learn(repo_path, info, local.blob, local.sha256)
    return result


def _left_out(result: ScopeFiles, synced: SyncedScope, path: VirtualPath, why: object) -> None:
    result.left_out.add(synced.repo_path(path))
    result.problems.append(f"{path} is not synced: {why}")


def record_outside_changes(
    store: MemoryStore, synced: SyncedScope
) -> tuple[list[str], dict[str, os.stat_result]]:
    """Record other programs' changes in the scope first; the warnings, walked files' `lstat`."""
    walked: dict[str, os.stat_result] = {}
    return record_external(store, scopes=(synced.scope,), walked=walked).warnings(), walked


def write_file(
    store: MemoryStore, path: VirtualPath, data: bytes | None, expected_sha256: str | None
) -> None:
    """Bring a merged content into the scope (None: remove) only if it holds `expected_sha256`;
    SaveConflictError, CapError, ScopeUnavailableError, MemoryStoreError."""
    op: Op = "delete" if data is None else ("create" if expected_sha256 is None else "edit")
    store.restore_content(path, data, expected_sha256=expected_sha256, op=op, count_as_write=False)


def scope_root(store: MemoryStore, synced: SyncedScope) -> Path | None:
    try:
        return store.root(synced.scope)
    except ScopeUnavailableError:
        return None
