"""What a killed Memtab leaves in the home's own directories, removed once a start
(`scope_walk.remove_if_stale_temp`); xum's lock leftovers by the lock protocol (docs/formats.md
§21.1); xum's temp siblings found for doctor (§16)."""

from __future__ import annotations

import logging
import os
import stat
import threading
import time
from pathlib import Path

from memtab.fs.atomic import is_temp_name, is_xum_temp_name
from memtab.store.home import Home
from memtab.store.paths import MAX_PATH_DEPTH
from memtab.store.scope_walk import STALE_TEMP_AGE_S, remove_if_stale_temp
from memtab.store.xum_locks import remove_lock_leftovers

logger = logging.getLogger(__name__)

_cleaned: set[str] = set()
_cleaned_lock = threading.Lock()


def leftover_dirs(home: Home) -> list[Path]:
    """The home's own directories Memtab writes temp files in (not the memory scopes)."""
    memtab, blobs = home.memtab_dir, home.history_blobs_dir
    dirs = [home.root, memtab, memtab / "locks", memtab / "suggestions", home.history_dir]
    dirs += [home.history_index_dir, blobs, blobs / "packs"]
    try:
        with os.scandir(blobs) as entries:
            shards = [
                e.path for e in entries if len(e.name) == 2 and e.is_dir(follow_symlinks=False)
            ]
    except OSError:
        shards = []
    return dirs + [Path(shard) for shard in sorted(shards)]


def remove_leftover_temps(home: Home) -> int:
    """Remove temp files killed Memtabs left in the home's own directories; how many went."""
    now, removed = time.time(), 0
    for directory in leftover_dirs(home):
        try:
            with os.scandir(directory) as entries:
                temps = [entry for entry in entries if is_temp_name(entry.name)]
        except OSError:
            continue
        removed += sum(1 for entry in temps if remove_if_stale_temp(entry, now))
    return removed + remove_lock_leftovers(home)


def remove_leftover_temps_once(home: Home) -> int:
    """`remove_leftover_temps`, the first time this process asks for `home`."""
    key = os.path.abspath(home.root)
    with _cleaned_lock:
        if key in _cleaned:
            return 0
        _cleaned.add(key)
    return remove_leftover_temps(home)


def xum_temp_leftovers(home: Home, *, now: float | None = None) -> list[Path]:
    """xum's temp siblings (docs/formats.md §16) in every scope, over a minute old: a dead xum's."""
    now = time.time() if now is None else now
    found: list[Path] = []
    for _scope, root in home.scope_roots():
        pending: list[tuple[str, int]] = [(str(root), 0)]
        while pending:
            directory, depth = pending.pop()
            try:
                with os.scandir(directory) as iterator:
                    entries = list(iterator)
            except OSError:
                continue
            for entry in entries:
                if entry.name.startswith("."):
                    continue
                try:
                    info = entry.stat(follow_symlinks=False)
                except OSError:
                    continue
                if stat.S_ISDIR(info.st_mode):
                    if depth + 1 < MAX_PATH_DEPTH:
                        pending.append((entry.path, depth + 1))
                elif stat.S_ISREG(info.st_mode) and is_xum_temp_name(entry.name):
                    found += [Path(entry.path)] if now - info.st_mtime > STALE_TEMP_AGE_S else []
    return sorted(found)
