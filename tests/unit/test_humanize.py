from __future__ import annotations

import time
from datetime import datetime

import pytest

from memtab.fs.clock import now_ms
from memtab.humanize import (
    absolute_time,
    coverage_text,
    plural,
    relative_time,
    size_text,
    usage_text,
)
from memtab.store.paths import Scope
from memtab.store.sidecars.journal import ConsolidationRecord, JournalOp

NOW = 1_800_000_000_000
MIN = 60_000


@pytest.mark.parametrize(
    ("ago", "text"),
    [
        (0, "just now"),
        (-5_000, "just now"),
        (5 * MIN, "5 min ago"),
        (3 * 60 * MIN, "3 h ago"),
        (30 * 60 * MIN, "yesterday"),
        (4 * 24 * 60 * MIN, "4 d ago"),
    ],
)
def test_relative_time(ago: int, text: str) -> None:
    assert relative_time(NOW - ago, NOW) == text


def test_relative_time_defaults_to_the_clock_in_epoch_milliseconds() -> None:
    assert relative_time(now_ms() - 5 * MIN) == "5 min ago"
    assert relative_time(int(time.time() * 1000) - 3 * 60 * MIN) == "3 h ago"


def test_relative_time_never_and_old_dates() -> None:
    assert relative_time(None, NOW) == "never"
    assert relative_time(NOW - 90 * 24 * 60 * MIN, NOW).count("-") == 2


@pytest.mark.parametrize("at_ms", [0, 1_799_999_999_999, NOW + 999, 951_782_400_500])
def test_dates_are_the_local_calendar_s_as_datetime_gives_them(at_ms: int) -> None:
    local = datetime.fromtimestamp(at_ms / 1000)
    assert absolute_time(at_ms) == local.strftime("%Y-%m-%d %H:%M:%S")
    assert relative_time(at_ms, at_ms + 90 * 24 * 60 * MIN) == local.strftime("%Y-%m-%d")


def test_coverage_text_counts_applied_changes_only() -> None:
    ops = (
        JournalOp(command="delete", path="/memories/global/a.md", applied=True),
        JournalOp(command="delete", path="/memories/global/b.md", applied=False, note="pinned"),
    )
    record = ConsolidationRecord(
        last_run_at=NOW - 3 * 60 * MIN, trigger="manual", summary="merged", ops=ops
    )
    assert coverage_text(record, Scope.GLOBAL, NOW) == "3 h ago · manual · 1 file changed"
    assert coverage_text(record, Scope.WORKSPACE, NOW) == "3 h ago · manual · no file changed"
    assert coverage_text(None, Scope.GLOBAL, NOW) == "never"


def test_small_words() -> None:
    assert plural(2, "change") == "2 changes"
    assert size_text(512) == "512 B" and size_text(2048) == "2.0 KiB"
    assert usage_text(0, None, NOW) == ""
    assert usage_text(4, NOW - 2 * 60 * MIN, NOW) == "Used 4× · 2 h ago"
