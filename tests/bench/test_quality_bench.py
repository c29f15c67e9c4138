"""Benchmark: the quality corpus's numbers (tests/quality) — the offline writer's precision
and recall on real transcripts, and what consolidating the real memory stores keeps.

Run: .venv/bin/python -m pytest -q --bench tests/bench/test_quality_bench.py -s
"""

from __future__ import annotations

from pathlib import Path

import pytest

from memtab.store.home import Home
from memtab.store.sidecars.registry import add_workspace
from quality.corpus import MEASURE_CASES, WRITER_CASES
from quality.scoring import Score, notes_for_transcript
from quality.stores import STORE_CASES, consolidate_case


@pytest.mark.bench
def test_offline_writer_precision_and_recall(tmp_path: Path) -> None:
    total = Score()
    print("\noffline writer on real transcripts (notes right / written, expected found / expected)")
    for case in (*WRITER_CASES, *MEASURE_CASES):
        score = Score()
        notes = notes_for_transcript(case.path, tmp_path)
        score.add(case, notes)
        total.add(case, notes)
        if case.expected or notes:
            print(
                f"  {case.name[:58]:58} {score.right:2}/{score.written:<2} "
                f"{score.found:2}/{len(case.expected):<2}"
            )
    quiet = sum(1 for case in WRITER_CASES if not case.expected)
    print(f"  (+ {quiet} transcripts with nothing durable: every note there counts as wrong)")
    for name, note in total.wrong:
        print(f"  wrong in {name}: {note}")
    for name, item in total.missing:
        print(f"  missed in {name}: {' + '.join(item.fragments)}")
    print(
        f"offline writer: precision {total.precision:.2f} ({total.right}/{total.written}), "
        f"recall {total.recall:.2f} ({total.found}/{total.expected}); target precision ≥ 0.8"
    )
    assert total.precision >= 0.8


@pytest.mark.bench
def test_consolidating_the_real_stores(tmp_path: Path) -> None:
    print("\noffline consolidator on real stores (lines kept / lines that must survive)")
    for number, case in enumerate(STORE_CASES):
        home = Home(tmp_path / f"home{number}")
        add_workspace(home, "/src/app", "main", workspace_id="a1a1a1a1a1")
        outcome = consolidate_case(home, case, "a1a1a1a1a1")
        print(
            f"  {case.name:32} {outcome.survived}/{outcome.must_survive} lines, "
            f"{outcome.other_files_unchanged}/{outcome.other_files} other files unchanged, "
            f"{outcome.first_run_ops} changes then {outcome.second_run_ops}"
        )
        for note in outcome.notes:
            print(f"      {note}")
        assert outcome.survived == outcome.must_survive
