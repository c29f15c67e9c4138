"""Whether Consolidate now shows its plan for review first: settings.json `consolidation.review`,
`review-first` (the default) or `apply-directly`."""

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
from memtab.fs.records import Record, RecordError

logger = logging.getLogger(__name__)

SETTINGS_SECTION = "consolidation"
ReviewMode = Literal["review-first", "apply-directly"]
REVIEW_MODES: tuple[ReviewMode, ...] = ("review-first", "apply-directly")
DEFAULT_REVIEW_MODE: ReviewMode = "review-first"


class ConsolidationSettings(Record):
    """settings.json's `consolidation` (docs/formats.md §15.1): `review`, one of `REVIEW_MODES`
    (absent or null: the default; another value: the default, with a warning)."""

    review: ReviewMode | None = None

    @property
    def mode(self) -> ReviewMode:
        return self.review or DEFAULT_REVIEW_MODE


def load_review_mode(env: Mapping[str, str] | None = None) -> ReviewMode:
    """`consolidation.review` from settings.json (the default when absent or bad)."""
    try:
        data = load_settings_file(settings_path(env))
    except SettingsFileError as error:
        logger.warning("%s; consolidation reviews its plan first", error)
        return DEFAULT_REVIEW_MODE
    try:
        return ConsolidationSettings.read_or_raise(data.get(SETTINGS_SECTION)).mode
    except RecordError as problem:
        if problem.where:  # a bad value, not a section that is missing or no object
            logger.warning(
                "settings.json: consolidation.review must be one of %s, not %r",
                ", ".join(REVIEW_MODES),
                problem.value,
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
    values = dict(section) if isinstance(section, dict) else {}  # its other keys are kept
    values["review"] = mode
    return save_settings_section(SETTINGS_SECTION, values, env=env)
