"""What a killed sync leaves behind in its target's folder, removed by the next one.

A sync can be killed anywhere (a crash, a full disk, a closed laptop). Its steps are
ordered so that the next sync finishes the work or redoes it (docs/formats.md §18.3):
commits are written before a ref names them, the branch moves to a merge only once the
scopes hold it, the state is written atomically. What is left are files no one owns any
more, and git refuses to go on while some of them are there:

- a ref's lock (`refs/heads/main.lock`, `packed-refs.lock`, `HEAD.lock`, `config.lock`):
  every later `update-ref` of that ref fails with "File exists";
- a pack `fast-import` or `fetch` was writing (`objects/pack/tmp_*`): only space, but
  not reclaimed before gc's two weeks;
- the state's temp file (`.state.json.<hex>.tmp`);
- the folder an import stages a scope in to publish it whole (`.new-scope`,
  `store/restore/new_scope.py`), killed before it was renamed into place.

`clear_leftovers` runs at the start of each sync, under the target's lock: while it is
held no other Memtab works in that folder, and git runs there only as this sync's child,
so whatever matches is a leftover however new it is.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from memtab.fs.atomic import is_temp_name
from memtab.store.restore.new_scope import discard_staging
from memtab.sync.repository.layout import STAGING_NAME

logger = logging.getLogger(__name__)

_GIT_LOCKS = ("HEAD.lock", "packed-refs.lock", "config.lock", "shallow.lock", "FETCH_HEAD.lock")


def clear_leftovers(target_dir: Path, repository: Path) -> list[str]:
    """Remove what a killed sync left in `target_dir` and its `repository` (call with
    the target's lock held); the names removed, for the log."""
    removed: list[str] = []
    staging = target_dir / STAGING_NAME
    if os.path.lexists(staging):
        discard_staging(staging)
        removed.append(STAGING_NAME)
    candidates = [p for p in _entries(target_dir) if is_temp_name(p.name)]
    candidates += [repository / name for name in _GIT_LOCKS]
    for folder in (repository / "refs", repository / "logs"):
        for directory, _dirs, files in os.walk(folder):
            candidates += [Path(directory, f) for f in files if f.endswith(".lock")]
    candidates += [
        p for p in _entries(repository / "objects" / "pack") if p.name.startswith("tmp_")
    ]
    for path in candidates:
        try:
            path.unlink()
        except FileNotFoundError:
            continue
        except OSError as error:
            logger.warning("Cannot remove %s a killed sync left: %s", path, error)
            continue
        removed.append(str(path.relative_to(target_dir)))
    if removed:
        logger.info("Removed what a killed sync left: %s", ", ".join(removed))
    return removed


def _entries(folder: Path) -> list[Path]:
    try:
        return [entry for entry in folder.iterdir() if entry.is_file()]
    except OSError:
        return []
