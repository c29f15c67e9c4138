"""xum's clock of a workspace notebook, `sessions/<owner>/memory.revision` (docs/formats.md §21.5),
advanced under the notebook's target lock where its owner keeps one; never made by Memtab."""

from __future__ import annotations

import logging

from memtab.fs.atomic import Directory
from memtab.fs.clock import Clock
from memtab.fs.lazy_re import LazyPattern
from memtab.fs.user_files import read_regular_file
from memtab.store.home import Home
from memtab.store.paths import js_trim

logger = logging.getLogger(__name__)

MAX_SAFE_INTEGER = 2**53 - 1
"""JavaScript's `Number.MAX_SAFE_INTEGER`: the clock never passes it."""
_DIGITS = LazyPattern(r"[1-9][0-9]{0,15}")
_MAX_BYTES = 64


class RevisionUnusableError(ValueError):
    """The clock is there but cannot be advanced; left as it is."""


def read_revision(home: Home, owner_id: str) -> int | None:
    """The clock of `owner_id`'s notebook (None: none); RevisionUnusableError when untrustworthy."""
    path = home.notebook_revision_path(owner_id)
    try:
        raw = read_regular_file(path, limit=_MAX_BYTES, follow_links=False)
    except FileNotFoundError:
        return None
    except OSError as error:
        raise RevisionUnusableError(f"{path} cannot be read: {error.strerror or error}") from None
    text = js_trim(raw.decode("utf-8", "replace"))
    value = int(text) if _DIGITS.fullmatch(text) else 0
    if not 0 < value <= MAX_SAFE_INTEGER:
        raise RevisionUnusableError(f"{path} is not xum's clock: {text[:32]!r}")
    return value


def advance_revision(home: Home, owner_id: str, clock: Clock) -> int | None:
    """Advance the notebook's clock as xum does, to `max(clock(), previous + 1)`, the caller holding
    its target lock; the new value, None when there is no clock. RevisionUnusableError, OSError."""
    previous = read_revision(home, owner_id)
    if previous is None:
        return None
    following = max(clock(), previous + 1)
    if following > MAX_SAFE_INTEGER:
        raise RevisionUnusableError(
            f"{home.notebook_revision_path(owner_id)} is exhausted: {previous} is the "
            "largest value it can hold"
        )
    path = home.notebook_revision_path(owner_id)
    with Directory.open(path.parent) as directory:  # never makes a removed session dir
        directory.replace(path.name, str(following).encode("ascii"))
    return following


def advance_after_change(home: Home, owner_id: str, clock: Clock) -> None:
    """`advance_revision` after a change of the notebook, best effort (a failure is logged)."""
    try:
        advance_revision(home, owner_id, clock)
    except RevisionUnusableError as unusable:
        logger.warning("xum's notebook clock was not advanced: %s", unusable)
    except OSError as error:
        logger.warning(
            "xum's notebook clock %s was not advanced: %s",
            home.notebook_revision_path(owner_id),
            error.strerror or error,
        )
