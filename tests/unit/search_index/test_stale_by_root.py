"""Which listed files the index does not hold as listed, compared root by root as one
mapping of stamps (a fresh server's first search over 20,000 files): the same files as a
comparison file by file — changed, new, without a stamp to trust — and the rows of files
no longer listed, whether the rows are read now or were read with a search
(docs/formats.md §22.11)."""

from __future__ import annotations

from pathlib import Path

import pytest

from memtab.fs.memo import Stamp
from memtab.search_index.documents import IndexedFile
from memtab.search_index.index import SearchIndex


def _indexed(root: str, stamps: dict[str, Stamp | None]) -> list[IndexedFile]:
    return [IndexedFile(root, key, key, None, stamp) for key, stamp in stamps.items()]


@pytest.fixture
def index(tmp_path: Path) -> SearchIndex:
    index = SearchIndex(tmp_path / "index")
    index.refresh(_indexed("a", {"a/1": (1, 10, 10, 1), "a/2": (2, 20, 20, 2)}), ["a"])
    index.refresh(_indexed("b", {"b/1": (1, 10, 10, 3), "b/racy": None}), ["b"])
    return index


def test_roots_listed_as_the_index_holds_them_have_nothing_stale(index: SearchIndex) -> None:
    listed = {"a": {"a/1": (1, 10, 10, 1), "a/2": (2, 20, 20, 2)}, "b": {"b/1": (1, 10, 10, 3)}}
    assert index.stale_by_root(listed) == (set(), [("b", "b/racy")])
    listed["b"]["b/racy"] = None  # still too recent to trust: read again
    assert index.stale_by_root(listed) == ({("b", "b/racy")}, [])


def test_a_changed_a_new_a_stampless_and_a_gone_file_are_told_apart(index: SearchIndex) -> None:
    listed: dict[str, dict[str, Stamp | None]] = {
        "a": {"a/1": (1, 10, 11, 1), "a/3": (3, 30, 30, 4), "a/2": None},
        "b": {"b/1": (1, 10, 10, 3)},
    }
    expected = ({("a", "a/1"), ("a", "a/3"), ("a", "a/2")}, [("b", "b/racy")])
    assert index.stale_by_root(listed) == expected
    held = index.search_ahead("", ["a", "b"], limit=10, within=[]).rows
    assert index.stale_by_root(listed, held=held) == expected
    by_file = {(root, key): stamp for root, files in listed.items() for key, stamp in files.items()}
    assert index.stale(by_file) == expected[0]
    del listed["a"]["a/1"]
    stale, gone = index.stale_by_root(listed)
    assert (stale, gone) == ({("a", "a/3"), ("a", "a/2")}, [("a", "a/1"), ("b", "b/racy")])
