"""The check's settings in Memtab's settings.json: `check.stale_days`, after how many days
without an agent reading or writing it a memory file is stale (default 90; 0: never).

Apart from the engine, so the window can read and write it without loading the check.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from pathlib import Path

from memtab.fs.config.settings_file import (
    SettingsFileError,
    load_settings_file,
    save_settings_section,
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


def save_stale_days(days: int, env: Mapping[str, str] | None = None) -> Path:
    """Store `check.stale_days` (the section's other keys are kept)."""
    if isinstance(days, bool) or not 0 <= days <= MAX_STALE_DAYS:
        raise ValueError(f"stale_days must be from 0 to {MAX_STALE_DAYS}, not {days!r}")
    return save_settings_section(SETTINGS_SECTION, {"stale_days": days}, env=env)
