"""xum's lock files in the home (docs/formats.md §21.1): who holds each (pid, alive?),
since when (its mtime, renewed while held), stale or not, and the temp files and
moved-aside locks a killed process left (removed at the next start or writing command).
A lock held by a dead process is a warning: the next change taking it reclaims it, but
until then nothing has told anyone why a change may wait."""

from __future__ import annotations

import os
from typing import Any

from memtab.diagnostics.report import Findings
from memtab.fs.locking.lease_lock import lock_state
from memtab.store.home import Home
from memtab.store.xum_locks import lock_files, lock_leftovers, lock_subjects


def check_xum_locks(home: Home, found: Findings) -> dict[str, Any]:
    """The `locks.xum` section of the doctor's report; warnings go to `found`."""
    subjects = lock_subjects(home)
    locks: list[dict[str, Any]] = []
    for path in lock_files(home):
        state = lock_state(path)
        if state is None:
            continue  # released while we looked
        guards = subjects.get(path.name.removesuffix(".reclaim"))
        locks.append(
            {
                "path": str(path),
                "guards": guards,
                "reclaimGuard": path.name.endswith(".reclaim"),
                "pid": state.pid,
                "alive": state.alive,
                "since": int(state.since * 1000),
                "stale": state.stale,
            }
        )
        if state.alive is False:
            found.warning(
                f"xum's lock {path}{f' ({guards})' if guards else ''} is held by process "
                f"{state.pid}, which is gone: the next change of that memory takes it over"
            )
    leftovers = []
    for path in lock_leftovers(home):
        try:
            since = int(os.stat(path).st_mtime * 1000)
        except OSError:
            continue
        leftovers.append({"path": str(path), "since": since})
    return {"locks": locks, "leftovers": leftovers}
