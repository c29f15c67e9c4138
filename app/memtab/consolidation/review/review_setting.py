"""Whether Consolidate now shows its plan for review first: settings.json `consolidation.review`,
`review-first` (the default) or `apply-directly`."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Literal

from memtab.fs.config.declared import DeclaredSection, Setting

ReviewMode = Literal["review-first", "apply-directly"]
DEFAULT_REVIEW_MODE: ReviewMode = "review-first"


class ConsolidationSettings(DeclaredSection):
    """settings.json's `consolidation` (docs/formats.md §15.1); `review` absent or null: the
    default, `review-first`."""

    SECTION = "consolidation"

    review: Annotated[
        ReviewMode | None,
        Setting(
            "review",
            "Show Consolidate now's changes for review before applying them",
            "Each proposed change with its diff, to accept or reject, before any is applied (off, "
            "apply-directly: applied at once)",
            choices={"review-first": "", "apply-directly": ""},
        ),
    ] = None


def load_review_mode(env: Mapping[str, str] | None = None) -> ReviewMode:
    """`consolidation.review` from settings.json (the default when absent or bad)."""
    return ConsolidationSettings.load(env).review or DEFAULT_REVIEW_MODE


def save_review_mode(mode: ReviewMode, env: Mapping[str, str] | None = None) -> Path:
    """Store the review setting (other consolidation settings are kept); ValueError for a mode
    that is none."""
    return ConsolidationSettings(review=mode).save(env)
