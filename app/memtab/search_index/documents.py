"""What the search index holds of a file (docs/formats.md §22.11): the listed file as the
index takes it (`IndexedFile`), its document (`document_of`: its words for BM25, its label
and text as they are, its number and stamp), and what a searcher reads back of documents.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import tantivy

from memtab.search_index.ranking import LABEL_WEIGHT, has_cjk, tokens
from memtab.store.files import read_file_content

Stamp = tuple[int, int, int, int]
"""What any write to a file or over it changes: (size, mtime_ns, ctime_ns, inode)."""


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
    labelled: Callable[[], str] | None = None
    """When given, the label is this call's answer, asked only if the file is indexed (a
    stat walk's listing reads no description it need not)."""


def words_query(schema: Any, asked: str) -> Any:
    """The query of one term of `ranking.query_terms` on the words: a word, or a CJK run's
    bigrams in a row (a phrase)."""
    if " " not in asked:
        return tantivy.Query.term_query(schema, "words", term(asked))
    words: list[str | tuple[int, str]] = list(term(asked).split(" "))
    return tantivy.Query.phrase_query(schema, "words", words)


def every(searcher: Any) -> int:
    """How many results a search for every match asks for: as many as there are documents
    (a larger limit costs its room: tantivy keeps twice the limit for the best)."""
    return max(1, int(searcher.num_docs))


def matching(searcher: Any, query: Any) -> list[Any]:
    """The addresses of every document `query` matches, in no order."""
    return [address for _, address in searcher.search(query, every(searcher), count=False).hits]


def first(document: Any, field: str) -> str:
    """A stored field's first value as text ("" when it has none)."""
    values = document.get_all(field)
    if not values:
        return ""
    value = values[0]
    return value.decode("utf-8", "surrogatepass") if isinstance(value, bytes) else str(value)


def _utf8(text: str) -> bytes:
    """`text` as stored, whole (a lone surrogate, as a name that is no UTF-8 holds, kept)."""
    return text.encode("utf-8", "surrogatepass")


def term(text: str) -> str:
    """`text` as the engine takes it (valid UTF-8: a lone surrogate becomes U+FFFD), the
    same way when a document is written and when it is asked for."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogatepass").decode("utf-8", "replace")
    return text


def document_of(file: IndexedFile, number: int) -> Any:
    """The document of `file`: its words for BM25, its texts as they are (its stamp is
    in its root's manifest, `search_index.manifest`)."""
    label = file.label if file.labelled is None else file.labelled()
    body = readable_text(file)
    words = "\n".join([label] * LABEL_WEIGHT + [body])
    document = tantivy.Document(root=term(file.root), words=term(fed(words)))
    document.add_bytes("id", _utf8(file.id))
    document.add_bytes("label", _utf8(label))
    document.add_bytes("body", _utf8(body))
    document.add_unsigned("number", number)
    return document


def fed(text: str) -> str:
    """What the index's tokenizer reads of `text` (letters and digits, lowercased): the
    text casefolded (`Straße` is `strasse`, as a query's words are), and a text holding
    CJK as its words, each run as its bigrams (`ranking.tokens`, docs/formats.md §22.11)."""
    if has_cjk(text):
        return " ".join(tokens(text))
    return text if text.isascii() else text.casefold()


def readable_text(file: IndexedFile) -> str:
    """The text `view` would show of `file` (the one readability rule, the cap, no NUL),
    "" when it would refuse it."""
    if file.physical is None:
        return ""
    try:
        content = read_file_content(file.physical, follow_link=file.linked)
    except OSError:
        return ""
    return "" if content.over_cap or content.binary else content.content
