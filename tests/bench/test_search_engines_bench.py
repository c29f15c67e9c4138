"""Benchmark: the search engines Memtab could rank by, on issue 73's questions — one to
three words most notes hold ("build test"), rare and absent words, CJK words and phrases —
over the same 20,001 files in three scopes (docs/performance.md "Search").

Run: .venv/bin/python -m pytest --bench tests/bench/test_search_engines_bench.py -s

Each candidate indexes every file (the same words: label three times, then the text, as
`ranking.tokens` reads them), then is opened anew and asked a first question, then 100
questions of each kind, warm: tantivy (Memtab's `SearchIndex`, the engine chosen), SQLite
FTS5 with its own `bm25()` and `ORDER BY rank LIMIT 10`, and FTS5 as Memtab ranked before
(each word's `bm25()` summed in Python over every file holding it), all against `grep -rli`
of one word in the same run.
"""

from __future__ import annotations

import os
import random
import sqlite3
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from bench.table import Row, median, p95, record
from memtab.search_index.documents import IndexedFile, fed
from memtab.search_index.index import SearchIndex
from memtab.search_index.ranking import LABEL_WEIGHT, query_terms

pytestmark = pytest.mark.bench

FILES = 20_000
QUESTIONS = 100
_VOCABULARY = [f"w{index}" for index in range(3000)]
_WEIGHTS = [1 / (rank + 1) for rank in range(len(_VOCABULARY))]
_CJK = "# 배포\n재검증 절차를 따른다\n数据库迁移的步骤\nデプロイの手順\n"


def _note(rng: random.Random, index: int) -> str:
    words = rng.choices(_VOCABULARY, weights=_WEIGHTS, k=300)
    lines = [" ".join(words[i : i + 12]) for i in range(0, len(words), 12)]
    head = f"---\ndescription: note {index} about {words[0]} and {words[1]}\n---\n\n"
    return head + "\n".join(f"- {line}" for line in lines) + "\n"


@pytest.fixture(scope="module")
def notes(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[Path], list[IndexedFile]]:
    home = tmp_path_factory.mktemp("engines-bench")
    rng = random.Random(38)
    roots = [home / "global", home / "project", home / "workspace"]
    files = []
    for index in range(FILES):
        folder = roots[index % 3] / f"area{index % 40:02d}"
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"note{index:05d}.md"
        path.write_text(_note(rng, index), encoding="utf-8")
        files.append(path)
    (roots[0] / "cjk.md").write_text(_CJK, encoding="utf-8")
    files.append(roots[0] / "cjk.md")
    indexed = []
    for path in files:
        info = os.lstat(path)
        stamp = (info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino)
        root = os.fspath(path.parents[1] if path.name != "cjk.md" else path.parent)
        key = os.fspath(path.relative_to(root))
        indexed.append(IndexedFile(root, key, key, os.fspath(path), stamp))
    return roots, indexed


