"""`memtab search`: the files best matching a query, ranked as the MCP server ranks, over
the home's search index on disk that the servers and the window share (docs/formats.md
§22.3, §22.11): virtual paths, the best line, a `--json` record, a scope, words for bad
input, and a second search that reads only what changed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from memtab.agent_server import catalog as catalog_module
from memtab.cli.main import main
from memtab.fs import memo
from memtab.search_index import documents as documents_module
from memtab.search_index import index as index_module
from memtab.store.home import Home
from support.agent_machine import notes_home
from support.demo_homes import copied_demo_home

WORKSPACE = "a1b2c3d4e5"  # the demo's first workspace


@pytest.fixture
def demo(tmp_path: Path) -> Home:
    home = Home(tmp_path / "demo")
    copied_demo_home(home.root)
    return home


def searched(capsys: pytest.CaptureFixture[str], home: Home, *argv: str) -> Any:
    capsys.readouterr()
    assert main(["search", "--home", str(home.root), *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_search_ranks_files_by_virtual_path_with_their_best_line(
    demo: Home, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert main(["search", "--home", str(demo.root), "--workspace", WORKSPACE, "token"]) == 0
    out = capsys.readouterr().out.splitlines()
    first = out[0].split()
    assert float(first[0]) > 0 and first[1].startswith(("/memories/", "claude-code:", "gemini:"))
    assert "token" in out[1].casefold() and out[1].startswith(" " * 10)
    listed = searched(capsys, demo, "--workspace", WORKSPACE, "token", "--scope", "project")
    assert list(listed) == ["query", "results", "notes"] and listed["query"] == "token"
    [hit] = listed["results"]
    assert list(hit) == ["path", "scope", "description", "score", "line", "snippet"]
    assert hit["path"] == "/memories/project/decisions/auth-tokens.md"
    assert hit["scope"] == "project" and hit["score"] > 0 and "Token" in hit["snippet"]
    scores = [h["score"] for h in searched(capsys, demo, "pytest", "--limit", "3")["results"]]
    assert len(scores) == 3 and scores == sorted(scores, reverse=True)


def test_bad_input_is_refused_in_words(demo: Home, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["search", "--home", str(demo.root), "..."]) == 1
    assert "Nothing to search for in '...'" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exited:
        main(["search", "--home", str(demo.root), "token", "--limit", "0"])
    assert exited.value.code == 2
    assert "--limit: must be a whole number from 1 to 100" in capsys.readouterr().err


def test_a_second_search_reads_only_what_changed_since(
    demo: Home, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(memo, "RACY_MARGIN_NS", 0)  # files written just now
    first = searched(capsys, demo, "--mux-only", "ruff")["results"]
    assert [hit["path"] for hit in first] == ["/memories/global/tools/python.md"]
    (demo.global_root / "birds.md").write_text("---\ndescription: Birds\n---\nThe ruff wades.\n")
    (demo.global_root / "tools" / "python.md").unlink()
    reads: list[str] = []
    original = documents_module.read_readable_path

    def counting(path: str, **how: Any) -> Any:
        reads.append(path.rsplit("/", 1)[-1])
        return original(path, **how)

    monkeypatch.setattr(documents_module, "read_readable_path", counting)
    again = searched(capsys, demo, "--mux-only", "ruff")["results"]
    assert [hit["path"] for hit in again] == ["/memories/global/birds.md"]
    assert reads == ["birds.md"]


def test_a_search_finds_a_file_written_over_in_place_since_the_last(
    demo: Home, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`memtab search` answers once and ends: no walk follows its first answer, so it
    stats every file (a file written over in place keeps its name and inode)."""
    monkeypatch.setattr(memo, "RACY_MARGIN_NS", 0)  # files written just now
    assert searched(capsys, demo, "--mux-only", "ruff")["results"]
    (demo.global_root / "tools" / "git.md").write_text("The ruff wades by the rebase.\n")
    again = searched(capsys, demo, "--mux-only", "ruff")["results"]
    assert "/memories/global/tools/git.md" in [hit["path"] for hit in again]


def test_search_finds_a_korean_note_by_a_word_inside_longer_ones(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(memo, "RACY_MARGIN_NS", 0)  # files written just now
    home = notes_home(tmp_path / "home", "claude-code-auto-memory")  # 검증 in 재검증, 검증할
    results = searched(capsys, home, "검증")["results"]
    assert results[0]["path"] == "/memories/global/feedback_verify-before-asserting.md"
    assert "검증" in results[0]["snippet"]
    synced = searched(capsys, home, "동기화")["results"]
    assert synced[0]["path"] == "/memories/global/project_config-sync.md"


def test_a_first_search_answers_from_every_file_once_the_background_indexing_ends(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The catalog indexes for its budget, then goes on in the background: the command
    waits for that indexing itself (not by polling the words of its note)."""
    monkeypatch.setattr(memo, "RACY_MARGIN_NS", 0)  # files written just now
    monkeypatch.setattr(catalog_module, "INDEXING_BUDGET_S", 0.0)  # one transaction
    monkeypatch.setattr(index_module, "CHUNK_FILES", 1)
    monkeypatch.setattr(catalog_module, "ANSWER_OUT_S", 0.0)
    # The notes are words for the answer: the command does not read its waiting in them.
    monkeypatch.setattr(catalog_module.MemoryCatalog, "notes", lambda self: ())
    home = Home(tmp_path / "home")
    home.global_root.mkdir(parents=True)
    for number in range(4):
        (home.global_root / f"n{number}.md").write_text(f"kestrel {number}\n")
    listed = searched(capsys, home, "kestrel")
    assert sorted(hit["path"] for hit in listed["results"]) == [
        f"/memories/global/n{number}.md" for number in range(4)
    ]
    assert listed["notes"] == []  # (as patched)
