"""What a killed Memtab leaves behind in the home, removed when Memtab next opens it.

Every write goes through a hidden temp file (`memtab.fs.atomic`): a process killed between
writing it and renaming it into place leaves it there. In the memory scopes the next
listing removes such files (`memtab.store.files`); the home's own directories are cleaned
here, once per start: the home root (the sidecars), `memtab/` with its locks and
suggestions, and history (its indexes, every blob shard, the packs). One rule for all
(`files.remove_if_stale_temp`): only a regular file named by Memtab's temp pattern, over
a minute old (a write takes milliseconds, so no live writer still owns it). Beside xum's
lock files (`<home>/locks`, `memory-meta.json.lock`), the temp files and moved-aside stale
locks a killed process (xum or Memtab) left are removed by the lock protocol's own rule
(`store.xum_locks.remove_lock_leftovers`, docs/formats.md §21.1).

`remove_leftover_temps` is called by the window's first sync of a home and by every
`memtab` command that writes to the home (`memtab.cli.main`).
"""

from __future__ import annotations

import logging
import os
import threading
import time
from pathlib import Path

from memtab.fs.atomic import is_temp_name
from memtab.store.files import remove_if_stale_temp
from memtab.store.home import Home
from memtab.store.xum_locks import remove_lock_leftovers

logger = logging.getLogger(__name__)

_cleaned: set[str] = set()
_cleaned_lock = threading.Lock()


def leftover_dirs(home: Home) -> list[Path]:
    """The home's own directories Memtab writes temp files in (not the memory scopes)."""
    memtab = home.memtab_dir
    dirs = [
        home.root,
        memtab,
        memtab / "locks",
        memtab / "suggestions",
        home.history_dir,
        home.history_index_dir,
        home.history_blobs_dir,
        home.history_blobs_dir / "packs",
    ]
    try:
        with os.scandir(home.history_blobs_dir) as entries:
            shards = [
                e.path for e in entries if len(e.name) == 2 and e.is_dir(follow_symlinks=False)
            ]
    except OSError:
        shards = []
    return dirs + [Path(shard) for shard in sorted(shards)]


def remove_leftover_temps(home: Home) -> int:
    """Remove the temp files killed Memtab processes left in the home's own directories;
    how many went. Best effort: a directory that cannot be read is skipped."""
    now = time.time()
    removed = 0
    for directory in leftover_dirs(home):
        try:
            with os.scandir(directory) as entries:
                temps = [entry for entry in entries if is_temp_name(entry.name)]
        except OSError:
            continue
        removed += sum(1 for entry in temps if remove_if_stale_temp(entry, now))
    return removed + remove_lock_leftovers(home)


def remove_leftover_temps_once(home: Home) -> int:
    """`remove_leftover_temps`, the first time this process asks for `home` (the window
    syncs after every scan; the cleanup is for its start)."""
    key = os.path.abspath(home.root)
    with _cleaned_lock:
        if key in _cleaned:
            return 0
        _cleaned.add(key)
    return remove_leftover_temps(home)
