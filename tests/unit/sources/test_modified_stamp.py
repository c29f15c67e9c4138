"""Claude Code's `modified:` frontmatter: refreshed on a save, in its own shape; a file
without one never gets one (docs/formats.md §17.2)."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memtab.sources.modified_stamp import refresh_modified

NOW = 1_795_000_000_123  # 2026-11-18T...Z, with milliseconds 123


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2026-06-04T10:20:30.456Z", "2026-11-18T11:06:40.123Z"),
        ("'2026-06-04T10:20:30.456Z'", "'2026-11-18T11:06:40.123Z'"),
        ('"2026-06-04T10:20:30Z"', '"2026-11-18T11:06:40Z"'),
        ("2026-06-04", "2026-11-18"),
        ("2026-06-04 10:20:30", "2026-11-18 11:06:40"),
        ("2026-06-04T10:20:30+09:00", "2026-11-18T11:06:40+00:00"),
    ],
)
def test_the_stamp_is_set_to_the_save_in_its_own_shape(value: str, expected: str) -> None:
    text = f"---\nname: Deploy\nmodified: {value}\ntype: feedback\n---\n\nBody\n"
    assert refresh_modified(text, NOW) == text.replace(value, expected)


def test_a_file_without_the_stamp_or_frontmatter_is_left_alone() -> None:
    for text in (
        "---\nname: Deploy\n---\n\nmodified: 2026-06-04\n",  # in the body: not frontmatter
        "# Notes\n\nmodified: 2026-06-04\n",
        "---\nmodified: yesterday\n---\n",  # not a timestamp: Memtab does not guess
    ):
        assert refresh_modified(text, NOW) == text


def test_crlf_files_keep_their_line_breaks() -> None:
    text = "---\r\nmodified: 2026-06-04T10:20:30.456Z\r\n---\r\nBody\r\n"
    assert refresh_modified(text, NOW) == text.replace(
        "2026-06-04T10:20:30.456Z", "2026-11-18T11:06:40.123Z"
    )


EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


@contextmanager
def _local_time(zone: str) -> Iterator[None]:
    before = os.environ.get("TZ")
    os.environ["TZ"] = zone
    time.tzset()
    try:
        yield
    finally:
        if before is None:
            del os.environ["TZ"]
        else:
            os.environ["TZ"] = before
        time.tzset()


@given(at_ms=st.integers(-2_208_988_800_000, 7_258_118_400_000))  # 1900 to 2200
def test_the_stamp_is_the_utc_time_of_the_save_to_the_millisecond(at_ms: int) -> None:
    """Whatever the local zone (UTC+12:45 here), before 1970 or after 2038: the save's UTC
    time, as datetime's exact arithmetic gives it."""
    moment = EPOCH + timedelta(milliseconds=at_ms)
    seconds = moment.isoformat(timespec="seconds")[:19]
    milliseconds = moment.isoformat(timespec="milliseconds")[:23]
    shapes = {
        "2026-06-04": moment.date().isoformat(),
        "2026-06-04 10:20:30": seconds.replace("T", " "),
        "2026-06-04T10:20:30Z": f"{seconds}Z",
        "2026-06-04T10:20:30.456Z": f"{milliseconds}Z",
        "2026-06-04T10:20:30+09:00": f"{seconds}+00:00",
    }
    with _local_time("XST-12:45"):
        for value, expected in shapes.items():
            text = f"---\nmodified: {value}\n---\n"
            assert refresh_modified(text, at_ms) == f"---\nmodified: {expected}\n---\n"
