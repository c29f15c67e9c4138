"""`memtab check`'s whole report kept for its next run (`check.kept`, docs/formats.md
§19.10): a check over the same memory, with every answer of the disk, the checkouts and PATH
as it was, prints what the last one printed without reading a memory file; any change — in the
checkout, on PATH, in the memory, a file changed within the racy margin, the day a memory turns
stale — is checked as a check from nothing would."""

from __future__ import annotations

import json
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from memtab.check.engine import CheckEngine
from memtab.check.kept import DAY_MS, stale_until
from memtab.check.programs import which_in
from memtab.check.records import CheckReport
from memtab.kept.per_file import cache_file_for

from .helpers import NOW
from .test_kept import CHANGES, Setup


def _engine(setup: Setup, clock: Any = lambda: NOW) -> CheckEngine:
    """A new process's engine, keeping its report as `memtab check --json` does."""
    return CheckEngine(
        setup.home,
        env={"PATH": setup.bin, "HOME": str(setup.tmp / "user")},
        find_program=which_in(setup.bin),
        stale_days=0,
        clock=clock,
        keep_report=True,
    )


def _cold(setup: Setup) -> CheckReport:
    cache_file_for(setup.home, "check-report").unlink(missing_ok=True)
    return setup.check(kept=False)


def test_a_check_over_the_same_memory_and_code_prints_what_the_last_one_did(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    setup = Setup(tmp_path)
    first = _engine(setup).check()
    assert first.findings
    monkeypatch.setattr(CheckEngine, "_report", lambda *args: pytest.fail("checked again"))
    kept = _engine(setup).printed()
    assert kept is not None
    assert json.loads(kept.printed) == first.to_json() and kept.found and kept.problems == ()


@pytest.mark.parametrize("change", CHANGES)
def test_after_a_change_the_check_is_made_again_as_from_nothing(
    tmp_path: Path, change: str
) -> None:
    setup = Setup(tmp_path)
    before = _engine(setup).check()
    CHANGES[change][0](setup)
    engine = _engine(setup)
    assert engine.printed() is None
    after = engine.check()
    assert _engine(setup).printed() is not None  # kept again
    assert after != before
    assert after == _cold(setup)


def test_a_memory_changed_within_the_racy_margin_is_read_again(tmp_path: Path) -> None:
    """A file written just before a check lists it may be written again within its time's
    tick, its `lstat` the same (git's "racily clean"): no report is kept of it till it settles."""
    setup = Setup(tmp_path)
    just_now = time.time_ns() // 1_000_000
    _engine(setup, clock=lambda: just_now).check()
    assert _engine(setup, clock=lambda: just_now).printed() is None
    _engine(setup).check()  # a minute on: settled
    assert _engine(setup).printed() is not None


def test_a_damaged_kept_report_is_checked_again(tmp_path: Path) -> None:
    setup = Setup(tmp_path)
    first = _engine(setup).check()
    path = cache_file_for(setup.home, "check-report")
    path.write_bytes(path.read_bytes()[:-9])
    engine = _engine(setup)
    assert engine.printed() is None
    assert engine.check() == first


def test_the_report_holds_until_a_memory_turns_stale_or_its_days_move() -> None:
    def used(*ages_days: float) -> list[Any]:
        return [SimpleNamespace(last_used_ms=int(NOW - age * DAY_MS)) for age in ages_days]

    assert stale_until(used(10), NOW, 30) == NOW + 20 * DAY_MS + 1  # turns stale
    assert stale_until(used(40.5), NOW, 30) == NOW + DAY_MS // 2  # 41 days, not 40
    assert stale_until(used(10, 29), NOW, 30) == NOW + DAY_MS + 1
    assert stale_until(used(10), NOW, 0) > NOW + 10_000 * DAY_MS  # never stale
