"""The check's settings in Memtab's settings.json: `check.stale_days`, after how many days
without an agent reading or writing it a memory file is stale (default 90; 0: never).

Apart from the engine, so reading it loads nothing of the check.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated

from memtab.fs.config.declared import DeclaredSection, Setting

DEFAULT_STALE_DAYS = 90
MAX_STALE_DAYS = 36_500


class CheckSettings(DeclaredSection):
    """settings.json's `check` (docs/formats.md §15.1)."""

    SECTION = "check"

    stale_days: Annotated[
        int,
        Setting(
            "stale_days",
            "",
            "After how many days no agent read or wrote it a memory file is stale (0: never)",
            within=(0, MAX_STALE_DAYS),
            unit="days",
        ),
    ] = DEFAULT_STALE_DAYS


def load_stale_days(env: Mapping[str, str] | None = None) -> int:
    """`check.stale_days` (the default when absent or bad, with a warning for bad)."""
    return CheckSettings.load(env).stale_days
