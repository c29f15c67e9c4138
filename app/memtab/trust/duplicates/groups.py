"""The groups the duplicates engine shows, in words (docs/formats.md §19.5): a copy's
(what is the same, where), a rewording's (how much of what they say is shared, the words
it rests on, as written)."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from memtab.check.documents import Document
from memtab.store.text.near_duplicates import lowered_words
from memtab.store.text.stems import english_stem
from memtab.trust.duplicates.meaning import POLARITIES
from memtab.trust.duplicates.records import DuplicateGroup, group_key, listed
from memtab.trust.memories import place_of, where_in_words

IMPORT_FOLDER = "external_agent_import/"
"""Where Codex keeps what it imported of another agent's memory."""


def copy_group(
    documents: Sequence[Document], contents: Sequence[bytes], texts: Sequence[bytes]
) -> DuplicateGroup:
    """Memories of one text (`texts`: each one's digest; `contents`: each one's content's)."""
    places = tuple(place_of(d) for d in documents)
    return DuplicateGroup(
        kind="copy",
        similarity=1.0,
        why=_copies_why(documents, set(contents)),
        members=places,
        key=group_key(places, list(texts)),
    )


def _copies_why(documents: Sequence[Document], contents: Collection[bytes]) -> str:
    imported = [d for d in documents if IMPORT_FOLDER in d.path]
    originals = [d for d in documents if IMPORT_FOLDER not in d.path]
    if imported and originals:
        return (
            f"The same text: {_count(imported, 'is', 'are')} Codex's import of "
            f"{where_in_words(place_of(originals[0]))}'s {_name(originals[0])}"
        )
    texts = {d.packed for d in documents}  # one text, one packing: no text unpacked
    wheres = {where_in_words(place_of(d)) for d in documents}
    what = "the same text"
    if len(contents) > 1:
        what += ", laid out otherwise (a list in one, prose or other markup in another)"
    elif len(texts) > 1:
        what += ", under other frontmatter or spacing"
    if len(wheres) == 1:
        return f"{what[0].upper()}{what[1:]}, {len(documents)} times in {wheres.pop()}"
    return f"{what[0].upper()}{what[1:]}, in {listed(sorted(wheres))}"


def reworded_group(
    documents: Sequence[Document],
    words: Sequence[Any],
    representatives: Sequence[Document],
    contents: Sequence[bytes],
    similarity: float,
    weight: Mapping[str, float],
) -> DuplicateGroup:
    """Memories alike in words (`documents`, the copies of each among them; `words`: the
    `NoteWords` of each one `representatives` holds), as a candidate."""
    places = tuple(place_of(d) for d in documents)
    shared = frozenset.intersection(*(w.stems for w in words)) - POLARITIES
    top = sorted(shared, key=lambda s: (-weight.get(s, 0.0), s))[:4]
    shown = _as_written(top, representatives)
    copies = len(documents) - len(representatives)
    why = (
        f"Might be the same note in other words: {round(similarity * 100)}% of what they say "
        f"is shared ({', '.join(shown)}…)"
    )
    if copies:
        why += f"; {_count_of(copies, 'copy', 'copies')} of one of them too"
    return DuplicateGroup(
        kind="reworded",
        similarity=round(similarity, 3),
        why=why,
        members=places,
        key=group_key(places, list(contents)),
    )


def _as_written(stems: Sequence[str], documents: Sequence[Document]) -> list[str]:
    """Each stem as the first of the documents writes it."""
    wanted = set(stems)
    written: dict[str, str] = {}
    for document in documents:
        for word in lowered_words(document.text):
            found = english_stem(word) if len(word) > 1 else ""
            if found in wanted and found not in written:
                written[found] = word
        if len(written) == len(wanted):
            break
    return [written.get(s, s) for s in stems]


def _name(document: Document) -> str:
    return document.path.rsplit("/", 1)[-1].rsplit(":", 1)[-1]


def _count(documents: Sequence[Document], one: str, many: str) -> str:
    if len(documents) == 1:
        return f"{_name(documents[0])} {one}"
    return f"{len(documents)} files {many}"


def _count_of(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"
