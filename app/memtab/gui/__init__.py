"""Everything Qt: the window, its tabs and the workers behind them. Importing it takes out
shiboken's `__feature__` import hook, which Memtab does not use: it reads every later
module's source and swaps `builtins.__import__` process-wide, racing other threads' imports.
"""

from __future__ import annotations

import builtins
import logging

import shiboken6  # noqa: F401  (installs the hook taken out below)

logger = logging.getLogger(__name__)

_FEATURE_HOOK = "__feature_import__"


def remove_feature_import_hook() -> bool:
    """Put back the import function shiboken wrapped with its `__feature__` hook (its
    own lazy loader of Qt's modules stays). True if the hook was there to take out."""
    current = builtins.__import__
    previous = getattr(builtins, "__orig_import__", None)
    if getattr(current, "__name__", "") != _FEATURE_HOOK or previous is None:
        return False
    builtins.__import__ = previous
    logger.debug("PySide6's __feature__ import hook removed")
    return True


remove_feature_import_hook()
