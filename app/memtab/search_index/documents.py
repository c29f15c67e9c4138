"""What the search index holds of a file (docs/formats.md §22.11): the listed file as the
index takes it (`IndexedFile`), its document (`document_of`: its words for BM25, its label
and text as they are, its number; its stamp is in its root's manifest), and what a
searcher reads back of documents.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

import tantivy

from memtab.fs.readable import read_readable_path
from memtab.search_index.ranking import LABEL_WEIGHT, cjk_runs, has_cjk, tokens
from memtab.store.description_cache import Stamp, changed_since, stamp_of
from memtab.store.files import MAX_FILE_BYTES, capped_text, read_description
from memtab.store.text.frontmatter import DESCRIPTION_PREFIX_BYTES, description_from_prefix


@dataclass(frozen=True, slots=True)
class IndexedFile:
    """A listed file as the index takes it: the root it was listed under (a scope root's
    path, a source's id) and its id there (virtual path or source file id), the words that
    name it (path, description), where its text is (None: `view` refuses it, indexed by
    its label only; `linked`: read through a link another agent's layout allows), and its
    stamp (None: changed too recently to trust one, read every time)."""

    root: str
    id: str
    label: str
    physical: str | None
    stamp: Stamp | None
    linked: bool = False
    described: str | None = None
    """When given, the label is `label` and the description `list` reads in this file's
    first 4 KiB: read only if the file is indexed, with its text (a stat walk's listing
    reads no description it need not, and indexing opens each file once)."""


def trusted_stamp(info: os.stat_result, racy_after_ns: int) -> Stamp | None:
    """A file's stamp from its stat (`store.description_cache.stamp_of`); None when it
    was modified too recently to trust one (`changed_since`, formats §15.4)."""
    return None if changed_since(info, racy_after_ns) else stamp_of(info)


def words_query(schema: Any, asked: str) -> Any:
    """The query of one term of `ranking.query_terms` on the words: a word, or a CJK run's
    bigrams — each scored as a word (as a phrase is where they stand only in it), found
    where they stand in a row in one run (`cjk`, a filter)."""
    if " " not in asked:
        return tantivy.Query.term_query(schema, "words", term(asked))
    bigrams: list[str | tuple[int, str]] = list(term(asked).split(" "))
    in_a_row = tantivy.Query.phrase_query(schema, "cjk", bigrams)
    clauses = [(tantivy.Occur.Must, tantivy.Query.term_query(schema, "words", bigram))
               for bigram in bigrams]  # fmt: skip
    clauses.append((tantivy.Occur.Must, tantivy.Query.const_score_query(in_a_row, 0.0)))
    return tantivy.Query.boolean_query(clauses)


def matching(searcher: Any, query: Any) -> list[Any]:
    """The addresses of every document `query` matches, in no order (asked for as many as
    there are documents: a larger limit costs its room, tantivy keeps twice the limit for
    the best)."""
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
    """`text` as the engine takes it (valid UTF-8: a lone surrogate becomes U+FFFD), the
    same way when a document is written and when it is asked for."""
    if text.isascii():  # most are: known at once, no encoding of a whole text
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogatepass").decode("utf-8", "replace")
    return text


def document_of(file: IndexedFile, number: int) -> Any:
    """The document of `file`: its words for BM25 (its label, path and description,
    `LABEL_WEIGHT` times, then its text: the label weighted), its label and text as they
    are (for a result's line, the window's matching lines), its number (its stamp is in
    its root's manifest, `search_index.manifest`)."""
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
    """What the index's tokenizer reads of `text` (letters and digits, lowercased): the
    text casefolded (`Straße` is `strasse`, as a query's words are), and a text holding
    CJK as its words, each run as its bigrams (`ranking.tokens`, docs/formats.md §22.11)."""
    if has_cjk(text):
        return " ".join(tokens(text))
    return text if text.isascii() else text.casefold()


def readable_text(file: IndexedFile) -> tuple[str, bytes, bytes | None]:
    """The text `view` would show of `file` (the one readability rule, the cap, no NUL),
    "" when it would refuse it; that text's UTF-8 (the bytes read, when they are valid);
    and the first 4 KiB read of it (None: none read)."""
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
