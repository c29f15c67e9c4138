"""xum's clock of a workspace notebook, `sessions/<owner>/memory.revision` (docs/formats.md
§21.5).

xum's multi-backend builds keep one per notebook owner (`WORKSPACE_MEMORY_REVISION_FILE_NAME`
in `src/common/constants/memory.ts`, `workspaceMemoryRevision.ts`): the decimal digits of a
positive safe integer that only grows. Every change of the notebook advances it, under the
notebook's target lock, to `max(now, previous + 1)`, so a backend in another process that
cached the notebook's index sees it moved, and the rows of the owner's and its sub-agents'
journals order totally. Memtab, changing a notebook whose owner keeps the file, advances it
the same way under the same lock (`ScopeStore.writing`); where there is none, its xum keeps
no clock and nothing is written. Memtab never makes the file, nor the session dir it is in.
"""

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
    """The clock is there but cannot be advanced: unreadable, not the digits of a
    positive safe integer, or at its end. Left as it is, as xum leaves it."""


def read_revision(home: Home, owner_id: str) -> int | None:
    """The clock of `owner_id`'s notebook, None when its owner keeps none (no file).
    RevisionUnusableError when there is one that cannot be trusted."""
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
    """Move the clock of `owner_id`'s notebook on, as xum's `advanceWorkspaceMemoryRevision`
    does (to `max(clock(), previous + 1)`), and return its new value; None when the owner
    keeps no clock (`clock` is not asked). The caller holds
    the notebook's target lock (`store.xum_locks.holding_targets`): the read and the write
    are one step for every process that takes it. RevisionUnusableError (nothing written)
    when the clock cannot be trusted or would pass `MAX_SAFE_INTEGER`; OSError when it
    cannot be written."""
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
    """`advance_revision` after a change of the notebook: best effort, since the change
    is made (xum's other backends still see the files' own stamps move); a clock that
    cannot be advanced is said in the log."""
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
