"""The editor's tabs, VS Code's way — no Qt (`gui.editor.editor.EditorPanel` shows them).

Which tab a file opens in (the preview tab, replaced by the next file opened, unless it is
kept or edited; else a new tab after the current one), where Ctrl+Tab goes, which tabs a
move or a deletion touches and where a moved file's tab goes, and what a tab says.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Protocol, TypeVar

from memtab.store.paths import VirtualPath


class OpenTab(Protocol):
    """What the rules ask of a tab (`gui.editor.tab.file_tab.FileTab`)."""

    @property
    def kept(self) -> bool:
        """A kept tab stays when another file opens; a preview tab is replaced."""
        ...

    @property
    def is_dirty(self) -> bool: ...

    @property
    def identity(self) -> str | None:
        """What tells two tabs apart (None: nothing is shown)."""
        ...

    @property
    def path(self) -> VirtualPath | None:
        """The mux file's virtual path (None: none, or another agent's file)."""
        ...


T = TypeVar("T", bound=OpenTab)


def preview_to_replace(tabs: Sequence[T], identity: str | None, *, keep: bool) -> T | None:
    """The tab a file (`identity`) opens in in place of what it shows: the preview tab — not
    kept, no unsaved changes — unless the file opens for good (`keep`) or is the one the
    preview shows; None: a new tab."""
    preview = next((tab for tab in tabs if not tab.kept and not tab.is_dirty), None)
    if preview is None or keep or identity == preview.identity:
        return None
    return preview


def new_tab_index(count: int, current: int, *, shown: bool) -> int:
    """Where a new tab goes among `count`: after the current one; one opened behind it
    (restoring tabs) goes last."""
    return current + 1 if count and shown else count


def stepped_index(count: int, current: int, step: int) -> int | None:
    """The tab `step` away from the current one, around the ends (None: one tab or none)."""
    return (current + step) % count if count > 1 else None


def tabs_within(tabs: Sequence[T], paths: Collection[VirtualPath]) -> list[T]:
    """The tabs of mux files at or under `paths`."""
    return [
        tab
        for tab in tabs
        if tab.path is not None and any(tab.path.is_within(path) for path in paths)
    ]


def moved_path(path: VirtualPath, old: VirtualPath, new: VirtualPath) -> VirtualPath:
    """Where `path`, at or under `old`, is once `old` moved to `new`."""
    return VirtualPath(new.scope, new.segments + path.segments[len(old.segments) :])


def tab_text(title: str, *, dirty: bool) -> str:
    """What a tab says: the file's name, ● before it with unsaved changes."""
    return f"● {title}" if dirty else title
