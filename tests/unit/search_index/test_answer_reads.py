"""What a warm search reads beyond the engine's work: the documents of the results it
answers with, not every one the engine looked at nor every one tied at the last one's
score (ordered by id by their numbers and the manifest's ids: a home of notes made from
one template ties them all); the line a result shows found by looking for the query's words
only in the lines that hold their letters — the same line `tokens` would find; the
window's candidates of a letter inside a word most files hold, known without counting."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import tantivy
from hypothesis import given, settings
from hypothesis import strategies as st

from memtab.search_index.documents import IndexedFile
from memtab.search_index.index import SearchIndex
from memtab.search_index.ranking import _held, _words_in, query_terms, tokens
from memtab.search_index.substrings import SubstringReader
from support.property_examples import examples
from unit.search_index.test_ranking import ROOTS, indexed


class _CountingSearcher:
    """A searcher whose documents read (files' and roots' manifests apart), and searches
    made, are counted."""

    def __init__(self, searcher: Any) -> None:
        self._searcher = searcher
        self.read = 0
        self.manifests = 0
        self.searched = 0
        self.handed = 0  # hits the engine handed back

    def search(self, *args: Any, **options: Any) -> Any:
        self.searched += 1
        result = self._searcher.search(*args, **options)
        self.handed += len(result.hits)
        return result

    def doc(self, address: Any) -> Any:
        document = self._searcher.doc(address)
        if document.get_first("id") is None:
            self.manifests += 1
        else:
            self.read += 1
        return document

    def __getattr__(self, name: str) -> Any:
        return getattr(self._searcher, name)


def test_only_the_answered_documents_are_read_and_ties_ordered_by_id(tmp_path: Path) -> None:
    texts = {f"n{number:02d}.md": "heron " * (number + 1) + "pad " * 40 for number in range(12)}
    texts |= {"t1.md": "egret", "t0.md": "egret", "t2.md": "egret"}
    index = indexed(tmp_path, texts)
    counting = _CountingSearcher(index._fresh_searcher())
    best = index._best(counting, "heron", ROOTS, 3)
    assert [hit.id for hit in best] == ["n11.md", "n10.md", "n09.md"]
    assert counting.read == 3
    tied = index._best(counting, "egret", ROOTS, 2)
    assert [hit.id for hit in tied] == ["t0.md", "t1.md"]  # by id, whatever their order
    assert counting.read == 3 + 2
    index.close()


def test_notes_alike_are_answered_first_by_id_reading_only_the_documents_answered(
    tmp_path: Path,
) -> None:
    """300 notes made from one template, indexed from the last name to the first: every one
    ties, the first names are answered, and only their documents are read (each tied one
    was read to order them: a home of 20,000 took 170 ms a search)."""
    keys = [f"n{number:03}.md" for number in range(300)]
    index = indexed(tmp_path, {key: "release notes\nstaging first" for key in reversed(keys)})
    counting = _CountingSearcher(index._fresh_searcher())
    assert [hit.id for hit in index._best(counting, "staging", ROOTS, 3)] == keys[:3]
    assert counting.read == 3
    assert [hit.id for hit in index._best(counting, "release", ROOTS, 100)] == keys[:100]
    assert counting.read == 3 + 100
    index.close()


def test_a_tie_of_many_notes_hands_back_only_a_few_of_them(tmp_path: Path) -> None:
    """600 notes alike: the first by id are asked for by their ids, never every tied match
    handed back and its number read to order them (20,000 took 25–41 ms of a warm server's
    CPU a search)."""
    keys = [f"n{number:03}.md" for number in range(600)]
    index = indexed(tmp_path, {key: "release notes\nstaging first" for key in reversed(keys)})
    counting = _CountingSearcher(index._fresh_searcher())
    assert [hit.id for hit in index._best(counting, "staging", ROOTS, 10)] == keys[:10]
    assert [hit.id for hit in index._best(counting, "release", ROOTS, 100)] == keys[:100]
    assert counting.handed < 2 * len(keys)  # not every tied match each time
    index.close()


def test_a_tie_found_late_in_the_ids_is_still_answered_by_id(tmp_path: Path) -> None:
    texts = {f"a{number}.md": "heron heron heron" for number in range(2)}
    texts |= {f"b{number:03}.md": "egret" for number in range(200)}  # no heron: asked in vain
    texts |= {f"z{number:03}.md": "heron pad pad pad pad" for number in range(100)}
    index = indexed(tmp_path, texts)
    assert [hit.id for hit in index.search("heron", ROOTS, limit=4)] == [
        "a0.md", "a1.md", "z000.md", "z001.md"
    ]  # fmt: skip
    index.close()


def test_a_tied_document_no_manifest_names_is_ordered_by_the_id_it_holds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    keys = [f"n{number}.md" for number in range(6)]
    index = indexed(tmp_path, {key: "heron" for key in reversed(keys)})
    listed = ["n1.md", "n4.md", "n5.md"]  # as if the others were not in the manifest
    monkeypatch.setattr(index, "_ids", lambda searcher, root: listed)
    assert [hit.id for hit in index.search("heron", ROOTS, limit=4)] == keys[:4]
    index.close()


_WORDS = st.lists(st.sampled_from(["kite", "kite", "owl", "wren"]), min_size=1, max_size=3)


@settings(max_examples=examples(40), deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from(["r", "s"]), _WORDS), min_size=1, max_size=24),
    st.sampled_from(["kite", "owl", "kite wren"]),
    st.integers(1, 8),
)
def test_an_answer_is_the_best_by_score_then_id_of_every_match(
    tmp_path_factory: pytest.TempPathFactory,
    notes: list[tuple[str, list[str]]],
    query: str,
    limit: int,
) -> None:
    """Against every match read and ordered by score, then id: the same files, in order,
    over two roots of notes that tie often."""
    folder = tmp_path_factory.mktemp("alike")
    files = []
    for number, (root, words) in enumerate(notes):
        path = folder / f"{number}.md"
        path.write_text(" ".join(words))
        key = f"{root}/{(number * 7) % 24:02}-{number}.md"  # ids in no order of writing
        files.append(IndexedFile(root, key, "", str(path), (len(words), number, 0, 0)))
    index = SearchIndex(folder / "index")
    index.refresh(files, ("r", "s"))
    searcher = index.searcher()
    every = index._best(searcher, query, ("r", "s"), len(notes) + 1)
    every_read = sorted(every, key=lambda hit: (-hit.score, hit.id))
    assert [hit.id for hit in index.search(query, ("r", "s"), limit=limit)] == [
        hit.id for hit in every_read[:limit]
    ]
    index.close()


def test_a_letter_inside_a_word_most_files_hold_narrows_nothing_without_a_count(
    tmp_path: Path,
) -> None:
    texts = {f"n{number}.md": f"the note {number}" for number in range(6)} | {"q.md": "quartz"}
    index = indexed(tmp_path, texts)
    reader = SubstringReader(index)
    reader.know(("r", key) for key in texts)
    reader.prepare()  # as the window's lane does after a refresh
    counting = _CountingSearcher(index.searcher())
    with reader.snapshot():
        reader._searcher = counting
        assert reader.holding("h", ROOTS) is None  # in `the`, in most files
        assert counting.searched == 0
        assert reader.holding("uar", ROOTS) == {("r", "q.md")}  # rare: counted, then named
        assert reader.holding("x", ROOTS) == set()
    reader.close()
    index.close()


def test_a_search_of_every_root_and_of_one_find_the_same_files_in_each(tmp_path: Path) -> None:
    index = indexed(tmp_path, {"a.md": "plover", "b.md": "plover plover"})
    other = SearchIndex(tmp_path / "index")  # another server's root in the same index
    other.refresh([], ["s"])
    assert [hit.id for hit in index.search("plover", ROOTS, limit=5)] == ["b.md", "a.md"]
    assert index.search("plover", ["elsewhere"], limit=5) == []
    index.close()
    other.close()


_LINE = st.lists(st.sampled_from([*"ab cAB_-1é'ßẞ.\tǅΣ²٣", "ab", "ss", "b1"]), max_size=16).map(
    "".join
)


@given(_LINE, st.lists(st.sampled_from(["ab", "a", "b1", "ss", "1", "é", "σ"]), min_size=1))
def test_the_words_of_a_line_are_found_as_its_tokens_hold_them(line: str, asked: list[str]) -> None:
    wanted = set(query_terms(" ".join(asked)))
    folded = line.casefold()
    assert _words_in(wanted, folded) == _held(wanted, tokens(line))


def test_notes_that_all_tie_are_answered_from_a_probe_of_the_ids_wanted_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 97: where every note ties, the first ids are the answer; a probe of four times as
    many cost the engine four times as much (a look-alike search's largest part)."""
    keys = [f"n{number:03}.md" for number in range(300)]
    index = indexed(tmp_path, {key: "release notes\nstaging first" for key in reversed(keys)})
    probed: list[object] = []
    term_query = tantivy.Query.term_query

    def counted(schema: Any, field: str, value: Any) -> Any:
        if field == "number":
            probed.append(value)
        return term_query(schema, field, value)

    monkeypatch.setattr(tantivy.Query, "term_query", staticmethod(counted))
    assert [hit.id for hit in index.search("staging", ROOTS, limit=10)] == keys[:10]
    assert len(probed) == 10
    index.close()
