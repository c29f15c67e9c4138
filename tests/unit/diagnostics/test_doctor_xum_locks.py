"""`memtab doctor` reports xum's lock files (docs/formats.md §21.1): who holds each, since
when, stale or not, what killed processes left beside them; a lock of a dead process is a
warning."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from memtab.cli.health.doctor_commands import describe, run_doctor
from memtab.diagnostics.setup import QtCheck
from memtab.store.home import Home, HomeLocation
from memtab.store.xum_locks import meta_lock_path, target_lock_paths
from support.demo_homes import copied_demo_home
from support.xum import xum_holding


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def fine_qt() -> QtCheck:
    return QtCheck(pyside6="6.0.0", qt="6.0.1")


@pytest.fixture
def demo(tmp_path: Path) -> Home:
    return copied_demo_home(tmp_path / "demo")


def test_doctor_names_xums_lock_holders_and_warns_of_a_dead_one(demo: Home) -> None:
    (global_lock,) = target_lock_paths(demo, [demo.root / "memory"])
    (demo.sessions_dir / "ws-gone").mkdir(parents=True, exist_ok=True)
    (notebook_lock,) = target_lock_paths(demo, [demo.sessions_dir / "ws-gone" / "memory"])
    dead = _dead_pid()
    notebook_lock.parent.mkdir(parents=True, exist_ok=True)
    notebook_lock.write_text(f"{dead}:0011223344556677")
    temp = meta_lock_path(demo).with_name(f"memory-meta.json.lock.tmp-{dead}-00aa")
    temp.write_text(f"{dead}:00aa")
    with xum_holding(global_lock) as xum:
        report = run_doctor(HomeLocation(demo.root, "--home"), qt_check=fine_qt)
        data = report.to_json()
        text = describe(report)
    section = data["locks"]["xum"]
    by_path = {lock["path"]: lock for lock in section["locks"]}
    live, gone = by_path[str(global_lock)], by_path[str(notebook_lock)]
    assert (live["pid"], live["alive"], live["stale"]) == (xum.pid, True, False)
    assert live["guards"] == "global and project memory" and live["since"] > 0
    assert (gone["pid"], gone["alive"], gone["stale"]) == (dead, False, True)
    assert gone["guards"] == "workspace ws-gone's notebook"
    assert [leftover["path"] for leftover in section["leftovers"]] == [str(temp)]
    warnings = [f["message"] for f in data["findings"] if f["check"] == "locks"]
    assert len(warnings) == 1 and f"process {dead}, which is gone" in warnings[0]
    assert data["status"] == "warning"
    assert f"pid {xum.pid} (alive)" in text and f"pid {dead} (gone)" in text
    assert "1 lock leftover" in text


def test_no_xum_lock_is_nothing_to_report(demo: Home) -> None:
    data = run_doctor(HomeLocation(demo.root, "--home"), qt_check=fine_qt).to_json()
    assert data["locks"]["xum"] == {"locks": [], "leftovers": []}
    assert not [f for f in data["findings"] if f["check"] == "locks"]
