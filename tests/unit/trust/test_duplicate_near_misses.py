"""`memtab duplicates` on tests/support/duplicate_near_misses.py (issue 83): notes that share
most of their words and say their claim of another thing — another service, branch, OS,
file type; another scope, condition or time; a rule and its exception; a TODO beside the
decision — are never one group, and the same notes' rewordings still are."""

from __future__ import annotations

from pathlib import Path

from support.duplicate_near_misses import BATCH, REWORDED
from unit.trust.test_duplicate_voices import _scored


def test_a_rule_said_of_another_thing_scope_or_time_is_no_duplicate(tmp_path: Path) -> None:
    """Held at what it measures (docs/trust-quality.md "Near misses in new forms"): of 41,
    none said of another subject, time, exception or question joined."""
    found = _scored(BATCH, tmp_path)
    flagged = {kind: hit for kind, (hit, _) in found.near.items()}
    assert flagged["subject"] == flagged["exception"] == flagged["question"] == 0
    assert sum(flagged.values()) + len(found.across) <= 5 and found.polarity == 0


def test_their_rewordings_are_still_found(tmp_path: Path) -> None:
    found = _scored(REWORDED, tmp_path)
    assert found.found["reworded"][0] >= 14 and found.across == []
