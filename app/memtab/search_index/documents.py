"""What the search index holds of a file (docs/formats.md §22.11) and what a searcher reads back."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

import tantivy

from memtab.fs.memo import Stamp, changed_since, stamp_of
from memtab.fs.readable import read_readable_path
from memtab.search_index.ranking import LABEL_WEIGHT, cjk_runs, has_cjk, tokens
from memtab.store.files import MAX_FILE_BYTES, capped_text, read_description
from memtab.store.text.frontmatter import DESCRIPTION_PREFIX_BYTES, description_from_prefix


@dataclass(frozen=True, slots=True)
class IndexedFile:
    """A listed file as the index takes it: its root and id there, the words naming it, where its
    text is (None: label only; `linked`), and its stamp (None: read every time)."""

    root: str
    id: str
    label: str
    physical: str | None
    stamp: Stamp | None
    linked: bool = False
    described: str | None = None
    """When given, the label is `label` and this the description read with the text at indexing."""


def trusted_stamp(info: os.stat_result, racy_after_ns: int) -> Stamp | None:
    """A file's stamp from its stat; None when too recent to trust (formats §15.4)."""
    return None if changed_since(info, racy_after_ns) else stamp_of(info)


def words_query(schema: Any, asked: str) -> Any:
    """The query of one `ranking.query_terms` term: a word, or a CJK run's bigrams in a row."""
    if " " not in asked:
        return tantivy.Query.term_query(schema, "words", term(asked))
    bigrams: list[str | tuple[int, str]] = list(term(asked).split(" "))
    in_a_row = tantivy.Query.phrase_query(schema, "cjk", bigrams)
    clauses = [(tantivy.Occur.Must, tantivy.Query.term_query(schema, "words", bigram))
               for bigram in bigrams]  # fmt: skip
    clauses.append((tantivy.Occur.Must, tantivy.Query.const_score_query(in_a_row, 0.0)))
    return tantivy.Query.boolean_query(clauses)


def matching(searcher: Any, query: Any) -> list[Any]:
    """The addresses of every document `query` matches, in no order."""
    every = max(1, int(searcher.num_docs))
    return [address for _, address in searcher.search(query, every, count=False).hits]


def first(document: Any, field: str) -> str:
    """A stored field's first value as text ("" when it has none)."""
    value = document.get_first(field)
    return "" if value is None else value.decode("utf-8", "surrogatepass")


def _utf8(text: str) -> bytes:
    """`text` as stored, whole (a lone surrogate, as a name that is no UTF-8 holds, kept)."""
    return text.encode("utf-8", "surrogatepass")


def term(text: str) -> str:
    """`text` as the engine takes it (a lone surrogate as U+FFFD), alike when written and asked."""
    if text.isascii():  # most are: known at once, no encoding of a whole text
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogatepass").decode("utf-8", "replace")
    return text


def document_of(file: IndexedFile, number: int) -> Any:
    """The document of `file`: its words for BM25 (the label `LABEL_WEIGHT` times, then its text),
    label and text as they are, its number."""
    body, stored, head = readable_text(file)
    label = file.label
    if file.described is not None:
        if head is None or file.described != file.physical:
            description = read_description(file.described)
        else:
            description = "" if b"\x00" in head else description_from_prefix(head)
        label = f"{label}\n{description}"
    words = "\n".join([label] * LABEL_WEIGHT + [body])
    document = tantivy.Document(root=term(file.root), words=term(fed(words)))
    if has_cjk(words):
        document.add_text("cjk", term(cjk_runs(words.casefold())))
    document.add_bytes("id", _utf8(file.id))
    document.add_bytes("label", _utf8(label))
    document.add_bytes("body", stored)
    document.add_unsigned("number", number)
    return document


def fed(text: str) -> str:
    """What the index's tokenizer reads of `text`: casefolded, CJK runs as bigrams (docs/formats.md
    §22.11)."""
    if has_cjk(text):
        return " ".join(tokens(text))
    return text if text.isascii() else text.casefold()


def readable_text(file: IndexedFile) -> tuple[str, bytes, bytes | None]:
    """The text `view` would show of `file` ("" when refused), its UTF-8, and its first 4 KiB read
    (None: none)."""
    if file.physical is None:
        return "", b"", None
    try:
        data = read_readable_path(file.physical, limit=MAX_FILE_BYTES + 1, follow_link=file.linked)
    except OSError:
        return "", b"", None
    content, encoded, over_cap = capped_text(data)
    head = data[:DESCRIPTION_PREFIX_BYTES]
    if over_cap or b"\x00" in encoded:
        return "", b"", head
    return content, encoded, head
