"""The learned-judge research command (judge_cv.py): only tuned-on sessions reach it, its
folds never split a project, and its model is deterministic."""

from __future__ import annotations

from pathlib import Path

import pytest

from .corpus import MEASURED, WRITER_CASES, WriterCase
from .judge_cv import build_sessions, fit, project_of, score, surest_above


def test_no_measured_transcript_reaches_the_research_set(tmp_path: Path) -> None:
    assert not {case.path for case in WRITER_CASES} & MEASURED
    measured = WriterCase("a measured one", sorted(MEASURED)[0])
    with pytest.raises(ValueError, match="never be trained on"):
        build_sessions([measured], tmp_path)  # refused before its transcript is read


def test_a_projects_sessions_share_a_fold() -> None:
    spotter = [case for case in WRITER_CASES if "spotter" in case.path.name]
    assert {project_of(case) for case in spotter} == {"spotter"}  # data/ and fixtures alike
    log = [case for case in WRITER_CASES if "claude-code-log" in case.path.name]
    assert {case.path.parent.name for case in log} == {"claude-code", "codex"}
    assert {project_of(case) for case in log} == {"log"}
    assert len({project_of(case) for case in WRITER_CASES}) >= 20


def test_the_model_learns_a_separable_feature_the_same_way_every_time() -> None:
    rows = [({"bias": 1.0, "rules keep it": float(kept)}, kept) for kept in (True, False) * 20]
    weights = fit(rows, ["bias", "rules keep it"])
    assert weights == fit(rows, ["bias", "rules keep it"])
    assert score(weights, {"bias": 1.0, "rules keep it": 1.0}) > 0.8  # L2 keeps it from 1
    assert score(weights, {"bias": 1.0, "rules keep it": 0.0}) < 0.2
    assert surest_above([0.2, 0.9, 0.5, 0.9, 0.7], 0.5, limit=2) == [1, 3]
