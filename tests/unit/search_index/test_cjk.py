"""Korean, Chinese and Japanese words are found (docs/formats.md §22.3): a run of Han,
kana or Hangul is indexed as its overlapping bigrams, and a query's run asks for them in a
row — 검증 finds 재검증 and 검증할, 恢复 and 会话 find 恢复归档的会话文件 — by the index on
disk and the window's candidates alike; the index of the older version (SQLite) is
removed."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from memtab.search_index.documents import IndexedFile
from memtab.search_index.index import SearchIndex, index_file_for
from memtab.search_index.ranking import best_line, query_terms, tokens
from memtab.search_index.substrings import SubstringReader
from support.indexed import indexed_document, indexed_text

ROOTS = ("r",)
TEXTS = {
    "zh.md": "# 会话\n恢复归档的会话文件。\n",
    "ja.md": "キャッシュをクリアしてから再起動する\n",
    "ko.md": "단정하기 전에 한 번 더 재검증할 것\n",
    "mixed.md": "run `pnpm sync`: config동기화 v2로 끝\n",
    "scattered.md": "动态 和 态度 都是 词\n",  # 动态 and 态度, never 动态度
    "en.md": "plain english about kubectl\n",
}
LABELS = {"ko.md": "/memories/global/ko.md\n정규식 출력 단정 전 검증"}


def _files(folder: Path) -> list[IndexedFile]:
    folder.mkdir(exist_ok=True)
    files = []
    for number, (key, text) in enumerate(TEXTS.items()):
        (folder / key).write_text(text, encoding="utf-8")
        stamp = (len(text), 1, 1, number)
        files.append(IndexedFile("r", key, LABELS.get(key, key), str(folder / key), stamp))
    return files


@pytest.fixture
def index(tmp_path: Path) -> SearchIndex:
    made = SearchIndex(tmp_path / "index")
    made.refresh(_files(tmp_path / "files"), ROOTS)
    yield made
    made.close()


def found(index: SearchIndex, query: str) -> list[str]:
    return sorted(hit.id for hit in index.search(query, ROOTS, limit=50))


def test_a_cjk_run_is_its_bigrams_and_a_query_run_one_phrase() -> None:
    assert tokens("재검증 猫 config동기화・キャッシュ") == [
        *("재검", "검증", "猫", "config", "동기", "기화", "キャ", "ャッ", "ッシ", "シュ"),
    ]
    assert query_terms("검증 동기화 Config 검증") == ["검증", "동기 기화", "config"]


def test_chinese_japanese_and_korean_words_are_found_inside_longer_runs(
    index: SearchIndex,
) -> None:
    assert found(index, "恢复") == ["zh.md"]
    assert found(index, "会话") == ["zh.md"]
    assert found(index, "归档的会话") == ["zh.md"]
    assert found(index, "キャッシュ") == ["ja.md"]
    assert found(index, "검증") == ["ko.md"]  # 재검증할 in the text, 검증 in the label
    assert found(index, "재검증") == ["ko.md"]
    assert found(index, "동기화") == ["mixed.md"]
    assert found(index, "config") == ["mixed.md"]
    assert found(index, "kubectl") == ["en.md"]


def test_a_three_character_query_does_not_match_its_bigrams_scattered_apart(
    index: SearchIndex,
) -> None:
    assert found(index, "动态") == ["scattered.md"]
    assert found(index, "态度") == ["scattered.md"]
    assert found(index, "动态度") == []
    assert found(index, "恢复归档") == ["zh.md"]
    assert found(index, "恢复会话") == []  # both words are in zh.md, not in a row


def test_the_line_and_snippet_shown_are_the_ones_holding_the_cjk_word() -> None:
    text = "첫 줄\n아무것도 없음\n한 번 더 재검증할 것\n"
    assert best_line(text, "검증") == (3, "한 번 더 재검증할 것")
    assert best_line(text, "증할것") is None  # 증할 and 할것 are not in a row: 할 것
    long_line = "가" * 200 + " 동기화 설정"
    line = best_line(long_line, "동기화")
    assert line is not None and "동기화" in line[1] and line[1].startswith("…")


def test_the_index_keeps_the_texts_as_they_are_not_their_words(index: SearchIndex) -> None:
    assert indexed_text(index, "r", "zh.md") == TEXTS["zh.md"]
    assert indexed_document(index, "r", "ko.md") == (LABELS["ko.md"], TEXTS["ko.md"])
    [hit] = index.search("归档", ROOTS, limit=10)
    assert (hit.id, hit.text) == ("zh.md", TEXTS["zh.md"])


def test_the_window_candidates_of_a_cjk_term_are_the_files_holding_it(
    index: SearchIndex,
) -> None:
    reader = SubstringReader(index)
    reader.know(("r", key) for key in TEXTS)
    try:
        assert reader.holding("동기화", ROOTS) == {("r", "mixed.md")}
        assert reader.holding("검증", ROOTS) == {("r", "ko.md")}  # two letters narrow too
        assert reader.holding("재검증", ROOTS) == {("r", "ko.md")}
        assert reader.holding("归档的会", ROOTS) == {("r", "zh.md")}
        assert reader.holding("g동기", ROOTS) == {("r", "mixed.md")}
        assert reader.holding("动态度", ROOTS) == set()
        assert reader.holding("ubect", ROOTS) == {("r", "en.md")}
        assert reader.texts([("r", "zh.md")]) == {("r", "zh.md"): TEXTS["zh.md"]}
    finally:
        reader.close()


def test_the_window_candidates_of_a_letter_casefolded_with_a_mark_are_its_files(
    tmp_path: Path,
) -> None:
    """İ casefolds to i and a combining dot, which no word holds: the index has `i` and
    `stanbul` of İstanbul. The run was casefolded after it was picked, a word the index
    never has (`i̇stanbul`): the window found no file holding İstanbul."""
    (tmp_path / "trip.md").write_text("Fly to İstanbul\n", encoding="utf-8")
    index = SearchIndex(tmp_path / "index")
    index.refresh([IndexedFile("r", "trip.md", "trip.md", str(tmp_path / "trip.md"), None)], ROOTS)
    reader = SubstringReader(index)
    reader.know([("r", "trip.md")])
    try:
        assert reader.holding("İstanbul", ROOTS) == {("r", "trip.md")}
    finally:
        reader.close()
        index.close()


def test_the_index_of_the_older_version_is_removed_and_the_files_read_again(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    path = index_file_for(home)
    path.parent.mkdir(parents=True)
    older = path.parent / f"search-{path.name.rpartition('-')[2]}.sqlite3"
    with sqlite3.connect(older) as old:  # version 2: SQLite FTS5, the words in a file
        old.execute("PRAGMA journal_mode = WAL")
        old.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        old.execute("INSERT INTO meta VALUES ('schema', '2')")
    old.close()
    files = _files(tmp_path / "files")
    index = SearchIndex(path)
    try:
        assert not older.exists() and not Path(f"{older}-wal").exists()
        assert index.refresh(files, ROOTS).read == len(files)  # every file read again
        assert found(index, "恢复") == ["zh.md"]
    finally:
        index.close()


def test_a_run_asked_for_is_never_found_across_two_runs(tmp_path: Path) -> None:
    # 恢复 and 复会 are two runs (a space parts them): 恢复会 is in neither; their bigrams
    # stood in a row in the words all the same, and the index found it.
    folder = tmp_path / "files"
    folder.mkdir()
    texts = {"two-runs.md": "恢复 复会\n", "one-run.md": "先恢复会话\n"}
    files = []
    for number, (key, text) in enumerate(texts.items()):
        (folder / key).write_text(text, encoding="utf-8")
        files.append(IndexedFile("r", key, key, str(folder / key), (len(text), 1, 1, number)))
    index = SearchIndex(tmp_path / "index")
    try:
        index.refresh(files, ROOTS)
        assert found(index, "恢复会") == ["one-run.md"]
        assert found(index, "复会") == ["one-run.md", "two-runs.md"]
    finally:
        index.close()
