"""What a killed sync leaves in its target's folder (a ref's lock, a pack's temp, the state's temp,
a staged scope), removed by the next under the target's lock (docs/formats.md §18.3)."""

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
    """Remove what a killed sync left (the target's lock held); the names removed."""
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
