"""Where Memtab keeps its own settings and UI state, in `fs` so both `llm` and the GUI share the one
rule; `--demo` keeps its own inside the demo home (`config_dir_at`)."""

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
    """Memtab's config dir: `$MEMTAB_CONFIG_DIR` (`~` expanded, made absolute), else the platform's
    user config dir."""
    env = os.environ if env is None else env
    configured = env.get(CONFIG_DIR_VARIABLE, "").strip()
    if configured:
        return Path(os.path.abspath(os.path.expanduser(configured)))
    return Path(platformdirs.user_config_dir("memtab"))  # as settings.json has always been found


def cache_dir(env: Mapping[str, str] | None = None) -> Path:
    """Memtab's cache dir, out of the config dir (which users keep in git): `cache/` in a chosen
    `$MEMTAB_CONFIG_DIR`, else the platform's user cache dir."""
    env = os.environ if env is None else env
    if env.get(CONFIG_DIR_VARIABLE, "").strip():
        return config_dir(env) / "cache"
    return Path(platformdirs.user_cache_dir("memtab"))


def home_digest(home_root: Path) -> str:
    """The part of a cache's name that says which home it is about."""
    return hashlib.sha256(os.fsencode(str(home_root))).hexdigest()[:20]


@contextlib.contextmanager
def config_dir_at(path: Path, env: MutableMapping[str, str] | None = None) -> Iterator[Path]:
    """Make `path` the config dir for the block through `$MEMTAB_CONFIG_DIR`, so child processes
    agree; the old value comes back after."""
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
