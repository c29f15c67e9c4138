"""What a killed Memtab leaves behind in the home, removed when Memtab next opens it.

Every write goes through a hidden temp file (`memtab.fs.atomic`): a process killed between
writing it and renaming it into place leaves it there. In the memory scopes the next
listing removes such files (`memtab.store.files`); the home's own directories are cleaned
here, once per start: the home root (the sidecars), `memtab/` with its locks and
suggestions, and history (its indexes, every blob shard, the packs). One rule for all
(`scope_walk.remove_if_stale_temp`): only a regular file named by Memtab's temp pattern, over
a minute old (a write takes milliseconds, so no live writer still owns it). Beside xum's
lock files (`<home>/locks`, `memory-meta.json.lock`), the temp files and moved-aside stale
locks a killed process (xum or Memtab) left are removed by the lock protocol's own rule
(`store.xum_locks.remove_lock_leftovers`, docs/formats.md §21.1).

`remove_leftover_temps` is called by the window's first sync of a home and by every
`memtab` command that writes to the home (`memtab.cli.main`).

xum writes a memory file through its own temp sibling, `<name>.<12 hex>` (docs/formats.md
§16): never a memory file, and never removed by Memtab (xum deletes its own when the write
ends, or at its exit); one over a minute old was left by a xum that was killed mid-write,
and `xum_temp_leftovers` finds them for `memtab doctor` to name.
"""

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


def xum_temp_leftovers(home: Home, *, now: float | None = None) -> list[Path]:
    """xum's temp siblings (`<name>.<12 hex>`, docs/formats.md §16) in every scope of the
    home, last changed more than a minute before `now`: what a killed xum left. Found by
    name, regular files only; links and dot-folders are not followed, nothing past the
    depth memory paths go to (§5) is walked."""
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
                elif (
                    stat.S_ISREG(info.st_mode)
                    and is_xum_temp_name(entry.name)
                    and now - info.st_mtime > STALE_TEMP_AGE_S
                ):
                    found.append(Path(entry.path))
    return sorted(found)
