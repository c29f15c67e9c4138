"""Searching memories: the matching rules and the content index (no Qt)."""

from __future__ import annotations

import os
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memtab.components.search.highlight import highlight_spans
from memtab.components.search.indexed import IndexedTexts
from memtab.components.search.search import (
    LINE_SNIPPET_CHARS,
    MAX_LINES_PER_FILE,
    SearchQuery,
    find_matches,
    line_matches,
)
from memtab.components.tree.full_scan import scan_home
from memtab.components.tree.nodes import file_key, orphan_entry_key
from memtab.components.tree.scan import ScanRequest
from memtab.store.home import Home
from memtab.store.paths import parse_file_path
from support import memory_home
from support.memory_home import MAIN, touch_later

home = memory_home.home


def key(raw: str) -> str:
    return file_key(parse_file_path(raw))


def matches(home: Home, text: str) -> dict[str, int]:
    scan = scan_home(ScanRequest(home, MAIN))
    found = find_matches(scan, SearchQuery.parse(text), IndexedTexts())
    return {k: match.content_hits for k, match in found.items()}


def test_query_terms_are_casefolded_and_unique() -> None:
    query = SearchQuery.parse("  Git  git RUFF ")
    assert query.terms == ("git", "ruff") and query.active
    assert not SearchQuery.parse("   ").active


def test_matches_by_name_description_and_content(home: Home) -> None:
    assert set(matches(home, "zeta")) == {key("/memories/global/Zeta.md")}  # name
    assert set(matches(home, "postgres")) == {key("/memories/project/decisions/db.md")}
    found = matches(home, "RUFF")  # content, its lines counted ("Use ruff. ruff!": one)
    assert found == {key("/memories/global/tools/python.md"): 1}
    assert set(matches(home, "tools git")) == {key("/memories/global/tools/git.md")}  # path
    assert matches(home, "rebase postgres") == {}  # every term must match


def test_orphaned_files_are_searched_too(home: Home) -> None:
    orphan = orphan_entry_key(
        "gone-0123456789ab", parse_file_path("/memories/project/old.md"), is_dir=False
    )
    assert set(matches(home, "orphaned")) == {orphan}


def test_the_index_follows_changed_and_removed_files(home: Home) -> None:
    texts = IndexedTexts()
    scan = scan_home(ScanRequest(home, MAIN))
    assert set(find_matches(scan, SearchQuery.parse("preferences"), texts))
    touch_later(home.global_root / "Zeta.md", "now about kubernetes")
    (home.global_root / "preferences.md").unlink()
    rescanned = scan_home(ScanRequest(home, MAIN))
    assert set(find_matches(rescanned, SearchQuery.parse("kubernetes"), texts)) == {
        key("/memories/global/Zeta.md")
    }
    assert set(find_matches(rescanned, SearchQuery.parse("ubernet"), texts)) == {
        key("/memories/global/Zeta.md")
    }
    assert not find_matches(rescanned, SearchQuery.parse("preferences"), texts)
    texts.close()


def test_text_beyond_ascii_is_found_and_counted_as_typed(home: Home) -> None:
    """What a query finds, and where, is the casefolded text's: `STRASSE` finds `Straße`
    (the index's words are candidates by their casefolded form), an emoji is no word."""
    path = home.global_root / "Unicode.md"
    path.write_text("# Notes\nStraße → naïve — 🙂 build\nno match here\n🙂 again\n", "utf-8")
    assert matches(home, "STRASSE") == {key("/memories/global/Unicode.md"): 1}
    assert matches(home, "naïve 🙂") == {key("/memories/global/Unicode.md"): 2}  # 2 lines
    scan = scan_home(ScanRequest(home, MAIN))
    found = find_matches(scan, SearchQuery.parse("🙂"), IndexedTexts())
    lines = found[key("/memories/global/Unicode.md")].lines
    assert [(line.line, line.text) for line in lines] == [
        (1, "Straße → naïve — 🙂 build"),
        (3, "🙂 again"),
    ]
    assert [lines[1].text[a:b] for a, b in lines[1].spans] == ["🙂"]


def test_highlight_spans_are_merged_and_case_insensitive() -> None:
    assert highlight_spans("Git and GITHUB", ("git", "hub")) == [(0, 3), (8, 14)]
    assert highlight_spans("straße", ("ss",)) == []  # casefold changes the length: skip
    assert highlight_spans("anything", ()) == []
    # One term's touching occurrences are one span, its overlapping ones the first found.
    assert highlight_spans("Eee e", ("e",)) == [(0, 3), (4, 5)]
    assert highlight_spans("aaa aaaa", ("aa",)) == [(0, 2), (4, 8)]


_TEXT = st.lists(st.sampled_from([*"aAb ßé", "ab", "aa"]), max_size=12).map("".join)


@given(_TEXT, st.lists(st.sampled_from(["a", "b", "aa", "ab", "ba", "é", "ss"]), min_size=1))
def test_highlight_spans_are_every_occurrence_merged(text: str, terms: list[str]) -> None:
    """Whatever the terms (one merges its spans as it finds them): the occurrences each
    term's search finds, joined where they overlap or touch."""
    folded, found = text.casefold(), set()
    for term in terms:
        start = folded.find(term)
        while start != -1:
            found |= set(range(start, start + len(term)))
            start = folded.find(term, start + len(term))
    if len(folded) != len(text):
        found = set()  # casefold changes the length: nothing is highlighted
    spans = highlight_spans(text, tuple(terms))
    assert {at for start, end in spans for at in range(start, end)} == found
    assert all(end < start for (_, end), (start, _) in pairwise(spans))  # apart