def _questions() -> dict[str, list[str]]:
    rng = random.Random(5)
    common = _VOCABULARY[:12]  # each in nearly every note
    return {
        "1–3 words most notes hold": [
            " ".join(rng.sample(common, rng.choice([1, 2, 3]))) for _ in range(QUESTIONS)
        ],
        "a rare word (and a common one)": [
            f"w{rng.randrange(2000, 3000)}" + (f" w{rng.randrange(12)}" if n % 2 else "")
            for n in range(QUESTIONS)
        ],
        "absent words": ["zebra", "quokka marsupial"] * (QUESTIONS // 2),
        "CJK words and phrases": ["검증", "数据库", "デプロイ", "迁移的步骤"] * (QUESTIONS // 4),
    }


def _timed(ask: Callable[[str], object], questions: list[str]) -> tuple[float, float]:
    timings = []
    for question in questions:
        started = time.perf_counter()
        ask(question)
        timings.append((time.perf_counter() - started) * 1000)
    return median(timings), p95(timings)


def _grep_ms(roots: list[Path]) -> float:
    command = ["grep", "-rli", "w2999", *map(os.fspath, roots)]
    subprocess.run(command, stdout=subprocess.DEVNULL, check=False)
    timings = []
    for _ in range(3):
        started = time.perf_counter()
        subprocess.run(command, stdout=subprocess.DEVNULL, check=False)
        timings.append((time.perf_counter() - started) * 1000)
    return median(timings)


def _words_of(file: IndexedFile) -> str:
    text = Path(file.physical or os.devnull).read_text(encoding="utf-8")
    return fed("\n".join([file.label] * LABEL_WEIGHT + [text]))


def _fts5(path: Path, files: list[IndexedFile]) -> float:
    """SQLite FTS5 over the same words; the seconds it took."""
    started = time.perf_counter()
    connection = sqlite3.connect(path, isolation_level=None)
    connection.execute("PRAGMA journal_mode = WAL")
    connection.execute(
        "CREATE VIRTUAL TABLE docs USING fts5(key UNINDEXED, words,"
        " tokenize = 'unicode61 remove_diacritics 0')"
    )
    connection.execute("BEGIN")
    connection.executemany(
        "INSERT INTO docs (key, words) VALUES (?, ?)",
        ((file.id, _words_of(file)) for file in files),
    )
    connection.execute("COMMIT")
    connection.close()
    return time.perf_counter() - started


def _match(question: str) -> str:
    return " OR ".join('"' + term.replace('"', '""') + '"' for term in query_terms(question))


@pytest.mark.timeout(1800)  # 20,000 files written and indexed three times over
def test_the_search_engines_on_the_same_questions(
    notes: tuple[list[Path], list[IndexedFile]], tmp_path: Path
) -> None:
    roots, files = notes
    grep_ms = _grep_ms(roots)
    questions = _questions()
    within = sorted({file.root for file in files})
    load = os.getloadavg()[0]
    floor = f"{grep_ms:.0f} ms (grep -rli of one word, warm)"

    # tantivy: Memtab's index.
    started = time.perf_counter()
    index = SearchIndex(tmp_path / "tantivy")
    index.refresh(files, within)
    index.close()
    indexed_s = time.perf_counter() - started
    started = time.perf_counter()
    index = SearchIndex(tmp_path / "tantivy")
    first = index.search("w1 w7", within, limit=10)
    first_ms = (time.perf_counter() - started) * 1000
    assert len(first) == 10
    assert [hit.id for hit in index.search("검증", within, limit=10)] == ["cjk.md"]
    assert [hit.id for hit in index.search("迁移的步骤", within, limit=10)] == ["cjk.md"]
    figures = {
        kind: _timed(lambda q: index.search(q, within, limit=10), asked)
        for kind, asked in questions.items()
    }
    index.close()
    size = sum(entry.stat().st_size for entry in (tmp_path / "tantivy").iterdir()) / 2**20
    _record("tantivy", indexed_s, size, first_ms, figures, grep_ms, floor, load)

    # SQLite FTS5, bm25() ORDER BY rank LIMIT 10.
    path = tmp_path / "fts5.sqlite3"
    indexed_s = _fts5(path, files)
    started = time.perf_counter()
    connection = sqlite3.connect(path)
    ranked = "SELECT key, rank FROM docs WHERE docs MATCH ? ORDER BY rank LIMIT 10"
    assert len(connection.execute(ranked, (_match("w1 w7"),)).fetchall()) == 10
    first_ms = (time.perf_counter() - started) * 1000
    figures = {
        kind: _timed(lambda q: connection.execute(ranked, (_match(q),)).fetchall(), asked)
        for kind, asked in questions.items()
    }
    size = path.stat().st_size / 2**20

    # FTS5 as Memtab ranked before: each word's bm25() of every file holding it, summed.
    def summed(question: str) -> list[tuple[str, float]]:
        scores: dict[str, float] = {}
        for term in query_terms(question):
            rows = connection.execute(
                "SELECT key, bm25(docs) FROM docs WHERE docs MATCH ?", (_match(term),)
            )
            for key, score in rows:
                scores[key] = scores.get(key, 0.0) - score
        return sorted(scores.items(), key=lambda item: -item[1])[:10]

    before = {kind: _timed(summed, asked[: QUESTIONS // 4]) for kind, asked in questions.items()}
    connection.close()
    _record("SQLite FTS5, bm25() ORDER BY rank LIMIT", indexed_s, size, first_ms, figures,
            grep_ms, floor, load)  # fmt: skip
    _record("SQLite FTS5, each word's bm25() summed (before)", indexed_s, size, None, before,
            grep_ms, floor, load)  # fmt: skip


def _record(
    engine: str,
    indexed_s: float,
    size_mib: float,
    first_ms: float | None,
    figures: dict[str, tuple[float, float]],
    grep_ms: float,
    floor: str,
    load: float,
) -> None:
    slug = engine.split(",", maxsplit=1)[0].split(maxsplit=1)[0].lower() + str(len(engine))
    opened = f"; opened anew + a first question {first_ms:.1f} ms" if first_ms is not None else ""
    record(
        f"engine-{slug}-index",
        Row(
            f"{engine}: {FILES + 1:,} files indexed (load {load:.1f}; {size_mib:.0f} MiB{opened})",
            f"{indexed_s:.2f} s",
            "the whole index ≤ 3 s",
            floor=floor,
            ratio=indexed_s * 1000 / grep_ms,
        ),
    )
    for kind, (p50, worst) in figures.items():
        record(
            f"engine-{slug}-{kind}",
            Row(
                f"{engine}: {kind}, warm, p50 / p95",
                f"{p50:.2f} / {worst:.2f} ms",
                "p95 ≤ 5 ms",
            ),
        )
