"""Everything Qt: the window, its tabs and the workers behind them.

Importing this package loads Qt's Python support (shiboken) and takes out the import hook
it installs for PySide6's `__feature__` switches (snake_case, true_property), which
Memtab does not use. The hook reads the source of every module imported after Qt to see
whether it mentions PySide6 (time at start-up, and ~10 MB of source kept in `linecache`),
and while it looks it swaps `builtins.__import__` for the whole process: another thread
importing at that moment can put the hook back halfway, and a module whose `__getattr__`
imports (pydantic's) then imports itself before it is initialized ("cannot import name …
from partially initialized module 'pydantic…'").
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
