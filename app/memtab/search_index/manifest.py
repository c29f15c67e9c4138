"""What the index holds of each root, one stored document per root committed with its documents
(docs/formats.md §22.11): ids as NUL-joined UTF-8, stamps as four 64-bit arrays, compared with a
listing as two mappings."""

from __future__ import annotations

import array
from collections.abc import Mapping
from typing import Any

import tantivy

from memtab.search_index.documents import term
from memtab.store.description_cache import Stamp

MANIFEST_FIELD = "manifest"
"""The root a manifest document is of (raw; no file's document has it)."""
STAMPS_FIELD = "stamps"
NO_STAMP = 2**64 - 1
"""The size a file without a stamp is kept with (no file is that long)."""
_HEAD = 8  # the byte length of the ids, little-endian
_ITEM = 8  # each array's item (`Q`, `q`)


class ManifestDamagedError(ValueError):
    """A manifest that cannot be read back: the index is damaged (rebuilt: "corrupt")."""


def encode(rows: Mapping[str, Stamp | None]) -> bytes:
    """`rows` (id → stamp) as stored."""
    ids = "\0".join(rows).encode("utf-8", "surrogatepass")
    stamps = [(NO_STAMP, 0, 0, 0) if stamp is None else stamp for stamp in rows.values()]
    sizes, mtimes, ctimes, inodes = zip(*stamps, strict=True) if stamps else ((), (), (), ())
    return b"".join(
        [
            len(ids).to_bytes(_HEAD, "little"),
            ids,
            array.array("Q", sizes).tobytes(),
            array.array("q", mtimes).tobytes(),
            array.array("q", ctimes).tobytes(),
            array.array("Q", inodes).tobytes(),
        ]
    )


def _ids_in(blob: bytes) -> list[str]:
    """The ids `encode` stored in `blob`; ManifestDamagedError otherwise."""
    length = int.from_bytes(blob[:_HEAD], "little")
    try:
        ids = blob[_HEAD : _HEAD + length].decode("utf-8", "surrogatepass").split("\0")
    except UnicodeDecodeError as error:
        raise ManifestDamagedError(f"search index manifest corrupt ({error})") from error
    if length == 0:
        ids = []
    if len(blob) != _HEAD + length + 4 * _ITEM * len(ids):
        raise ManifestDamagedError(f"search index manifest corrupt ({len(blob)} bytes)")
    return ids


def decode(blob: bytes) -> dict[str, Stamp | None]:
    """The rows `encode` stored; ManifestDamagedError when `blob` is not such."""
    ids = _ids_in(blob)
    count = len(ids)
    at, size = len(blob) - 4 * _ITEM * count, _ITEM * count
    columns = [
        array.array(kind, blob[at + n * size : at + (n + 1) * size])
        for n, kind in enumerate("QqqQ")
    ]
    rows: dict[str, Stamp | None] = dict(zip(ids, zip(*columns, strict=True), strict=True))
    if NO_STAMP in columns[0]:
        for key, stamp in rows.items():
            if stamp is not None and stamp[0] == NO_STAMP:
                rows[key] = None
    return rows


def manifest_document(root: str, rows: Mapping[str, Stamp | None]) -> Any:
    """The document that says what the index holds under `root`."""
    document = tantivy.Document()
    document.add_text(MANIFEST_FIELD, term(root))
    document.add_bytes(STAMPS_FIELD, encode(rows))
    return document


def manifests_query(schema: Any, roots: list[str]) -> Any:
    """The manifest documents of `roots`."""
    return tantivy.Query.term_set_query(schema, MANIFEST_FIELD, [term(root) for root in roots])


def read_manifest(searcher: Any, schema: Any, root: str) -> dict[str, Stamp | None]:
    """What `searcher`'s commit holds under `root` (id → stamp; empty when nothing)."""
    blob = _stored(searcher, schema, root)
    return decode(blob) if blob is not None else {}


def read_ids(searcher: Any, schema: Any, root: str) -> list[str]:
    """The ids `searcher`'s commit holds under `root`."""
    blob = _stored(searcher, schema, root)
    return _ids_in(blob) if blob is not None else []


def _stored(searcher: Any, schema: Any, root: str) -> bytes | None:
    """The manifest of `root` in `searcher`'s commit, as stored (None: none)."""
    query = tantivy.Query.term_query(schema, MANIFEST_FIELD, term(root))
    hits = searcher.search(query, 1, count=False).hits
    if not hits:
        return None
    values = searcher.doc(hits[0][1]).get_all(STAMPS_FIELD)
    return bytes(values[0]) if values else None
