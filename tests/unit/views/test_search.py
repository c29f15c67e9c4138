"""Searching memories: the matching rules and the content index (no Qt)."""

from __future__ import annotations

from memtab.store.home import Home
from memtab.store.paths import parse_file_path
from memtab.views.scan import ScanRequest, scan_home
from memtab.views.search import ContentIndex, SearchQuery, find_matches, highlight_spans
from memtab.views.tree import file_key, orphan_entry_key
from support import memory_home
from support.memory_home import MAIN, touch_later

home = memory_home.home


def key(raw: str) -> str:
    return file_key(parse_file_path(raw))


def matches(home: Home, text: str) -> dict[str, int]:
    scan = scan_home(ScanRequest(home, MAIN))
    found = find_matches(scan, SearchQuery.parse(text), ContentIndex())
    return {k: match.content_hits for k, match in found.items()}


def test_query_terms_are_casefolded_and_unique() -> None:
    query = SearchQuery.parse("  Git  git RUFF ")
    assert query.terms == ("git", "ruff") and query.active
    assert not SearchQuery.parse("   ").active


def test_matches_by_name_description_and_content(home: Home) -> None:
    assert set(matches(home, "zeta")) == {key("/memories/global/Zeta.md")}  # name
    assert set(matches(home, "postgres")) == {key("/memories/project/decisions/db.md")}
    found = matches(home, "RUFF")  # content, counted
    assert found == {key("/memories/global/tools/python.md"): 2}
    assert set(matches(home, "tools git")) == {key("/memories/global/tools/git.md")}  # path
    assert matches(home, "rebase postgres") == {}  # every term must match


def test_orphaned_files_are_searched_too(home: Home) -> None:
    orphan = orphan_entry_key(
        "gone-0123456789ab", parse_file_path("/memories/project/old.md"), is_dir=False
    )
    assert set(matches(home, "orphaned")) == {orphan}


def test_content_index_rereads_changed_files_and_forgets_removed(home: Home) -> None:
    index = ContentIndex()
    scan = scan_home(ScanRequest(home, MAIN))
    index.refresh(scan)
    size = len(index)
    assert size == scan.file_count + 1  # and the orphan
    touch_later(home.global_root / "Zeta.md", "now about kubernetes")
    (home.global_root / "preferences.md").unlink()
    rescanned = scan_home(ScanRequest(home, MAIN))
    assert set(find_matches(rescanned, SearchQuery.parse("kubernetes"), index)) == {
        key("/memories/global/Zeta.md")
    }
    index.refresh(rescanned)
    assert len(index) == size - 1


def test_highlight_spans_are_merged_and_case_insensitive() -> None:
    assert highlight_spans("Git and GITHUB", ("git", "hub")) == [(0, 3), (8, 14)]
    assert highlight_spans("straße", ("ss",)) == []  # casefold changes the length: skip
    assert highlight_spans("anything", ()) == []
