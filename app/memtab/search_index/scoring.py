"""How the index on disk scores a query (docs/formats.md §22.11): each word's BM25 part is
FTS5's `bm25()` for the word alone, scaled from FTS5's weight (floored, as FTS5 does,
where a word is in most files) to ours (`search_index.ranking`), and summed in the
query's order.

`bm25()` costs ~5 µs a file holding the word, so a word in every one of 20,000 files
takes ~100 ms where a rare one takes one. A word in more than `COMMON_FILES` files adds
little and at most `idf × (K1 + 1)` to any file's score (BM25's term-frequency part stays
below `K1 + 1`): when the query's rarer words alone put `limit` files further ahead of
every other than that bound, the best are among them, and only the few candidates the
common words could still reorder (`MAX_RESCORED`) get those words' scores, by rowid. The
answer is the same, file for file and score for score, as scoring every file.
"""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Collection, Iterable
from operator import itemgetter

from memtab.search_index.ranking import K1, idf

# FTS5's floor for the weight of a word in more than half the files.
_FTS5_FLOOR = 1e-6
# A word held by more files than this is scored last, and only where it can matter.
COMMON_FILES = 1000
# bm25() by rowid recounts the word's files for each one (~0.1 µs a file holding it):
# past this many candidates, scoring every file costs less.
MAX_RESCORED = 32
# Rounding between the bound and the sums it bounds.
_MARGIN = 1e-9


def best_files(
    connection: sqlite3.Connection,
    terms: list[str],
    limit: int,
    roots: set[str],
    among: Collection[str] | None,
) -> list[tuple[str, float]]:
    """The ids and scores of the best `limit` files under `roots` (among `among` when
    given) for the words `terms`, best first, ties by id."""
    count = int(connection.execute("SELECT count(*) FROM files").fetchone()[0])
    # Read in one transaction, no word is in more files than there are; a caller outside
    # one could see a writer's rows between the two counts.
    holding = {term: min(_holding(connection, term), count) for term in terms}
    common = [term for term in terms if holding[term] > COMMON_FILES]
    if common and len(common) < len(terms):
        best = _best_of_rare(connection, terms, common, holding, count, limit, roots, among)
        if best is not None:
            return best
    scores: dict[int, float] = {}
    for term in terms:
        gains = _gains(connection, term, count, holding[term])
        if not scores:
            scores = gains  # 0.0 + a gain is that gain
            continue
        for rowid, gain in gains.items():
            scores[rowid] = scores.get(rowid, 0.0) + gain
    return _best(connection, scores, limit, roots, among)


def _best_of_rare(
    connection: sqlite3.Connection,
    terms: list[str],
    common: list[str],
    holding: dict[str, int],
    count: int,
    limit: int,
    roots: set[str],
    among: Collection[str] | None,
) -> list[tuple[str, float]] | None:
    """`best_files` with the common words scored only for the files the rare ones leave
    in reach of the best (None: they do not decide it; score every file)."""
    gains = {
        term: _gains(connection, term, count, holding[term]) for term in terms if term not in common
    }
    partial: dict[int, float] = {}
    for term in terms:
        for rowid, gain in gains.get(term, {}).items():
            partial[rowid] = partial.get(rowid, 0.0) + gain
    names = {
        rowid: key
        for rowid, key in _ids(connection, list(partial), roots).items()
        if among is None or key in among
    }
    if len(names) < limit:
        return None
    bound = sum(idf(count, holding[term]) * (K1 + 1) for term in common)
    bound = bound * (1 + _MARGIN) + _MARGIN
    last = sorted((partial[rowid] for rowid in names), reverse=True)[limit - 1]
    if last <= bound:
        return None  # a file holding only the common words could be among the best
    reach = [rowid for rowid in names if partial[rowid] + bound >= last]
    if len(reach) > MAX_RESCORED:
        return None
    for term in common:
        gains[term] = _gains(connection, term, count, holding[term], reach)
    scores: dict[int, float] = {}
    for rowid in reach:
        score = 0.0
        for term in terms:  # the same sum, in the same order, as scoring every file
            part = gains[term].get(rowid)
            if part is not None:
                score += part
        scores[rowid] = score
    ranked = sorted(((score, names[rowid]) for rowid, score in scores.items()),
                    key=lambda item: (-item[0], item[1]))  # fmt: skip
    return [(key, score) for score, key in ranked[:limit]]


def _phrase(term: str) -> str:
    return '"' + term.replace('"', '""') + '"'


def _holding(connection: sqlite3.Connection, term: str) -> int:
    """How many files hold `term` (no score computed: a millisecond for 20,000)."""
    row = connection.execute(
        "SELECT count(*) FROM docs WHERE docs MATCH ?", (_phrase(term),)
    ).fetchone()
    return int(row[0])


def _gains(
    connection: sqlite3.Connection,
    term: str,
    count: int,
    holding: int,
    rowids: Iterable[int] | None = None,
) -> dict[int, float]:
    """One word's BM25 part in each file holding it (only the files at `rowids`, when
    given): FTS5's score for the word alone, scaled from its weight to ours."""
    if not holding:
        return {}
    fts5_weight = max(math.log((count - holding + 0.5) / (holding + 0.5)), _FTS5_FLOOR)
    scale = -idf(count, holding) / fts5_weight  # bm25() is negative: lower is better
    # Scaled by SQLite (the same double product) and gathered by `dict`: no Python loop
    # over 20,000 rows.
    query = "SELECT rowid, bm25(docs) * ? FROM docs WHERE docs MATCH ?"
    arguments: list[object] = [scale, _phrase(term)]
    if rowids is not None:
        wanted = list(rowids)
        query += f" AND rowid IN ({','.join('?' * len(wanted))})"
        arguments += wanted
    return dict(connection.execute(query, arguments))


def _best(
    connection: sqlite3.Connection,
    scores: dict[int, float],
    limit: int,
    roots: set[str],
    among: Collection[str] | None,
) -> list[tuple[str, float]]:
    """The `limit` best of `scores` (by rowid) under `roots` and among `among`, best
    first, ties by id: ids are looked up in batches down the ranking until no later file
    can enter it."""
    if not scores:
        return []
    ranked = sorted(scores.items(), key=itemgetter(1), reverse=True)
    found: list[tuple[float, str]] = []
    batch = max(limit * 4, 256)
    for first in range(0, len(ranked), batch):
        part = ranked[first : first + batch]
        if len(found) >= limit and part[0][1] < sorted(s for s, _ in found)[-limit]:
            break  # no later file can enter the best
        names = _ids(connection, [rowid for rowid, _ in part], roots)
        for rowid, score in part:
            key = names.get(rowid)
            if key is not None and (among is None or key in among):
                found.append((score, key))
    found.sort(key=lambda item: (-item[0], item[1]))
    return [(key, score) for score, key in found[:limit]]


def _ids(connection: sqlite3.Connection, rowids: list[int], roots: set[str]) -> dict[int, str]:
    """The ids of the files at `rowids` under `roots` (looked up 500 at a time)."""
    found: dict[int, str] = {}
    for first in range(0, len(rowids), 500):
        part = rowids[first : first + 500]
        marks = ",".join("?" * len(part))
        rows = connection.execute(
            f"SELECT rowid, root, id FROM files WHERE rowid IN ({marks})", part
        )
        found.update((int(rowid), str(key)) for rowid, root, key in rows if root in roots)
    return found
