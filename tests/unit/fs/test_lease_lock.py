"""xum's lock files, taken in xum's protocol (`memtab.fs.locking.lease_lock`, docs/formats.md
§21.1): the token, what is stale and what is never taken over, release and renewal."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from memtab.fs.locking import lease_lock
from memtab.fs.locking.lease_lock import (
    LEASE_S,
    LeaseLock,
    LeaseLockBusyError,
    parse_token,
    reclaim_if_stale,
    renew_held_leases,
)
from support.xum import xum_holding
from support.xum_player import birth, token_for


def dead_pid() -> int:
    """The pid of a process that has exited (and been reaped)."""
    done = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    return int(done.stdout)


@pytest.fixture
def lock(tmp_path: Path) -> Path:
    return tmp_path / "locks" / "target-0123.lock"


@pytest.fixture
def xum_holds(lock: Path) -> Iterator[subprocess.Popen[str]]:
    """A live process (playing xum) holding `lock`."""
    with xum_holding(lock) as child:
        yield child


def age(path: Path, seconds: float) -> None:
    then = time.time() - seconds
    os.utime(path, (then, then))


def take(lock: Path, timeout_s: float = 0.05) -> LeaseLock:
    held = LeaseLock(lock, "target mutation lock")
    held.acquire(timeout_s)
    return held


def test_the_lock_holds_pid_nonce_and_hex_birth_and_goes_on_release(lock: Path) -> None:
    held = take(lock)
    pid, nonce, born = lock.read_text().split(":")
    assert int(pid) == os.getpid() and len(nonce) == 16
    assert bytes.fromhex(born).decode() == birth(os.getpid())
    assert bytes.fromhex(born).decode().startswith("linux-ticks:")
    held.release()
    assert not lock.exists()
    assert list(lock.parent.iterdir()) == []  # no temp file left


def test_a_live_holders_lock_is_waited_for_then_refused(
    lock: Path, xum_holds: subprocess.Popen[str]
) -> None:
    theirs = lock.read_text()
    with pytest.raises(LeaseLockBusyError, match=r"Timed out after 0\.05 s"):
        take(lock)
    assert lock.read_text() == theirs


def test_a_live_holder_is_never_taken_over_however_old_its_lease(
    lock: Path, xum_holds: subprocess.Popen[str]
) -> None:
    theirs = lock.read_text()
    age(lock, 10 * LEASE_S)
    with pytest.raises(LeaseLockBusyError):
        take(lock)
    assert lock.read_text() == theirs


def test_a_lock_left_by_a_dead_process_is_taken_over(lock: Path) -> None:
    lock.parent.mkdir()
    lock.write_text(token_for(dead_pid(), "deadbeefdeadbeef", "linux-ticks:1"))
    held = take(lock)
    assert lock.read_text().startswith(f"{os.getpid()}:")
    assert [p.name for p in lock.parent.iterdir()] == [lock.name]  # no guard, no graveyard
    held.release()


def test_a_live_pid_with_another_birth_is_a_reused_pid_and_its_lock_stale(
    lock: Path, xum_holds: subprocess.Popen[str]
) -> None:
    lock.write_text(token_for(xum_holds.pid, "deadbeefdeadbeef", "linux-ticks:1"))
    held = take(lock)
    assert lock.read_text().startswith(f"{os.getpid()}:")
    held.release()


def test_without_a_birth_only_a_lease_older_than_five_minutes_is_stale(
    lock: Path, xum_holds: subprocess.Popen[str]
) -> None:
    lock.write_text(f"{xum_holds.pid}:deadbeefdeadbeef")  # a holder whose birth is unknown
    age(lock, LEASE_S - 30)
    with pytest.raises(LeaseLockBusyError):
        take(lock)
    age(lock, LEASE_S + 30)
    take(lock).release()


def test_a_malformed_token_is_stale_only_by_its_lease(lock: Path) -> None:
    lock.parent.mkdir()
    lock.write_text("not a token")
    with pytest.raises(LeaseLockBusyError):
        take(lock)
    age(lock, LEASE_S + 1)
    take(lock).release()


@pytest.mark.expect_log("memtab.fs.locking.lease_lock", "WARNING", r"changed owners before release")
def test_release_removes_only_our_own_token(lock: Path) -> None:
    held = take(lock)
    theirs = token_for(os.getpid() + 1, "0123456789abcdef", None)
    lock.write_text(theirs)  # taken over and re-taken by someone else meanwhile
    held.release()
    assert lock.read_text() == theirs


def test_renewal_refreshes_our_lease_and_never_anothers(tmp_path: Path) -> None:
    ours = take(tmp_path / "ours.lock")
    theirs = tmp_path / "theirs.lock"
    theirs.write_text(token_for(os.getpid(), "0123456789abcdef", birth(os.getpid())))
    for path in (ours.path, theirs):
        age(path, 200)
    renew_held_leases()
    assert time.time() - ours.path.stat().st_mtime < 60
    assert time.time() - theirs.stat().st_mtime > 150
    ours.release()


@pytest.mark.expect_log("memtab.fs.locking.lease_lock", "WARNING", r"changed owners before release")
def test_a_lease_renewed_by_someone_else_after_a_takeover_is_left_alone(lock: Path) -> None:
    held = take(lock)
    lock.write_text(f"{os.getpid() + 1}:0123456789abcdef")
    age(lock, 200)
    renew_held_leases()
    assert time.time() - lock.stat().st_mtime > 150  # not ours any more: not renewed
    held.release()


def test_without_hard_links_the_lock_is_created_exclusively(
    lock: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_links(*_args: object) -> None:
        raise OSError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(lease_lock.os, "link", no_links)
    held = take(lock)
    assert lock.read_text().startswith(f"{os.getpid()}:")
    with pytest.raises(LeaseLockBusyError):
        take(lock)
    held.release()
    assert not lock.exists()


def test_a_busy_reclaim_guard_leaves_the_stale_lock_to_its_reclaimer(
    lock: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lock.parent.mkdir()
    stale = token_for(dead_pid(), "deadbeefdeadbeef", None)
    lock.write_text(stale)
    guard = lock.with_name(lock.name + ".reclaim")
    with xum_holding(guard):
        reclaim_if_stale(lock)
        assert lock.read_text() == stale  # another process is reclaiming it
    guard.write_text(token_for(dead_pid(), "0123456789abcdef", None))
    reclaim_if_stale(lock)  # a guard left by a dead reclaimer is cleared first
    assert not guard.exists() and lock.read_text() == stale
    reclaim_if_stale(lock)
    assert not lock.exists()


@pytest.mark.parametrize(
    ("token", "expected"),
    [
        ("123:abc:6c696e75782d7469636b733a3432", (123, "linux-ticks:42")),
        ("123abc:n", (123, None)),  # parseInt reads leading digits
        ("0:n:6c", (None, None)),
        ("-5:n", (None, None)),
        ("12:n:ABC", (12, None)),  # not lowercase hex: no birth
        ("12:n:6c6", (12, "l")),  # a trailing nibble is dropped
        ("", (None, None)),
    ],
)
def test_tokens_are_read_as_xum_reads_them(token: str, expected: tuple[object, object]) -> None:
    assert parse_token(token) == expected


def test_on_windows_tokens_have_no_birth_and_only_the_lease_tells_a_dead_holder(
    lock: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lease_lock.sys, "platform", "win32")
    monkeypatch.setattr(lease_lock, "_births", {})
    held = take(lock)
    pid, nonce = lock.read_text().split(":")  # no birth: `pid:nonce`
    assert int(pid) == os.getpid() and len(nonce) == 16
    held.release()
    lock.write_text(token_for(dead_pid(), "deadbeefdeadbeef", None))
    with pytest.raises(LeaseLockBusyError):  # os.kill would end a process there: not asked
        take(lock)
    age(lock, LEASE_S + 1)
    take(lock).release()


def test_a_ps_start_time_that_differs_is_not_taken_for_another_process(
    lock: Path, xum_holds: subprocess.Popen[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # macOS: `ps -o lstart=` answers in the caller's locale; xum may run in another one.
    lock.write_text(token_for(xum_holds.pid, "deadbeefdeadbeef", "ps-lstart:lun 23 nov 14:00"))
    monkeypatch.setattr(lease_lock, "process_birth", lambda _pid: "ps-lstart:Mon Nov 23 14:00")
    with pytest.raises(LeaseLockBusyError):
        take(lock)
    age(lock, LEASE_S + 1)  # a reused pid waits out the lease instead
    take(lock).release()
