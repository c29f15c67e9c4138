"""The one lock module (`memtab.fs.locking.locks`): exclusive across threads and processes, with
timeouts on both sides, never re-entered, released by the OS when its holder dies."""

from __future__ import annotations

import fcntl
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from memtab.fs.locking.locks import (
    InterprocessLock,
    LockUnavailableError,
    OwnedLock,
    interprocess_lock,
)
from support.processes import python_child

HOLDER = r"""
import sys
from pathlib import Path
from memtab.fs.locking.locks import OwnedLock
lock = OwnedLock(Path(sys.argv[1]))
lock.acquire(5, purpose="test")
print("held", flush=True)
sys.stdin.readline()
"""


def test_a_thread_asking_again_for_a_lock_it_holds_is_refused_at_once(tmp_path: Path) -> None:
    # The old helper let the inner block "acquire" too: two owners, one lock.
    path = tmp_path / "a.lock"
    with interprocess_lock(path, timeout_s=5):
        refused = pytest.raises(LockUnavailableError, match="already held by this thread")
        with refused, interprocess_lock(path, timeout_s=5):  # at once, not after 5 s
            pass
    with interprocess_lock(path, timeout_s=0):  # and the outer block released it
        pass


def test_a_second_thread_times_out_instead_of_waiting_forever(tmp_path: Path) -> None:
    path = tmp_path / "a.lock"
    outcome: list[str] = []

    def second() -> None:
        try:
            with interprocess_lock(path, timeout_s=0.1):
                outcome.append("acquired")
        except LockUnavailableError as error:
            outcome.append(str(error))

    with interprocess_lock(path):
        thread = threading.Thread(target=second)
        thread.start()
        thread.join(10)
        assert not thread.is_alive(), "the waiting thread never gave up"
    assert len(outcome) == 1 and "Timed out after 0.1 s" in outcome[0]


def test_threads_take_turns(tmp_path: Path) -> None:
    path = tmp_path / "a.lock"
    inside = [0]
    overlaps: list[int] = []

    def work() -> None:
        for _ in range(50):
            with interprocess_lock(path):
                inside[0] += 1
                overlaps.append(inside[0])
                inside[0] -= 1

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert overlaps == [1] * 200


def test_another_process_holding_it_is_named_and_its_death_releases_it(tmp_path: Path) -> None:
    path = tmp_path / "locks" / "work.lock"
    with python_child(HOLDER, str(path)) as holder:
        lock = OwnedLock(path)
        with pytest.raises(LockUnavailableError):
            lock.acquire(0.05)
        owner = lock.holder()
        assert owner is not None and owner.pid == holder.pid
        assert owner.details == {"purpose": "test"} and f"pid {holder.pid}" in owner.describe()
        holder.send_signal(signal.SIGKILL)
        holder.wait(10)
    lock.acquire(5)  # no expiry to wait out: the OS dropped the dead holder's lock
    assert lock.held
    lock.release()
    assert not lock.held and not lock.holder_path.exists()


# What a Memtab of before took (filelock on Unix is this flock), and any other program may.
PLAIN_FLOCK = r"""
import fcntl, os, sys
descriptor = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o644)
fcntl.flock(descriptor, fcntl.LOCK_EX)
print("held", flush=True)
sys.stdin.readline()
"""


@pytest.mark.skipif(sys.platform == "win32", reason="flock")
def test_a_plain_flock_in_another_process_excludes_it_until_let_go(tmp_path: Path) -> None:
    path = tmp_path / "work.lock"
    with python_child(PLAIN_FLOCK, str(path)) as holder:
        with pytest.raises(LockUnavailableError, match="held by another process"):
            InterprocessLock(path).acquire(0)
        with pytest.raises(LockUnavailableError, match=r"Timed out after 0\.05 s"):
            InterprocessLock(path).acquire(0.05)
        assert holder.stdin is not None
        holder.stdin.write("\n")
        holder.stdin.flush()
        holder.wait(10)
    with interprocess_lock(path, timeout_s=5):
        assert path.exists()


def test_a_lock_can_be_released_on_another_thread(tmp_path: Path) -> None:
    lock = InterprocessLock(tmp_path / "a.lock")
    lock.acquire(1)
    releaser = threading.Thread(target=lock.release)
    releaser.start()
    releaser.join()
    with interprocess_lock(tmp_path / "a.lock", timeout_s=0):
        pass


def test_an_unreadable_holder_file_means_an_unknown_holder(tmp_path: Path) -> None:
    lock = OwnedLock(tmp_path / "a.lock")
    lock.holder_path.write_bytes(b"\xff not json")
    assert lock.holder() is None
    lock.holder_path.write_text('{"pid": "x"}')
    assert lock.holder() is None


def test_a_lock_loads_neither_socket_nor_filelock(tmp_path: Path) -> None:
    """Reading sidecars (the window's first paint) must not pay for a lock's imports; a
    lock taken on Unix loads no filelock (~16 ms, 1 MiB: memtab.fs.locking.locks calls flock)
    and no socket for its holder's host (`fs.locking.locks.host_name`: socket's enums, ~0.4 MiB)."""
    probe = (
        "import sys\nfrom pathlib import Path\n"
        "from memtab.fs.sidecar import read_sidecar\n"
        "from memtab.fs.locking.locks import OwnedLock\n"
        f"read_sidecar(Path({str(tmp_path / 'meta.json')!r}))\n"
        "before = [m for m in ('filelock', 'socket') if m in sys.modules]\n"
        f"lock = OwnedLock(Path({str(tmp_path / 'x.lock')!r}))\n"
        "lock.acquire(1.0)\nlock.release()\n"
        "print(before, [m for m in ('filelock', 'socket') if m in sys.modules])\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    assert result.stdout.split() == ["[]", "[]"]


@pytest.mark.expect_log("memtab.fs.locking.locks", "WARNING", r"was a link: removed, never follow")
def test_a_link_at_a_lock_files_name_is_never_followed(tmp_path: Path) -> None:
    """A link planted at a lock file's name (while its folder was open to others) neither
    makes its target nor locks another's file: it is removed and the lock file made anew
    (issue 70 point 2)."""
    locks = tmp_path / "locks"
    locks.mkdir()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    kept = elsewhere / "precious"
    kept.write_bytes(b"x" * 1000)
    (locks / "dangling.lock").symlink_to(elsewhere / "made-through-the-link")
    (locks / "onto-a-file.lock").symlink_to(kept)
    for name in ("dangling.lock", "onto-a-file.lock"):
        with interprocess_lock(locks / name, timeout_s=1), kept.open("rb") as other:
            # The other's file is not the one locked: its owner takes it at once.
            fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
            fcntl.flock(other, fcntl.LOCK_UN)
        assert (locks / name).is_file() and not (locks / name).is_symlink()
    assert sorted(p.name for p in elsewhere.iterdir()) == ["precious"]
    assert kept.read_bytes() == b"x" * 1000
