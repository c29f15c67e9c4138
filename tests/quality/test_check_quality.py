"""The check makes no false alarms on real memory: every finding on the quality corpus
(`check_corpus.py`) is judged by hand in `check_judgements.tsv`, and precision — findings
judged right ÷ findings — stays at or above the aim, overall and for each kind
(`python tests/quality/check_precision.py` prints the table docs/guide.md publishes)."""

from __future__ import annotations

from pathlib import Path

import pytest

from .check_precision import Scored, score

MIN_PRECISION = 0.9


@pytest.fixture(scope="module")
def scored(tmp_path_factory: pytest.TempPathFactory) -> Scored:
    return score(Path(tmp_path_factory.mktemp("check-corpus")))


def test_every_finding_on_the_corpus_is_judged(scored: Scored) -> None:
    assert scored.unjudged == [], "judge them in tests/quality/check_judgements.tsv"


def test_no_judgement_is_left_for_a_finding_the_check_no_longer_makes(scored: Scored) -> None:
    assert scored.gone == []


def test_precision_is_at_least_the_aim_overall_and_for_each_kind(scored: Scored) -> None:
    counts = scored.counts()
    assert counts["all"][1] > 300  # the corpus is still the whole corpus
    for kind in counts:
        assert scored.precision(kind) >= MIN_PRECISION, (kind, counts[kind])


def test_the_stores_say_each_project_not_on_disk_once(scored: Scored) -> None:
    # The demo's are on its disk (its home's `code/`): none is missing.
    missing = [key for key, _ in scored.found if key[3] == "project-missing"]
    assert sorted((case, subject) for case, _, _, _, subject in missing) == [
        ("stores-as-agents", "/home/user/src/claude-config"),
        ("stores-as-projects", "/home/user/src/claude-config"),
        ("stores-as-projects", "/home/user/src/codex-config"),
        ("stores-as-projects", "/home/user/src/showtime"),
    ]
