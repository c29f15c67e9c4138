"""Where Memtab keeps its own settings: one rule for settings.json and the UI state.

It lives in `memtab.fs` although it is a path rule, not a file primitive, because it is
the one package both the model settings (`memtab.llm`, which may import nothing else of
Memtab) and the GUI may import; two copies of the rule once sent the two files to
different places.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from pathlib import Path

import platformdirs

logger = logging.getLogger(__name__)

CONFIG_DIR_VARIABLE = "MEMTAB_CONFIG_DIR"


def config_dir(env: Mapping[str, str] | None = None) -> Path:
    """Memtab's config dir: `$MEMTAB_CONFIG_DIR`, else the platform's user config dir.

    The variable's `~` is expanded and a relative path is made absolute (against the
    current directory), so every caller — and every later `chdir` — agrees on one place.
    """
    env = os.environ if env is None else env
    configured = env.get(CONFIG_DIR_VARIABLE, "").strip()
    if configured:
        return Path(os.path.abspath(os.path.expanduser(configured)))
    # As settings.json has always been found (on Windows this differs from appauthor=False).
    return Path(platformdirs.user_config_dir("memtab"))
