"""Substrings over the search index on disk: what the window's search asks the index
(docs/formats.md §22.11).

The window finds a file when each term of its query occurs, casefolded, in the file's
name, description or text — substrings, not words. The index ranks words (FTS5,
`unicode61`), so it gives candidates: a term's longest run of letters and digits lies
inside one word of the text, so only the files holding a word of the index's vocabulary
that contains that run (casefolded) may hold the term. The texts of the candidates are
then read from the index (no memory file is read) and checked by the caller. A term whose
run is shorter than `MIN_RUN` characters, that is inside more than `MAX_WORDS` words, or
whose words are in more than half the files (by FTS5's counts) has no candidates (`None`):
every text is checked, as a direct scan would. A term holding two or more CJK letters in
a row asks for them instead: the files where their bigrams (`ranking.tokens`) stand
adjacent, as in every text holding the term.

No table is added to the file: the vocabulary is FTS5's own, through a temporary
`fts5vocab` table of this connection, read again only after another connection wrote.
"""

from __future__ import annotations

import bisect
import contextlib
import os
from collections.abc import Collection, Iterator

from memtab.search_index.index import SearchIndex
from memtab.search_index.ranking import is_cjk, query_terms

# A run this short is inside too many words to narrow anything: every text is checked.
MIN_RUN = 3
MAX_WORDS = 400
# Words that together are in more than this share of the files narrow nothing.
BROAD_SHARE = 0.5
# Ids per query when texts are read by id.
_IDS_PER_QUERY = 400

Key = tuple[str, str]
"""A row of the index: (root, id), as `search_index.index.IndexedFile` names it."""


def longest_run(term: str) -> str:
    """The longest run of letters and digits in `term` (the first of equal ones)."""
    best = current = ""
    for char in term:
        if char.isalnum():
            current += char
            if len(current) > len(best):
                best = current
        else:
            current = ""
    return best


class SubstringReader:
    """A connection of its own to an index file, to find which files may hold a substring
    and read their texts. Use it from one thread at a time."""

    def __init__(self, index: SearchIndex) -> None:
        self.path = index.path
        self._index = index
        self._generation = index.generation
        self._connection = index.connect()
        self._connection.execute(
            "CREATE VIRTUAL TABLE IF NOT EXISTS temp.vocabulary USING fts5vocab(main, docs, row)"
        )
        self._inode = None if index.problem else os.stat(self.path).st_ino
        self._words: tuple[int, list[tuple[str, int]], str, list[int]] | None = None

    def close(self) -> None:
        self._connection.close()

    @contextlib.contextmanager
    def snapshot(self) -> Iterator[None]:
        """One read transaction: what is read inside it sees the file at one moment."""
        self._connection.execute("BEGIN")
        try:
            yield
        finally:
            self._connection.execute("COMMIT")

    def version(self) -> int:
        """Changes whenever another connection (another process's, or this one's index)
        committed to the file (`PRAGMA data_version`): as of now, or inside `snapshot` as
        of the snapshot. A read comes first: the value is the one the connection's last
        read found."""
        self._connection.execute("SELECT 1 FROM meta LIMIT 1").fetchall()
        version = int(self._connection.execute("PRAGMA data_version").fetchone()[0])
        # An index in memory: its writer's commits may not count in the data version.
        return version if self._inode is not None else version << 32 | self._index.changes()

    @property
    def replaced(self) -> bool:
        """Whether the index is no longer the one this connection reads (this or another
        process rebuilt it, it is gone, or it moved to memory)."""
        if self._index.generation != self._generation:
            return True
        if self._inode is None:
            return False
        try:
            return os.stat(self.path).st_ino != self._inode
        except FileNotFoundError:
            return True

    def holding(self, term: str, roots: Collection[str]) -> set[Key] | None:
        """The files under `roots` whose text may hold `term` (casefolded), None when any
        may (see the module docstring)."""
        run = longest_run(term)
        phrases = [part for part in query_terms(run) if len(part) > 1 and is_cjk(part)]
        if phrases:
            expression = '"' + max(phrases, key=len) + '"'
        else:
            run = longest_run("".join(" " if is_cjk(char) else char for char in run))
            if len(run) < MIN_RUN:
                return None
            words = self._matching_words(run)
            if words is None:
                return None
            if not words:
                return set()
            if sum(count for _, count in words) > BROAD_SHARE * self._file_count():
                return None  # in most files: narrows nothing worth a query
            expression = " OR ".join('"' + word.replace('"', '""') + '"' for word, _ in words)
        rows = self._connection.execute(
            "SELECT f.root, f.id FROM docs JOIN files f ON f.rowid = docs.rowid WHERE docs MATCH ?",
            (f"body : ({expression})",),
        )
        return {(str(root), str(key)) for root, key in rows if root in roots}

    def rows(self, roots: Collection[str]) -> set[Key]:
        """Every row under `roots`."""
        found: set[Key] = set()
        for root in roots:
            for (key,) in self._connection.execute("SELECT id FROM files WHERE root = ?", (root,)):
                found.add((root, str(key)))
        return found

    def texts(self, keys: Collection[Key]) -> dict[Key, str]:
        """The text the index holds for each of `keys` it has a row for."""
        by_root: dict[str, list[str]] = {}
        for root, key in keys:
            by_root.setdefault(root, []).append(key)
        found: dict[Key, str] = {}
        for root, ids in by_root.items():
            for first in range(0, len(ids), _IDS_PER_QUERY):
                part = ids[first : first + _IDS_PER_QUERY]
                marks = ",".join("?" * len(part))
                rows = self._connection.execute(
                    "SELECT f.id, coalesce(d.body_text, d.body) FROM files f"
                    f" JOIN docs d ON d.rowid = f.rowid WHERE f.root = ? AND f.id IN ({marks})",
                    (root, *part),
                )
                for key, body in rows:
                    found[root, str(key)] = str(body)
        return found

    def _file_count(self) -> int:
        return int(self._connection.execute("SELECT count(*) FROM files").fetchone()[0])

    def _matching_words(self, run: str) -> list[tuple[str, int]] | None:
        """The vocabulary's words whose casefolded form contains `run`, with how many files
        hold each; None past `MAX_WORDS`."""
        _, words, folded, starts = self._vocabulary()
        matched: list[tuple[str, int]] = []
        at = folded.find(run)
        while at != -1:
            index = bisect.bisect_right(starts, at) - 1
            matched.append(words[index])
            if len(matched) > MAX_WORDS:
                return None
            next_start = starts[index + 1] if index + 1 < len(starts) else len(folded)
            at = folded.find(run, next_start)
        return matched

    def _vocabulary(self) -> tuple[int, list[tuple[str, int]], str, list[int]]:
        """The index's words with how many files hold each, and their casefolded forms
        joined by line breaks with where each starts; read again when the file changed."""
        if not self._connection.in_transaction:
            with self.snapshot():  # the words and their version of one moment
                return self._vocabulary()
        version = self.version()
        if self._words is not None and self._words[0] == version:
            return self._words
        words = [
            (str(word), int(count))
            for word, count in self._connection.execute("SELECT term, doc FROM vocabulary")
        ]
        starts: list[int] = []
        parts: list[str] = []
        at = 0
        for word, _ in words:
            folded = word.casefold()
            starts.append(at)
            parts.append(folded)
            at += len(folded) + 1
        self._words = (version, words, "\n".join(parts), starts)
        return self._words
