"""The warm server's postings in memory rank exactly as the index on disk: the same files
in the same order with the same scores, over a corpus of uneven words, labels and
lengths, and for a filter; they re-read only the files whose stamp changed."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from memtab.search_index.index import IndexedFile, SearchIndex
from memtab.search_index.postings import Document, Postings

ROOTS = ("r",)
_WORDS = [f"w{number}" for number in range(40)] + ["café", "cafe", "东京", "v2"]


@pytest.fixture
def corpus(tmp_path: Path) -> dict[str, tuple[str, str]]:
    rng = random.Random(54)
    texts = {}
    for number in range(60):
        words = rng.choices(
            _WORDS, weights=[1 / (rank + 1) for rank in range(len(_WORDS))], k=rng.randint(1, 120)
        )
        label = f"/memories/global/n{number}.md\n{' '.join(rng.sample(_WORDS, 2))}"
        texts[f"/memories/global/n{number}.md"] = (label, " ".join(words))
    return texts


def test_the_postings_rank_as_the_index_on_disk(
    tmp_path: Path, corpus: dict[str, tuple[str, str]]
) -> None:
    files = []
    for number, (key, (label, text)) in enumerate(corpus.items()):
        path = tmp_path / f"{number}.md"
        path.write_text(text)
        files.append(IndexedFile("r", key, label, str(path), (len(text), 1, 1, number)))
    index = SearchIndex(tmp_path / "index.sqlite3")
    index.refresh(files, ROOTS)
    postings = Postings()
    documents = [Document(file.id, file.label, file.stamp) for file in files]
    assert postings.update(documents, lambda key: corpus[key][1]) == len(files)
    among = set(list(corpus)[::3])
    for query in (
        "w0",
        "w1 w30",
        "w5 w5 w39",
        "v2",
        "东京",
        "cafe",
        "café",
        "w0 w1 w2",
        "n7",
        "zz",
    ):
        for limit, subset in ((10, None), (5, among)):
            disk = index.search(query, ROOTS, limit=limit, among=subset)
            warm = postings.search(query, limit=limit, among=subset)
            assert [hit.id for hit in disk] == [hit.id for hit in warm], query
            assert [hit.score for hit in disk] == pytest.approx([hit.score for hit in warm])
    changed = [*documents[1:], Document(documents[0].id, documents[0].label, None)]
    assert postings.update(changed, lambda key: corpus[key][1]) == 1  # no stamp: read again
    index.close()
