"""Blame a file, mux's or another agent's, for the CLI and the window's workers; the walk over
versions is cached per file and newest version, so blaming again costs only the attribution."""

from __future__ import annotations

import hashlib
import math
import os
import re
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

from memtab.blame.attribution import Attributor, FileContext, Owners, owners_of
from memtab.blame.lines import normalized
from memtab.blame.records import AdHocNote, AdHocNoteSource, Blame, BlameLine
from memtab.file_protocol.file_ref import SourceError
from memtab.file_protocol.memory_file import MemoryFile, MuxFile
from memtab.sources.agent_file import AgentFile, SourceVersions
from memtab.sources.config import SourceContext
from memtab.sources.content import read_source_file
from memtab.sources.discovery import discover
from memtab.sources.layouts import CODEX_NOTES_DIR
from memtab.sources.listing import MAX_FILES_PER_SOURCE, find_file, source_file
from memtab.sources.model import Layout, Source, SourceFile
from memtab.store.actors import EXTERNAL
from memtab.store.errors import NotFoundError
from memtab.store.history.blobs import BlobError, BlobStore
from memtab.store.history.versions import Version
from memtab.store.home import Home
from memtab.store.paths import PathError, parse_file_path
from memtab.store.restore.from_history import file_history, text_of
from memtab.store.scopes.memory import MemoryStore

TAG = "[ad-hoc note]"
MAX_NOTES_NAMED = 3
MIN_SHARED = 2
MIN_SHARE = 1 / 3
"""Of the line's own words, the part a note must share."""

_TAGS = re.compile(r"\[(?:ad-hoc note|task \d+)\]", re.IGNORECASE)
_WORD = re.compile(r"\w+")
_SPACELESS = re.compile(r"[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\u3040-\u30ff]")
_COMMON = frozenset(
    {"the", "and", "for", "with", "that", "this", "not", "are", "was", "were", "you", "your"}
    | {"from", "into", "when", "then", "than", "have", "has", "had", "but", "all", "any"}
    | {"its", "use", "used", "can", "will", "should", "must"}
)


@dataclass(frozen=True)
class _Note:
    file: SourceFile
    words: frozenset[str]


def with_ad_hoc_notes(
    home: Home, source: Source, file: SourceFile, lines: Sequence[BlameLine]
) -> list[BlameLine]:
    """`lines` of a file of Codex's `memories/`, each tagged line no other source explains given
    its notes."""
    if source.layout is not Layout.CODEX_MEMORIES or file.relative.startswith("extensions/"):
        return list(lines)
    tagged = [line for line in lines if TAG in line.text.casefold() and line.source is None]
    if not tagged:
        return list(lines)
    notes = _notes(source)
    history = SourceVersions(home)
    described: dict[str, AdHocNote] = {}
    sources: dict[int, AdHocNoteSource] = {}
    for line in tagged:
        named = tuple(
            described.setdefault(note.file.id, _described(history, source, note.file))
            for note in _drawn_from(line.text, notes)
        )
        sources[line.line] = AdHocNoteSource(notes=named)
    return [
        line.replaced(source=sources[line.line]) if line.line in sources else line for line in lines
    ]


def words(text: str) -> frozenset[str]:
    """The words a line and a note are compared by: words of three letters or more but the
    commonest, tags left out; CJK as pairs of characters."""
    found: set[str] = set()
    for word in _WORD.findall(_TAGS.sub(" ", text).casefold()):
        if _SPACELESS.search(word):
            found.update(word[i : i + 2] for i in range(len(word) - 1))
        elif len(word) >= 3 and word not in _COMMON and not word.isdigit():
            found.add(word)
    return frozenset(found)


def _drawn_from(text: str, notes: Sequence[_Note]) -> list[_Note]:
    own = words(text)
    if not own:
        return []
    needed = max(min(MIN_SHARED, len(own)), math.ceil(len(own) * MIN_SHARE))
    scored = [(len(own & note.words), note) for note in notes]  # newest first
    found = sorted(((s, n) for s, n in scored if s >= needed), key=lambda pair: -pair[0])
    return [note for _, note in found[:MAX_NOTES_NAMED]]


def _notes(source: Source) -> list[_Note]:
    """The notes in `extensions/ad_hoc/notes/`, newest name first, read through the source."""
    folder = source.root.joinpath(*CODEX_NOTES_DIR.split("/"))
    try:
        with os.scandir(folder) as entries:
            names = sorted(
                (e.name for e in entries if e.name.endswith(".md") and not e.name.startswith(".")),
                reverse=True,
            )[:MAX_FILES_PER_SOURCE]
    except OSError:
        return []
    notes = []
    for name in names:
        file = source_file(source, f"{CODEX_NOTES_DIR}/{name}")
        if file is None:
            continue
        try:
            text = read_source_file(source, file).text
        except SourceError:
            continue
        notes.append(_Note(file, words(text)))
    return notes


def _described(history: SourceVersions, source: Source, file: SourceFile) -> AdHocNote:
    """Who wrote a note and when: Memtab when history's first version is Memtab's, else its agent
    at the note's mtime."""
    versions = history.versions(file.id)
    first = versions[-1] if versions else None
    if first is not None and first.actor != EXTERNAL:
        return AdHocNote(id=file.id, actor=first.actor, at=first.at)
    return AdHocNote(id=file.id, actor=source.agent, at=file.modified_at_ms)


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
