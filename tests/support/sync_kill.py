"""A sync that kills itself (SIGKILL) at its Nth step, for the kill tests.

Run as `python -m support.sync_kill HOME N` (with `tests` on the path). The steps are the
points where a sync touches the disk or git: before and after each git command, after
each temp file is written (so it is left behind), before each is published. With an N
past the last step the sync finishes and prints how many steps it took.

`python -m support.sync_kill HOME N scopes` kills it right after its Nth write of a memory
file once it has merged (`support.sync_faults`: the import's writes).
"""

from __future__ import annotations

import functools
import os
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from memtab.fs.atomic import Directory
from memtab.store.home import Home
from memtab.sync.repository.git import Git
from memtab.sync.service import SyncService
from support.sync_faults import in_scopes, killed_at_write

_steps = [0]


def _step(kill_at: int) -> None:
    _steps[0] += 1
    if _steps[0] == kill_at:
        os.kill(os.getpid(), signal.SIGKILL)


def _around(function: Callable[..., Any], kill_at: int, *, after: bool) -> Callable[..., Any]:
    @functools.wraps(function)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        _step(kill_at)
        result = function(*args, **kwargs)
        if after:
            _step(kill_at)
        return result

    return wrapped


def _killed_in_import(home: Path, kill_at: int) -> None:
    def die() -> None:
        os.kill(os.getpid(), signal.SIGKILL)

    with killed_at_write(pytest.MonkeyPatch(), kill_at, in_scopes, die) as counter:
        SyncService(Home(home)).sync()
    print(counter.writes)


def main() -> None:
    home, kill_at = Path(sys.argv[1]), int(sys.argv[2])
    if sys.argv[3:] == ["scopes"]:
        _killed_in_import(home, kill_at)
        return
    Git.run = _around(Git.run, kill_at, after=True)  # type: ignore[method-assign]
    Directory.write_temp = _around(Directory.write_temp, kill_at, after=True)  # type: ignore[method-assign]
    Directory.publish = _around(Directory.publish, kill_at, after=False)  # type: ignore[method-assign]
    SyncService(Home(home)).sync()
    print(_steps[0])


if __name__ == "__main__":
    main()
