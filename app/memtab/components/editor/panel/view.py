"""What an editor tab's view shows — no Qt (`gui.editor.text.view.EditorView` lays it out).

Its modes (the source, the rendered preview, or both side by side), how long typing
pauses before the preview renders again (a slow render — a big file — waits for longer
pauses next time), what the state label's colour says, and what the description field
invites for a file that can or cannot be edited.
"""

from __future__ import annotations

from enum import Enum
from typing import NamedTuple

from memtab.components.editor.session import FileState

MIRROR_DELAY_MS = 120
"""Typing pauses this long before the description field follows the frontmatter."""
PREVIEW_DELAY_MS = 250
PREVIEW_MAX_DELAY_MS = 2000
DESCRIPTION_HINT = "What this file is for — shown in the tree"
READING = "Reading…"
"""What the text of a file whose content is on its way from disk says."""


class ViewMode(Enum):
    """What the panel shows: the source, the rendered preview, or both side by side."""

    SOURCE = "Source"
    SPLIT = "Split"
    PREVIEW = "Preview"

    @property
    def tip(self) -> str:
        """The mode button's tooltip."""
        return _MODE_TIPS[self]

    @property
    def shows_source(self) -> bool:
        return self is not ViewMode.PREVIEW

    @property
    def shows_preview(self) -> bool:
        return self is not ViewMode.SOURCE


_MODE_TIPS = {
    ViewMode.SOURCE: "Edit the Markdown source",
    ViewMode.SPLIT: "Source and rendered preview side by side",
    ViewMode.PREVIEW: "Rendered preview only",
}


def with_source(mode: ViewMode) -> ViewMode:
    """The mode that shows the source for a command acting on it (find, go to line):
    the preview alone gives way to both side by side."""
    return ViewMode.SPLIT if mode is ViewMode.PREVIEW else mode


def preview_delay(render_ms: float) -> int:
    """How long typing pauses before the next render, the last one having taken
    `render_ms`: four times the render, within PREVIEW_DELAY_MS…PREVIEW_MAX_DELAY_MS."""
    return int(min(PREVIEW_MAX_DELAY_MS, max(PREVIEW_DELAY_MS, render_ms * 4)))


def is_warning(state: FileState) -> bool:
    """Whether the state label says it in the warning's colour (work that may be lost)."""
    return state in (FileState.UNSAVED, FileState.NOT_ON_DISK)


class DescriptionField(NamedTuple):
    """What the description field invites: its hint, and whether Tab stops at it."""

    hint: str
    focusable: bool


def description_field(read_only: bool) -> DescriptionField:
    """A read-only file's field invites no typing: no hint to fill it, no Tab stop."""
    return DescriptionField("", False) if read_only else DescriptionField(DESCRIPTION_HINT, True)
