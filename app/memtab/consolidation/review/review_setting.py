"""Whether Consolidate now shows its plan for review first: settings.json
`consolidation.review`, `review-first` (the default) or `apply-directly`.

Apart from the plans themselves (`plan.py`, which loads the engine), so the window can
read and write the setting without loading the consolidation engine.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Literal

from memtab.fs.config.settings_file import (
    SettingsFileError,
    load_settings_file,
    save_settings_section,
    settings_path,
)

logger = logging.getLogger(__name__)

SETTINGS_SECTION = "consolidation"
ReviewMode = Literal["review-first", "apply-directly"]
REVIEW_MODES: tuple[ReviewMode, ...] = ("review-first", "apply-directly")
DEFAULT_REVIEW_MODE: ReviewMode = "review-first"


def load_review_mode(env: Mapping[str, str] | None = None) -> ReviewMode:
    """`consolidation.review` from settings.json (the default when absent or bad)."""
    try:
        data = load_settings_file(settings_path(env))
    except SettingsFileError as error:
        logger.warning("%s; consolidation reviews its plan first", error)
        return DEFAULT_REVIEW_MODE
    section = data.get(SETTINGS_SECTION)
    value = section.get("review") if isinstance(section, dict) else None
    if value is None:
        return DEFAULT_REVIEW_MODE
    for mode in REVIEW_MODES:
        if value == mode:
            return mode
    logger.warning(
        "settings.json: consolidation.review must be one of %s, not %r",
        ", ".join(REVIEW_MODES),
        value,
    )
    return DEFAULT_REVIEW_MODE


def save_review_mode(mode: ReviewMode, env: Mapping[str, str] | None = None) -> Path:
    """Store the review setting (other consolidation settings are kept)."""
    if mode not in REVIEW_MODES:
        raise ValueError(f"unknown review mode {mode!r}")
    try:
        data = load_settings_file(settings_path(env))
    except SettingsFileError:
        data = {}
    section = data.get(SETTINGS_SECTION)
    values = dict(section) if isinstance(section, dict) else {}
    values["review"] = mode
    return save_settings_section(SETTINGS_SECTION, values, env=env)
