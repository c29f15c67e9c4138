"""A cron schedule is compared by when it fires, not as text (issue 83): one schedule
written two ways is no contradiction, two that fire at other times are
(tests/support/schedule_voices.py, `trust.reading.schedules`)."""

from __future__ import annotations

import pytest

from memtab.trust.reading.schedules import REBOOT, is_schedule, same_schedule, schedule_of
from support import contradiction_voices
from support.contradiction_cases import Case
from support.schedule_voices import SCHEDULES, SCHEDULES_AFTER


@pytest.mark.parametrize("cases", [SCHEDULES, SCHEDULES_AFTER], ids=["before", "after"])
def test_schedules_disagree_by_when_they_fire(cases: tuple[Case, ...]) -> None:
    joined = contradiction_voices.found(cases)
    assert contradiction_voices.wrong_of_kind(cases, joined, "schedule") == ([], [])


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("0 9 * * *", "0 09 * * *"),
        ("@daily", "0 0 * * *"),
        ("@midnight", "@daily"),
        ("@annually", "0 0 1 1 *"),
        ("@weekly", "0 0 * * SUN"),
        ("0 9 * * MON-FRI", "0 9 * * 1-5"),
        ("0 9 * * 1-5", "0 9 * * mon,tue,wed,thu,fri"),
        ("*/15 * * * *", "0,15,30,45 * * * *"),
        ("0 6 * * 0", "0 6 * * 7"),
        ("0 4 * * fri-sun", "0 4 * * 5,6,0"),
        ("0 0 1 */3 *", "0 0 1 jan,apr,jul,oct *"),
        ("0 0 * * 0-6", "0 0 * * *"),
        ("10-50/20 * * * *", "10,30,50 * * * *"),
    ],
)
def test_one_schedule_written_two_ways_is_the_same(one: str, other: str) -> None:
    assert same_schedule(one, other) and same_schedule(other, one)


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("0 9 * * 1-5", "0 9 * * *"),
        ("@daily", "@hourly"),
        ("0 0 1 * *", "0 0 * * 1"),
        ("*/10 * * * *", "*/15 * * * *"),
        ("0 9 * * *", "0 21 * * *"),
        ("@reboot", "0 0 * * *"),
    ],
)
def test_schedules_firing_at_other_times_differ(one: str, other: str) -> None:
    assert not same_schedule(one, other)


@pytest.mark.parametrize(
    "text",
    ["0 9 * *", "0 9 * * * *", "60 * * * *", "0 24 * * *", "0 0 0 * *", "0 0 * 13 *",
     "0 0 L * *", "0 0 * * 1#2", "*/0 * * * *", "5-1 * * * *", "a b c d e", "0 ٩ * * *",
     "make deploy"],
)  # fmt: skip
def test_what_is_no_five_field_cron_is_no_schedule(text: str) -> None:
    assert not is_schedule(text) and not same_schedule(text, text)


def test_reboot_is_a_schedule_of_its_own() -> None:
    assert schedule_of("@REBOOT") == REBOOT and same_schedule("@reboot", "@reboot")
