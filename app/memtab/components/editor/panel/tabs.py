"""The editor's tabs, VS Code's way — no Qt (`gui.editor.editor.EditorPanel` shows them).

Which tab a file opens in (the preview tab, replaced by the next file opened, unless it is
kept or edited; else a new tab after the current one), where Ctrl+Tab goes, which tabs a
move or a deletion touches and where a moved file's tab goes, and what a tab says.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from typing import Generic, Protocol, TypeVar

from memtab.file_protocol.file_ref import MemoryFileRef
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

    @property
    def ref(self) -> MemoryFileRef | None:
        """Which memory file it shows (None: none, or one opened by physical path)."""
        ...

    @property
    def reading(self) -> bool:
        """Its file's text is on its way from disk."""
        ...

    @property
    def saving(self) -> bool:
        """A save is on its way to disk."""
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


class OpenTabs(Generic[T]):
    """The open tabs, in the tab bar's order, and what the panel asks of them."""

    def __init__(self) -> None:
        self._tabs: list[T] = []

    def __iter__(self) -> Iterator[T]:
        return iter(list(self._tabs))  # a copy: a tab may close while they are gone through

    def __len__(self) -> int:
        return len(self._tabs)

    def __contains__(self, tab: object) -> bool:
        return tab in self._tabs

    def index(self, tab: T) -> int:
        """Where `tab` is in the bar (ValueError: it is not open)."""
        return self._tabs.index(tab)

    def at(self, index: int) -> T | None:
        """The tab at `index` of the bar (None: there is none, e.g. -1)."""
        return self._tabs[index] if 0 <= index < len(self._tabs) else None

    def insert(self, tab: T, current: int, *, shown: bool) -> int:
        """Open `tab` where a new tab goes (`new_tab_index`); where it went."""
        index = new_tab_index(len(self._tabs), current, shown=shown)
        self._tabs.insert(index, tab)
        return index

    def remove(self, tab: T) -> int:
        """Close `tab`; where it was."""
        index = self._tabs.index(tab)
        del self._tabs[index]
        return index

    def tab_for(self, ref: MemoryFileRef) -> T | None:
        """The tab showing `ref`, if one does."""
        return next((tab for tab in self._tabs if tab.ref == ref), None)

    def with_identity(self, identity: str) -> T | None:
        """The tab showing what `identity` names (a file shown by its physical path)."""
        return next((tab for tab in self._tabs if tab.identity == identity), None)

    def of_refs(self, refs: Collection[MemoryFileRef]) -> list[T]:
        """The tabs of `refs`."""
        return [tab for tab in self._tabs if tab.ref in refs]

    def preview_to_replace(self, identity: str | None, *, keep: bool) -> T | None:
        """The preview tab a file opens in (`preview_to_replace`), or None: a new tab."""
        return preview_to_replace(self._tabs, identity, keep=keep)

    def within(self, paths: Collection[VirtualPath]) -> list[T]:
        """The tabs of mux files at or under `paths`."""
        return tabs_within(self._tabs, paths)

    @property
    def refs(self) -> list[MemoryFileRef]:
        """The memory files open, in the bar's order."""
        return [tab.ref for tab in self._tabs if tab.ref is not None]

    @property
    def reading_refs(self) -> list[MemoryFileRef]:
        """The files of the tabs whose text is still on its way."""
        return [tab.ref for tab in self._tabs if tab.reading and tab.ref is not None]

    @property
    def has_unsaved(self) -> bool:
        return any(tab.is_dirty for tab in self._tabs)

    @property
    def saving(self) -> bool:
        return any(tab.saving for tab in self._tabs)
