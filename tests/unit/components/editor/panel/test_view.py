"""What an editor tab's view shows and when, without Qt."""

from __future__ import annotations

import pytest

from memtab.components.editor.panel import (
    DESCRIPTION_HINT,
    PREVIEW_DELAY_MS,
    PREVIEW_MAX_DELAY_MS,
    ViewMode,
    description_field,
    is_warning,
    preview_delay,
    with_source,
)
from memtab.components.editor.session import FileState


def test_what_each_mode_shows() -> None:
    assert [(m.shows_source, m.shows_preview) for m in ViewMode] == [
        (True, False),
        (True, True),
        (False, True),
    ]
    assert ViewMode.PREVIEW.tip == "Rendered preview only"
    # Find and Go to line need the source: the preview alone gives way to both.
    assert with_source(ViewMode.PREVIEW) is ViewMode.SPLIT
    assert with_source(ViewMode.SOURCE) is ViewMode.SOURCE
    assert with_source(ViewMode.SPLIT) is ViewMode.SPLIT


@pytest.mark.parametrize(
    ("render_ms", "delay"),
    [
        (1.0, PREVIEW_DELAY_MS),  # a quick render: the shortest pause
        (100.0, 400),  # four times a slow one
        (900.0, PREVIEW_MAX_DELAY_MS),  # never longer than the longest
    ],
)
def test_a_slow_preview_waits_for_longer_pauses(render_ms: float, delay: int) -> None:
    assert preview_delay(render_ms) == delay


def test_the_state_label_and_the_description_field() -> None:
    assert is_warning(FileState.UNSAVED)
    assert is_warning(FileState.NOT_ON_DISK)
    assert not is_warning(FileState.CLEAN)
    assert not is_warning(FileState.READING)
    assert description_field(read_only=False) == (DESCRIPTION_HINT, True)
    assert description_field(read_only=True) == ("", False)
