"""`memtab leaks` meets issue 83's targets on the trust corpus's tune half (recall ≥ 0.9,
precision ≥ 0.95), run as its person runs it and scored by the scorecard."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.quality.trust_homes import lay_out
from tests.quality.trust_matching import Matcher
from tests.quality.trust_scorecard import score_leaks


@pytest.mark.slow  # slow: lays out a home of 600 files and starts memtab twice (~0.5 s of CPU)
def test_leaks_meet_their_targets_on_the_tune_half(tmp_path: Path) -> None:
    laid = lay_out("tune", tmp_path)
    card = score_leaks(Matcher(laid), laid.run("leaks", "--json"))
    assert card["recall"] >= 0.9, card["missed"]
    assert card["precision"] >= 0.95, (card["negativesFlagged"], card["unlabelled"])
