"""The MCP server's ranked search: BM25 over words, a file named for the query first,
an index kept fresh by stamps, and the line and snippet a result shows."""

from __future__ import annotations

from memtab.agent_server.ranked_search import Document, RankedIndex, best_line, tokens

TEXTS = {
    "a.md": "we deploy with kubectl\n" + "filler words here\n" * 30,
    "b.md": "kubectl kubectl kubectl rollout restart",
    "c.md": "nothing to see",
}


def indexed(texts: dict[str, str], labels: dict[str, str] | None = None) -> RankedIndex:
    index = RankedIndex()
    documents = [
        Document(key, (labels or {}).get(key, ""), (len(text), 1)) for key, text in texts.items()
    ]
    index.update(documents, texts.__getitem__)
    return index


def test_words_are_casefolded_letter_and_digit_runs() -> None:
    assert tokens("Use `pnpm`, not NPM_v2; café!") == ["use", "pnpm", "not", "npm", "v2", "café"]


def test_more_occurrences_in_a_shorter_file_rank_higher_and_absent_words_match_nothing() -> None:
    index = indexed(TEXTS)
    hits = index.search("kubectl", limit=10)
    assert [hit.id for hit in hits] == ["b.md", "a.md"]
    assert hits[0].score > hits[1].score > 0
    assert index.search("zebra", limit=10) == []
    assert [hit.id for hit in index.search("rollout", limit=5)] == ["b.md"]


def test_a_rare_word_weighs_more_than_a_common_one() -> None:
    index = indexed({"x.md": "common rare", "y.md": "common common", "z.md": "common"})
    assert index.search("common rare", limit=3)[0].id == "x.md"


def test_the_name_and_description_count_more_than_the_text() -> None:
    index = indexed(
        {"notes.md": "postgres once", "other.md": "postgres once"},
        labels={"notes.md": "postgres setup"},
    )
    assert [hit.id for hit in index.search("postgres", limit=2)] == ["notes.md", "other.md"]


def test_update_rereads_only_changed_files_and_drops_removed_ones() -> None:
    index = indexed(TEXTS)
    texts = dict(TEXTS, **{"c.md": "now kubectl too"})
    del texts["a.md"]
    documents = [
        Document(key, "", (len(text), 2 if key == "c.md" else 1)) for key, text in texts.items()
    ]
    assert index.update(documents, texts.__getitem__) == 1
    assert len(index) == 2
    assert {hit.id for hit in index.search("kubectl", limit=10)} == {"b.md", "c.md"}
    assert [hit.id for hit in index.search("kubectl", limit=10, among={"c.md"})] == ["c.md"]


def test_the_best_line_holds_the_most_query_words_and_long_lines_are_cut() -> None:
    text = "intro\nuse pnpm\nuse pnpm not npm\n"
    assert best_line(text, "pnpm npm") == (3, "use pnpm not npm")
    assert best_line(text, "zebra") is None
    long_line = "x " * 200 + "needle " + "y " * 200
    number, snippet = best_line(long_line, "needle") or (0, "")
    assert number == 1 and "needle" in snippet and len(snippet) <= 160
