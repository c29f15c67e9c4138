"""What a killed process leaves beside xum's locks (docs/formats.md §21.1): its temp files
and moved-aside stale locks are removed at the next start or writing command — only those
no process can still use, never a lock, never a live holder's token."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from memtab.fs.locking import lease_lock
from memtab.fs.locking.lease_lock import LeaseLock, make_token
from memtab.store.home import Home
from memtab.store.leftovers import remove_leftover_temps
from memtab.store.xum_locks import (
    lock_leftovers,
    meta_lock_path,
    remove_lock_leftovers,
    xum_locks_dir,
)
from support.xum import xum_holding


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, "utf-8")
    return path


def test_a_killed_processes_leftovers_go_at_the_next_start_and_live_locks_stay(
    home: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lease_lock, "LEFTOVER_MIN_AGE_S", 0.0, raising=False)
    locks = xum_locks_dir(home)
    lock = locks / "target-0123456789abcdef0123456789abcdef.lock"
    dead = _dead_pid()
    dead_token = f"{dead}:00112233aabbccdd"
    gone = [
        _write(lock.with_name(f"{lock.name}.tmp-{dead}-00112233aabbccdd"), dead_token),
        _write(lock.with_name(f"{lock.name}.stale-0a1b2c3d"), dead_token),
        _write(home.root / f"{meta_lock_path(home).name}.tmp-{dead}-aa", dead_token),
    ]
    alive_token = make_token("ffeeddccbbaa9988")
    kept = [
        # a temp of a live process (it may be waiting for the lock)
        _write(lock.with_name(f"{lock.name}.tmp-{os.getpid()}-ffeeddccbbaa9988"), alive_token),
        # a live holder's token moved aside: left for a person to look at
        _write(lock.with_name(f"{lock.name}.stale-99887766"), alive_token),
        # not the lock protocol's
        _write(locks / "workspace-removed-0123.json", "{}"),
        _write(home.root / "notes.tmp-1-ab", "x"),
    ]
    with xum_holding(lock):
        held = lock.read_text()
        remove_leftover_temps(home)
        assert lock.read_text() == held  # the live holder's lock
    assert [p for p in gone if p.exists()] == []
    assert [p for p in kept if not p.exists()] == []


def test_a_moved_aside_lock_stays_while_its_reclaimer_holds_the_guard(home: Home) -> None:
    lock = xum_locks_dir(home) / "target-aa.lock"
    moved = _write(lock.with_name(f"{lock.name}.stale-01020304"), f"{_dead_pid()}:0a")
    later = time.time() + 2 * lease_lock.LEFTOVER_MIN_AGE_S
    guard = LeaseLock(lock.with_name(lock.name + ".reclaim"), "reclaim guard")
    guard.acquire(1.0)
    try:
        assert remove_lock_leftovers(home, now=later) == 0
    finally:
        guard.release()
    assert lock_leftovers(home) == [moved]
    assert remove_lock_leftovers(home, now=time.time()) == 0  # too young
    assert remove_lock_leftovers(home, now=later) == 1
    assert not moved.exists()


def test_a_temp_of_a_live_pid_goes_once_past_the_lease(home: Home) -> None:
    lock = xum_locks_dir(home) / "target-bb.lock"
    temp = _write(lock.with_name(f"{lock.name}.tmp-{os.getpid()}-0b"), "x")
    assert remove_lock_leftovers(home, now=time.time() + lease_lock.LEFTOVER_MIN_AGE_S + 1) == 0
    assert remove_lock_leftovers(home, now=time.time() + lease_lock.LEASE_S + 1) == 1
    assert not temp.exists()
