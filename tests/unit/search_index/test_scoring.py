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
