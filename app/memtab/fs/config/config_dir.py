"""Where Memtab keeps its own settings: one rule for settings.json and the UI state.

It lives in `memtab.fs` although it is a path rule, not a file primitive, because it is
the one package both the model settings (`memtab.llm`, which may import nothing else of
Memtab) and the GUI may import; two copies of the rule once sent the two files to
different places.

`memtab --demo` keeps its own config dir inside the demo home (`config_dir_at`): its
settings and window state never touch the user's, and go with the demo.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
from collections.abc import Iterator, Mapping, MutableMapping
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


def cache_dir(env: Mapping[str, str] | None = None) -> Path:
    """Memtab's cache dir: what it can always build again, kept out of the config dir so
    that a user who keeps ~/.config in git or a dotfiles sync does not carry it —
    `cache/` in the config dir when one was chosen (`$MEMTAB_CONFIG_DIR`: the demo's, a
    test's, kept apart as the rest of their state), else the platform's user cache dir."""
    env = os.environ if env is None else env
    if env.get(CONFIG_DIR_VARIABLE, "").strip():
        return config_dir(env) / "cache"
    return Path(platformdirs.user_cache_dir("memtab"))


def home_digest(home_root: Path) -> str:
    """The part of a cache's name that says which home it is about: each home's caches
    (its search index, descriptions, checks, trust) kept apart in the one cache dir."""
    return hashlib.sha256(os.fsencode(str(home_root))).hexdigest()[:20]


@contextlib.contextmanager
def config_dir_at(path: Path, env: MutableMapping[str, str] | None = None) -> Iterator[Path]:
    """Make `path` Memtab's config dir until the block ends (the demo's own), through
    `$MEMTAB_CONFIG_DIR`: every reader of this process and every child it starts (a
    consolidation run) agrees on it. The variable's previous value comes back after."""
    environ = os.environ if env is None else env
    previous = environ.get(CONFIG_DIR_VARIABLE)
    environ[CONFIG_DIR_VARIABLE] = str(path)
    try:
        yield path
    finally:
        if previous is None:
            environ.pop(CONFIG_DIR_VARIABLE, None)
        else:
            environ[CONFIG_DIR_VARIABLE] = previous
