"""The quality corpus, fast: the offline writer's notes on real transcripts are right and
useful (precision ≥ 0.8) and find most of what a careful developer keeps; consolidating the
real memory stores loses no line and changes no other file. `make bench` prints the numbers
(tests/bench/test_quality_bench.py)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from memtab.store.home import Home
from memtab.store.sidecars.registry import add_workspace
from memtab.writer.offline.answers import stands_alone
from memtab.writer.offline.notes import COMMANDS, FINDINGS, SOLVED_PROBLEMS, is_one_line_note

from .corpus import MEASURE_CASES, QUIET_FIXTURES, WRITER_CASES, WriterCase
from .scoring import notes_for_transcript, score_writer
from .stores import STORE_CASES, StoreCase, consolidate_case

# Floors against breakage on the part tuned on (the cases marked `missed` are what it lacks), just
# under its figures: 0.80 (224/280) / 0.51 (229/451) on main 2f135216. Each blind block that
# joined it after its one run lowered them — the densely labelled ones of 2026-11-23 most
# (precision was 0.8, recall 0.58 before them); the git history of docs/writer-quality.md has
# every step. The dense relabellings of 2026-11-23 ("h28": dense_h28_*.py, the sparse sessions
# read whole again the gold way) add items, so recall falls with no rule changed: with the
# Japanese/Portuguese ones 0.80 (225/280) / 0.41 (231/558), with the English ones too 0.81
# (227/280) / 0.34 (253/750). h28blind's block (blind_h28.py: 19 sessions, 120 dense items, run
# once blind before joining) brings it to 0.79 (244/310) = 0.787 / 0.31 (271/870). The session's
# goal no longer a note (its 18 labelled goals found by it alone): 0.84 (217/259) / 0.28 (247/870).
MIN_PRECISION = 0.78
MIN_RECALL = 0.27
# On the part never tuned on (split.txt), labelled before measuring. Issue 24 aims at
# precision 0.8 and recall 0.4 there. A floor against breakage, set well under the
# measured figures so it cannot steer the rules; the figures are in docs/writer-quality.md.
MIN_MEASURED_PRECISION = 0.65
MIN_MEASURED_RECALL = 0.22
# Engineers tuning the rules set MEMTAB_QUALITY_TUNED_ONLY=1: then nothing here runs the
# writer on the measured part (CI leaves it unset and runs everything).
TUNED_ONLY = os.environ.get("MEMTAB_QUALITY_TUNED_ONLY") == "1"
# A placeholder; an HTML element named in code ("`<head>` 内のメタタグ") is none.
_PLACEHOLDER = re.compile(
    r"<(?!(?:head|meta|link|script|style|body|html|title)>)[a-z_ -]+>"
    r"|\{\{|\bTODO\b|\bXXX\b|\[…\]|\.\.\.$"
)


def test_the_offline_writer_is_precise_on_real_transcripts(tmp_path: Path) -> None:
    score = score_writer(tmp_path)
    assert score.precision >= MIN_PRECISION, score.wrong
    assert score.recall >= MIN_RECALL, score.missing
    assert score.written >= 15  # it does write notes: precision is not bought with silence


@pytest.mark.skipif(TUNED_ONLY, reason="MEMTAB_QUALITY_TUNED_ONLY: the measured part is not run")
def test_the_offline_writer_on_transcripts_it_was_not_tuned_on(tmp_path: Path) -> None:
    """Only the figures: the notes written on the measured part and its labels are never
    shown (tuning on them would make the measure a second tuned-on part)."""
    score = score_writer(tmp_path, MEASURE_CASES)
    figures = f"precision {score.precision:.2f}, recall {score.recall:.2f}"
    assert score.precision >= MIN_MEASURED_PRECISION, figures
    assert score.recall >= MIN_MEASURED_RECALL, figures


@pytest.mark.parametrize(
    "case",
    [*WRITER_CASES, *([] if TUNED_ONLY else MEASURE_CASES)],
    ids=lambda case: case.path.name[:50],
)
def test_no_note_is_a_pasted_block_a_placeholder_or_a_fragment(
    tmp_path: Path, case: WriterCase
) -> None:
    measured = case in MEASURE_CASES
    for index, note in enumerate(notes_for_transcript(case.path, tmp_path)):
        shown = f"note {index} ({note.section})" if measured else note  # measured: never shown
        assert is_one_line_note(note.text), shown
        assert not _PLACEHOLDER.search(note.text), shown
        if note.section == FINDINGS:
            assert stands_alone(note.text), shown  # names its subject, leans on nothing
        elif note.section in (COMMANDS, SOLVED_PROBLEMS):
            assert "`" in note.text, shown  # names the command it is about


def test_transcripts_with_nothing_durable_get_no_note(tmp_path: Path) -> None:
    quiet = [case for case in WRITER_CASES if case.path in QUIET_FIXTURES]
    assert len(quiet) >= 15
    score = score_writer(tmp_path, quiet)
    assert score.wrong == []


@pytest.mark.parametrize("case", STORE_CASES, ids=lambda case: case.name)
def test_real_stores_survive_consolidation(tmp_path: Path, case: StoreCase) -> None:
    home = Home(tmp_path / "home")
    add_workspace(home, "/src/app", "main", workspace_id="a1a1a1a1a1")
    outcome = consolidate_case(home, case, "a1a1a1a1a1")
    assert outcome.survived == outcome.must_survive > 0
    assert outcome.other_files_unchanged == outcome.other_files
    assert outcome.second_run_ops == 0
    if case.copy is None:
        assert outcome.first_run_ops == 0  # nothing in a real store is redundant
    else:
        assert (
            "delete /memories/workspace/reference_vercel-cli-rest-api.md: Every line of it is "
            "already in project/reference_vercel-cli-rest-api.md."
        ) in outcome.notes
