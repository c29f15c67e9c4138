"""Blame a file, mux's or another agent's, for the CLI and the window's workers; the walk over
versions is cached per file and newest version, so blaming again costs only the attribution."""

from __future__ import annotations

import hashlib
import os
import threading
from collections import OrderedDict
from collections.abc import Sequence

from memtab.blame.ad_hoc import with_ad_hoc_notes
from memtab.blame.attribution import Attributor, FileContext
from memtab.blame.lines import normalized
from memtab.blame.records import Blame
from memtab.blame.walk import Owners, owners_of
from memtab.file_protocol.memory_file import MemoryFile, MuxFile
from memtab.sources.agent_file import AgentFile, SourceVersions
from memtab.sources.config import SourceContext
from memtab.sources.content import read_source_file
from memtab.sources.discovery import discover
from memtab.sources.listing import find_file
from memtab.sources.model import Source, SourceFile
from memtab.store.errors import NotFoundError
from memtab.store.history.blobs import BlobError, BlobStore
from memtab.store.history.versions import Version
from memtab.store.home import Home
from memtab.store.paths import PathError, parse_file_path
from memtab.store.restore.from_history import file_history, text_of
from memtab.store.scopes.memory import MemoryStore

CACHE_SIZE = 32
"""Files whose owners are kept (a window blames the open file, and a few before it)."""

_cache: OrderedDict[tuple[str, ...], Owners] = OrderedDict()
_cache_lock = threading.Lock()


def blame_memory_file(store: MemoryStore, raw_path: str) -> Blame:
    """Blame a mux memory file as it is on disk (run `record_external` first). NotFoundError; the
    store's errors."""
    path = parse_file_path(raw_path)
    data = store.read_whole(path)
    if data is None:
        raise NotFoundError(f"No memory file at {path}")
    chain = list(reversed(file_history(store, path)))
    owners = _owners(store.home, str(path), chain, normalized(text_of(data)))
    workspace = store.workspace
    context = FileContext(
        workspace_id=workspace.id if workspace else None,
        project_path=store.project_path,
        mtime_ms=_mtime_ms(store, str(path)),
    )
    return Blame(path=str(path), lines=tuple(Attributor(store.home, chain, context).lines(owners)))


def blame_source_file(home: Home, source: Source, file: SourceFile) -> Blame:
    """Blame another agent's file as Memtab shows it now. SourceError."""
    shown = read_source_file(source, file)
    chain = list(reversed(SourceVersions(home).versions(file.id)))
    owners = _owners(home, file.id, chain, normalized(shown.text))
    context = FileContext(agent=source.agent, mtime_ms=file.modified_at_ms)
    lines = Attributor(home, chain, context).lines(owners)
    return Blame(path=file.id, lines=tuple(with_ad_hoc_notes(home, source, file, lines)))


def blame_file(file: MemoryFile) -> Blame:
    """Blame a memory file as the window opened it (the editor's gutter, on a worker)."""
    if isinstance(file, MuxFile):
        return blame_memory_file(file.store, str(file.path))
    if isinstance(file, AgentFile):
        return blame_source_file(file.home, file.source, file.file)
    raise TypeError(f"Cannot blame {type(file).__name__}")


def blame_file_id(home: Home, file_id: str) -> Blame:
    """Blame another agent's file by file id. SourceError when no source has it."""
    source, file = find_file(discover(SourceContext.load(home)), file_id)
    return blame_source_file(home, source, file)


def _owners(home: Home, path: str, chain: Sequence[Version], current: str) -> Owners:
    """`owners_of`, cached per file, newest version and text now."""
    digest = hashlib.sha256(current.encode("utf-8", "replace")).hexdigest()
    newest = chain[-1].id if chain else ""
    key = (str(home.root), path, newest, str(len(chain)), digest)
    with _cache_lock:
        found = _cache.get(key)
        if found is not None:
            _cache.move_to_end(key)
            return found
    owners = owners_of(chain, _Contents(home).text, current)
    with _cache_lock:
        _cache[key] = owners
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
    return owners


class _Contents:
    """Versions' texts from history's blobs, `normalized`."""

    def __init__(self, home: Home) -> None:
        self._blobs = BlobStore(home.history_blobs_dir)

    def text(self, sha256: str) -> str | None:
        try:
            return normalized(text_of(self._blobs.get(sha256)))
        except BlobError:
            return None  # pruned or damaged: the walk passes over it


def _mtime_ms(store: MemoryStore, path: str) -> int | None:
    try:
        return os.stat(store.physical(parse_file_path(path))).st_mtime_ns // 1_000_000
    except (OSError, PathError):
        return None
