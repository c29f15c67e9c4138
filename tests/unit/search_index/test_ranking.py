"""Ranked search over the index: BM25 over words, a file named for the query first, an
index kept fresh by stamps, and the line and snippet a result shows — the relevance the
in-memory index had, now over the file on disk."""

from __future__ import annotations

from pathlib import Path

from memtab.search_index.documents import IndexedFile
from memtab.search_index.index import SearchIndex
from memtab.search_index.ranking import best_line, tokens
from support.indexed import indexed_count

ROOTS = ("r",)
TEXTS = {
    "a.md": "we deploy with kubectl\n" + "filler words here\n" * 30,
    "b.md": "kubectl kubectl kubectl rollout restart",
    "c.md": "nothing to see",
}


def files_of(
    folder: Path, texts: dict[str, str], labels: dict[str, str] | None = None, version: int = 1
) -> list[IndexedFile]:
    folder.mkdir(exist_ok=True)
    files = []
    for key, text in texts.items():
        (folder / key).write_text(text)
        stamp = (len(text), version if key == "c.md" else 1, 0, 0)
        files.append(IndexedFile("r", key, (labels or {}).get(key, ""), str(folder / key), stamp))
    return files


def indexed(
    tmp_path: Path, texts: dict[str, str], labels: dict[str, str] | None = None
) -> SearchIndex:
    index = SearchIndex(tmp_path / "index")
    index.refresh(files_of(tmp_path / "files", texts, labels), ROOTS)
    return index


def test_words_are_casefolded_letter_and_digit_runs() -> None:
    assert tokens("Use `pnpm`, not NPM_v2; café!") == ["use", "pnpm", "not", "npm", "v2", "café"]


def test_more_occurrences_in_a_shorter_file_rank_higher_and_absent_words_match_nothing(
    tmp_path: Path,
) -> None:
    index = indexed(tmp_path, TEXTS)
    hits = index.search("kubectl", ROOTS, limit=10)
    assert [hit.id for hit in hits] == ["b.md", "a.md"]
    assert hits[0].score > hits[1].score > 0
    assert index.search("zebra", ROOTS, limit=10) == []
    assert [hit.id for hit in index.search("rollout", ROOTS, limit=5)] == ["b.md"]
    index.close()


def test_a_rare_word_weighs_more_than_a_common_one(tmp_path: Path) -> None:
    index = indexed(tmp_path, {"x.md": "common rare", "y.md": "common common", "z.md": "common"})
    assert index.search("common rare", ROOTS, limit=3)[0].id == "x.md"
    index.close()


def test_the_name_and_description_count_more_than_the_text(tmp_path: Path) -> None:
    index = indexed(
        tmp_path,
        {"notes.md": "postgres once", "other.md": "postgres once"},
        labels={"notes.md": "postgres setup"},
    )
    assert [hit.id for hit in index.search("postgres", ROOTS, limit=2)] == ["notes.md", "other.md"]
    index.close()


def test_update_rereads_only_changed_files_and_drops_removed_ones(tmp_path: Path) -> None:
    index = indexed(tmp_path, TEXTS)
    texts = dict(TEXTS, **{"c.md": "now kubectl too"})
    del texts["a.md"]
    assert index.refresh(files_of(tmp_path / "files", texts, version=2), ROOTS).read == 1
    assert indexed_count(index) == 2
    assert {hit.id for hit in index.search("kubectl", ROOTS, limit=10)} == {"b.md", "c.md"}
    index.close()


def test_the_best_line_holds_the_most_query_words_and_long_lines_are_cut() -> None:
    text = "intro\nuse pnpm\nuse pnpm not npm\n"
    assert best_line(text, "pnpm npm") == (3, "use pnpm not npm")
    assert best_line(text, "zebra") is None
    long_line = "x " * 200 + "needle " + "y " * 200
    number, snippet = best_line(long_line, "needle") or (0, "")
    assert number == 1 and "needle" in snippet and len(snippet) <= 160


def test_files_tied_at_the_last_place_are_ordered_by_id_never_by_the_engines_pick(
    tmp_path: Path,
) -> None:
    """300 notes alike, indexed from the last name to the first: the best 10 are the first
    10 names, and the next page the next 10 — a page's ties were whichever of them the
    engine returned first (the pages of one search differed from call to call)."""
    keys = [f"n{number:03}.md" for number in range(300)]
    index = indexed(tmp_path, {key: "alpha beta" for key in reversed(keys)})
    assert [hit.id for hit in index.search("alpha", ROOTS, limit=10)] == keys[:10]
    assert [hit.id for hit in index.search("alpha", ROOTS, limit=20)][10:] == keys[10:20]
    index.close()