# --- matching lines ----------------------------------------------------------------------


def test_matches_carry_their_matching_lines_with_the_terms_spans(home: Home) -> None:
    scan = scan_home(ScanRequest(home, MAIN))
    found = find_matches(scan, SearchQuery.parse("RUFF"), IndexedTexts())
    [line] = found[key("/memories/global/tools/python.md")].lines
    # Line 5 of the file (the frontmatter comes first), shown as written.
    assert (line.line, line.text, line.column) == (4, "Use ruff. ruff!", 0)
    assert [line.text[a:b] for a, b in line.spans] == ["ruff", "ruff"]
    # A file found by its name only has no lines to show.
    assert found_by_name(home, "zeta") == ()


def found_by_name(home: Home, text: str) -> tuple[object, ...]:
    scan = scan_home(ScanRequest(home, MAIN))
    [match] = find_matches(scan, SearchQuery.parse(text), IndexedTexts()).values()
    return match.lines


def test_matching_lines_are_capped_and_long_lines_show_the_match() -> None:
    text = "\n".join(f"line {n} has Needle" for n in range(50)) + "\n" + "x" * 500 + " needle end"
    query = SearchQuery.parse("needle")
    count, lines = line_matches(text, text.casefold(), query)
    assert count == 51 and len(lines) == MAX_LINES_PER_FILE
    assert [m.line for m in lines[:2]] == [0, 1]
    _, [far] = line_matches(text.split("\n")[-1], text.split("\n")[-1].casefold(), query)
    assert far.column > 0 and far.cut and far.text.startswith("x")
    assert far.text.endswith("needle end")
    assert len(far.text) <= LINE_SNIPPET_CHARS
    assert [far.text[a:b] for a, b in far.spans] == ["needle"]
    # Leading blanks are not shown; the column says where the shown text starts.
    _, [indented] = line_matches("    - a needle\n", "    - a needle\n", query)
    assert (indented.text, indented.column, indented.cut) == ("- a needle", 4, False)
    # A whole line from its first column, trailing blanks left out, keeps its spans.
    for shown in ("needle a needle", "needle a needle  "):
        _, [whole] = line_matches(shown, shown, query)
        assert (whole.text, whole.column, whole.spans) == ("needle a needle", 0, ((0, 6), (9, 15)))
    # A cut falls at the start of a word.
    _, [worded] = line_matches(
        "words " * 20 + "the needle", ("words " * 20 + "the needle").casefold(), query
    )
    assert worded.cut and worded.text.startswith("words ") and worded.column % 6 == 0


def test_a_narrowing_query_only_looks_at_the_earlier_matches(home: Home) -> None:
    assert SearchQuery.parse("ruff check").narrows(SearchQuery.parse("ruf"))
    assert not SearchQuery.parse("ruff").narrows(SearchQuery.parse("ruff git"))
    assert not SearchQuery.parse("ruff").narrows(SearchQuery.parse(""))
    scan = scan_home(ScanRequest(home, MAIN))
    index = IndexedTexts()
    earlier = find_matches(scan, SearchQuery.parse("o"), index)
    python = key("/memories/global/tools/python.md")
    # The candidates decide which files are read at all: one left out is not found.
    narrowed = find_matches(
        scan, SearchQuery.parse("ruff"), index, candidates=set(earlier) - {python}
    )
    assert narrowed == {}
    assert set(find_matches(scan, SearchQuery.parse("ruff"), index, candidates=earlier)) == {python}


def test_a_cancelled_search_stops(home: Home) -> None:
    class CancelledError(Exception):
        pass

    class Token:
        def raise_if_cancelled(self) -> None:
            raise CancelledError

    scan = scan_home(ScanRequest(home, MAIN))
    with pytest.raises(CancelledError):
        find_matches(scan, SearchQuery.parse("ruff"), IndexedTexts(), cancel=Token())


def test_a_file_with_another_hard_link_is_matched_by_name_never_by_its_text(
    home: Home, tmp_path: Path
) -> None:
    outside = tmp_path / "elsewhere.txt"
    outside.write_text("kestrel-7 is the deploy password\n")
    os.link(outside, home.global_root / "linked.md")
    (home.global_root / "big.md").write_text("x\n" * 60_000 + "kestrel-8 lies past the cap\n")
    assert matches(home, "kestrel") == {}  # view and the editor refuse that text too
    assert set(matches(home, "linked")) == {key("/memories/global/linked.md")}


def test_a_file_counts_its_matching_lines_not_its_matched_words(home: Home) -> None:
    # Two terms on one line, and a term twice on another: the count is what the file's
    # pill says and the rows under it show, lines — past the lines shown, too.
    root = home.global_root
    (root / "deploy.md").write_text("# Deploy\n\ndeploy facts here\nfacts, facts\nnone\n")
    (root / "many.md").write_text("facts deploy facts\n" * (MAX_LINES_PER_FILE + 5))
    scan = scan_home(ScanRequest(home, MAIN))
    found = find_matches(scan, SearchQuery.parse("deploy facts"), IndexedTexts())
    match = found[key("/memories/global/deploy.md")]
    assert match.content_hits == 3  # "# Deploy", "deploy facts here", "facts, facts"
    assert [line.line for line in match.lines] == [0, 2, 3]
    many = found[key("/memories/global/many.md")]
    assert (many.content_hits, len(many.lines)) == (MAX_LINES_PER_FILE + 5, MAX_LINES_PER_FILE)
