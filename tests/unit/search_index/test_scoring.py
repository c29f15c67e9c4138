"""A word in most files is scored only where it can still change the best: the answer is
the one scoring every file gives — the same files, order and scores — with that word's
scores read for a handful of files instead of all (docs/formats.md §22.11)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from memtab.search_index import scoring
from memtab.search_index.index import IndexedFile, SearchIndex

ROOTS = ("r",)


def test_a_common_word_is_scored_only_for_the_files_it_can_reorder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(54)
    files = []
    for number in range(400):
        # "common" in every file, as often as chance says; rare words in a few.
        words = ["common"] * rng.randint(1, 4) + rng.choices(["filler", "more", "text"], k=40)
        words += [f"rare{rng.randint(0, 30)}" for _ in range(rng.randint(0, 2))]
        rng.shuffle(words)
        path = tmp_path / f"{number}.md"
        path.write_text(" ".join(words))
        files.append(IndexedFile("r", f"n{number}", f"n{number}", str(path), (number, 1, 1, 1)))
    index = SearchIndex(tmp_path / "index.sqlite3")
    index.refresh(files, ROOTS)
    rescored: list[int] = []
    original = scoring._gains

    def gains(*args: Any) -> Any:
        found = original(*args)
        if len(args) > 4:  # by rowid: the common word, for the files in reach
            rescored.append(len(found))
        return found

    monkeypatch.setattr(scoring, "_gains", gains)
    monkeypatch.setattr(scoring, "COMMON_FILES", 100)
    queries = ["rare3 common", "common rare7 rare12", "rare0 common filler", "common"]
    pruned = {query: index.search(query, ROOTS, limit=5) for query in queries}
    assert rescored and all(count <= scoring.MAX_RESCORED for count in rescored)
    monkeypatch.setattr(scoring, "COMMON_FILES", 10_000)  # every word scored in every file
    for query in queries:
        assert pruned[query] == index.search(query, ROOTS, limit=5), query
    index.close()


def test_a_search_beside_a_writer_never_counts_a_word_in_more_files_than_there_are(
    tmp_path: Path,
) -> None:
    """A search read the number of files, then a writer's new files, then how many hold
    a word: more than there were, and the weight's logarithm failed ("math domain
    error", seen by the search bench while the first indexing went on)."""
    folder = tmp_path / "files"
    folder.mkdir()
    files = []
    for number in range(6):
        path = folder / f"{number}.md"
        path.write_text("kestrel\n")
        files.append(IndexedFile("r", f"n{number}", f"n{number}", str(path), (number, 1, 1, 1)))
    index = SearchIndex(tmp_path / "index.sqlite3")
    index.refresh(files[:3], ROOTS)
    writer = SearchIndex(tmp_path / "index.sqlite3")
    connection = index._reader
    counted = connection.execute("SELECT count(*) FROM files").fetchone()

    class Between:
        """The connection as a search outside a transaction saw it: the count before the
        writer's three files, the rest after."""

        def execute(self, sql: str, *args: Any) -> Any:
            if sql == "SELECT count(*) FROM files":
                writer.refresh(files, ROOTS)  # lands between the two counts
                return _Rows([counted])
            return connection.execute(sql, *args)

    hits = scoring.best_files(Between(), ["kestrel"], 10, set(ROOTS), None)  # type: ignore[arg-type]
    assert len(hits) == 6
    assert [hit.id for hit in index.search("kestrel", ROOTS, limit=10)] == [
        f"n{number}" for number in range(6)
    ]
    writer.close()
    index.close()


class _Rows:
    def __init__(self, rows: list[Any]) -> None:
        self._rows = rows

    def fetchone(self) -> Any:
        return self._rows[0]
