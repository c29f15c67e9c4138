"""The check's settings in Memtab's settings.json: `check.stale_days`, after how many days
without an agent reading or writing it a memory file is stale (default 90; 0: never).

Apart from the engine, so reading it loads nothing of the check.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping

from memtab.fs.config.settings_file import (
    SettingsFileError,
    load_settings_file,
    settings_path,
)

logger = logging.getLogger(__name__)

SETTINGS_SECTION = "check"
DEFAULT_STALE_DAYS = 90
MAX_STALE_DAYS = 36_500


def load_stale_days(env: Mapping[str, str] | None = None) -> int:
    """`check.stale_days` (the default when absent or bad, with a warning for bad)."""
    try:
        data = load_settings_file(settings_path(env))
    except SettingsFileError as error:
        logger.warning("%s; memory is stale after %d days", error, DEFAULT_STALE_DAYS)
        return DEFAULT_STALE_DAYS
    section = data.get(SETTINGS_SECTION)
    value = section.get("stale_days") if isinstance(section, dict) else None
    if value is None:
        return DEFAULT_STALE_DAYS
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_STALE_DAYS:
        logger.warning(
            "settings.json: check.stale_days must be a whole number of days from 0 to %d, "
            "not %r; using %d",
            MAX_STALE_DAYS,
            value,
            DEFAULT_STALE_DAYS,
        )
        return DEFAULT_STALE_DAYS
    return value
