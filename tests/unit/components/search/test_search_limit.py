"""A keystroke's cost does not grow with the files a term is in: a search shows the first
`MAX_MATCHED_FILES` best ranked and says more may match (a term in every file reads as
many texts as it shows), a short or rare term reads only the texts the index says may
hold it, and a query narrowing a search that stopped at its limit looks at every file
again (docs/formats.md §22.11)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from memtab.components.jobs import JobContext
from memtab.components.search import indexed as indexed_module
from memtab.components.search.indexed import IndexedTexts, Searchable, searchables
from memtab.components.search.search import (
    MAX_MATCHED_FILES,
    Matches,
    Searcher,
    SearchQuery,
    find_matches,
)
from memtab.components.tree.full_scan import scan_home
from memtab.components.tree.nodes import MessageKind, NodeKind
from memtab.components.tree.scan import HomeScan, ScanRequest
from memtab.components.tree.tree import NOT_REACHED_TEXT, build_tree
from memtab.fs import memo
from memtab.store.home import Home

FILES = MAX_MATCHED_FILES + 30


@pytest.fixture
def scan(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> HomeScan:
    monkeypatch.setattr(memo, "RACY_MARGIN_NS", 0)  # files written just now
    home = Home(tmp_path / "home")
    home.global_root.mkdir(parents=True)
    for number in range(FILES):
        extra = " commonplace" if number == FILES - 5 else ""
        extra += " zq" if number in (7, FILES - 2) else ""
        (home.global_root / f"n{number:03d}.md").write_text(f"a common note{extra}\n")
    return scan_home(ScanRequest(home, None))


@pytest.fixture
def read(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The files whose texts a search reads, as it reads them."""
    seen: list[str] = []
    original = IndexedTexts.texts

    def texts(self: IndexedTexts, items: list[Searchable]) -> Iterator[object]:
        for item, text in original(self, items):
            seen.append(item.row)
            yield item, text

    monkeypatch.setattr(indexed_module.IndexedTexts, "texts", texts)
    return seen


def test_a_term_in_every_file_shows_the_first_and_says_more_may_match(
    scan: HomeScan, read: list[str]
) -> None:
    texts = IndexedTexts()
    texts.refresh(scan)
    found = find_matches(scan, SearchQuery.parse("common"), texts)
    # Best first, as `memtab search` ranks: the notes a word longer rank below the rest.
    longer = {7, FILES - 5, FILES - 2}
    ranked = [item.key for at, item in enumerate(searchables(scan)) if at not in longer]
    assert list(found) == ranked[:MAX_MATCHED_FILES] and found.more
    assert len(read) == MAX_MATCHED_FILES + 1  # one past the limit: whether more match
    texts.close()


def test_a_short_rare_term_reads_only_the_texts_that_may_hold_it(
    scan: HomeScan, read: list[str]
) -> None:
    texts = IndexedTexts()
    texts.refresh(scan)
    found = find_matches(scan, SearchQuery.parse("zq"), texts)
    assert sorted(read) == ["/memories/global/n007.md", f"/memories/global/n{FILES - 2:03d}.md"]
    assert len(found) == 2 and not found.more
    texts.close()


def test_a_query_narrowing_a_search_that_stopped_at_its_limit_looks_at_every_file(
    scan: HomeScan,
) -> None:
    searcher = Searcher()
    first = searcher.search(scan, SearchQuery.parse("common"), JobContext.standalone())
    assert first.more and first.match_count == MAX_MATCHED_FILES
    narrower = searcher.search(scan, SearchQuery.parse("commonplace"), JobContext.standalone())
    shown = [node.name for node in narrower.tree.walk() if node.kind is NodeKind.FILE]
    assert shown == [f"n{FILES - 5:03d}.md"] and not narrower.more
    searcher.close()


def test_a_section_a_search_stopped_before_says_it_was_not_searched(scan: HomeScan) -> None:
    stopped = Matches()
    stopped.more = True

    def said(matches: Matches) -> list[str]:
        tree = build_tree(scan, matches)
        return [node.name for node in tree.walk() if node.message_kind is MessageKind.NO_MATCHES]

    assert said(Matches()) == ["No matches"]
    assert said(stopped) == [NOT_REACHED_TEXT]
