"""What a warm search reads beyond the engine's work: the documents of the results it
answers with (and of those tied at the last one's score, to order them by id), not every
one the engine looked at; the line a result shows found by looking for the query's words
only in the lines that hold their letters — the same line `tokens` would find; the
window's candidates of a letter inside a word most files hold, known without counting."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from memtab.search_index.index import SearchIndex
from memtab.search_index.ranking import _held, _words_in, query_terms, tokens
from memtab.search_index.substrings import SubstringReader
from unit.search_index.test_ranking import ROOTS, indexed


class _CountingSearcher:
    """A searcher whose documents read, and searches made, are counted."""

    def __init__(self, searcher: Any) -> None:
        self._searcher = searcher
        self.read = 0
        self.searched = 0

    def search(self, *args: Any, **options: Any) -> Any:
        self.searched += 1
        return self._searcher.search(*args, **options)

    def doc(self, address: Any) -> Any:
        self.read += 1
        return self._searcher.doc(address)

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
    assert counting.read == 3 + 3
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
