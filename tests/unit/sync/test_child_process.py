"""A git stopped on cancel or past its time limit removes its lock files first: its process
group is asked to end (SIGTERM, which git's handlers clean up on) and killed only if some of
it is still there after `STOP_GRACE_S`."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from memtab.sync.repository import git
from memtab.sync.repository.git import kill

# A grandchild holding a lock, as a push's receive-pack holds `refs/heads/<branch>.lock` in
# a path remote: it removes the lock when asked to end, a moment after its parent is gone.
_HOLDER = """
import signal, sys, time
from pathlib import Path
lock = Path(sys.argv[1])
def end(*_):
    time.sleep(0.2)
    lock.unlink()
    sys.exit(0)
signal.signal(signal.SIGTERM, end)
lock.write_text("")
while True:
    time.sleep(1)
"""

_DEAF = """
import signal, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)
print(flush=True)
time.sleep(60)
"""


def _wait_for(path: Path) -> None:
    deadline = time.monotonic() + 10
    while not path.exists():
        assert time.monotonic() < deadline, f"{path} never made"
        time.sleep(0.01)


def test_a_stopped_child_group_removes_its_locks_before_it_is_gone(tmp_path: Path) -> None:
    lock = tmp_path / "main.lock"
    script = tmp_path / "holder.py"
    script.write_text(_HOLDER)
    parent = subprocess.Popen(
        ["sh", "-c", f'"{sys.executable}" "{script}" "{lock}"; sleep 60'],
        start_new_session=True,
    )
    _wait_for(lock)
    kill(parent)
    assert not lock.exists()
    assert parent.returncode is not None


def test_a_child_that_will_not_end_is_killed_after_the_grace(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(git, "STOP_GRACE_S", 0.3)
    deaf = subprocess.Popen(
        [sys.executable, "-c", _DEAF], stdout=subprocess.PIPE, start_new_session=True
    )
    assert deaf.stdout is not None
    deaf.stdout.readline()  # its SIGTERM is ignored from here on
    began = time.monotonic()
    kill(deaf)
    assert 0.3 <= time.monotonic() - began < 5
    assert deaf.returncode is not None and deaf.returncode < 0
    deaf.stdout.close()
