"""Where a line Codex tagged `[ad-hoc note]` came from (docs/formats.md §20.2): the tag names no
note, so blame names the notes now there whose words the line shares most, with who wrote each."""

from __future__ import annotations

import math
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass

from memtab.blame.records import AdHocNote, AdHocNoteSource, BlameLine
from memtab.file_protocol.file_ref import SourceError
from memtab.sources.agent_file import SourceVersions
from memtab.sources.content import read_source_file
from memtab.sources.layouts import CODEX_NOTES_DIR
from memtab.sources.listing import MAX_FILES_PER_SOURCE, source_file
from memtab.sources.model import Layout, Source, SourceFile
from memtab.store.actors import EXTERNAL
from memtab.store.home import Home

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
