"""`trust.claims.values_disagree`: two statements giving one thing two values —
what the duplicates engine asks before calling two notes one (issue 83)."""

from __future__ import annotations

import pytest

from memtab.trust.claims import values_disagree


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("The staging DB is wiped every Sunday night.",
         "The staging DB is wiped every Wednesday night."),
        ("The payment client times out after 30 seconds.", "Payment client timeout: 45s."),
        ("Uploads are capped at 10 MB.", "Max upload size: 25MB."),
        ("We're on Node 20.", "The project runs on node@22."),
        ("`FEATURE_NEW_CHECKOUT` is on.", "`FEATURE_NEW_CHECKOUT` is off."),
        ("The nightly backup runs at 02:00.", "The nightly backup runs at 4am."),
    ],
)  # fmt: skip
def test_two_values_of_one_thing_disagree(one: str, other: str) -> None:
    assert values_disagree(one, other) and values_disagree(other, one)


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("The payment client times out after 30 seconds.",
         "Payment client timeout: half a minute."),
        ("Sessions expire after 30 minutes.", "Session expiry is 30 min."),
        ("We're on Node 20.", "Use node@20."),
        ("The cleanup cron runs at 09:00 UTC.", "The cleanup cron runs at 10:00 CET."),
        ("The client's connect timeout is 5s.", "The client's read timeout is 30s."),
        ("The staging DB is wiped every Sunday night.",
         "The production DB is wiped every Wednesday night."),
        ("Always rebase on main.", "Never rebase on main."),
        ("`pytest tests/unit` runs in about 8 s.", "`pytest tests/unit` runs in about 12 s."),
        ("Uploads under 1 MB skip the virus scan.", "Uploads are capped at 10 MB."),
    ],
)  # fmt: skip
def test_one_value_in_other_words_or_two_things_do_not(one: str, other: str) -> None:
    """The same value reworded, two things sharing a word, a measurement or a bound, and
    two rules (the duplicates' own polarity question) are no two values."""
    assert not values_disagree(one, other) and not values_disagree(other, one)
