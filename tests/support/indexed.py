"""What a test reads of a search index that Memtab itself never asks (`search_index`):
how many files it holds, and the label and text it holds of one."""

from __future__ import annotations

import tantivy

from memtab.search_index.documents import first
from memtab.search_index.index import SearchIndex
from memtab.search_index.opening import MANIFEST_FIELD


def indexed_count(index: SearchIndex) -> int:
    """How many files `index` holds (its roots' manifests not counted)."""
    searcher = index.searcher()
    manifests = tantivy.Query.regex_query(index.schema, MANIFEST_FIELD, ".*")
    return int(searcher.num_docs) - int(searcher.search(manifests, 1).count)


def indexed_document(index: SearchIndex, root: str, key: str) -> tuple[str, str] | None:
    """The label and the text `index` holds for `key` under `root` (None: not indexed)."""
    searcher = index.searcher()
    query = tantivy.Query.term_query(index.schema, "number", index.number(root, key))
    hits = searcher.search(query, 1, count=False).hits
    if not hits:
        return None
    stored = searcher.doc(hits[0][1])
    return first(stored, "label"), first(stored, "body")


def indexed_text(index: SearchIndex, root: str, key: str) -> str:
    """The text `index` holds for `key` under `root` ("" when none: refused by `view`, or
    not indexed)."""
    found = indexed_document(index, root, key)
    return found[1] if found is not None else ""
