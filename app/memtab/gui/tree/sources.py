"""Other agents' memory in the Memory tab: after each scan of the sources, `SourcesSync` keeps
the open file, the watcher's extra directories, a new section's expansion, the status bar's
notes and the footer's mux-only note in step.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection
from typing import Protocol

from PySide6.QtCore import QObject, Signal, Slot

from memtab.components.files.ops import open_file
from memtab.components.tree.scan import HomeScan
from memtab.components.tree.sources_scan import SourcesShown
from memtab.file_protocol.file_ref import MUX_SOURCE_ID, MemoryFileRef, agent_title
from memtab.file_protocol.memory_file import MemoryFile
from memtab.gui.tree.model import MemoryTreeModel
from memtab.gui.tree.view import MemoryTreeView


class SourceEditor(Protocol):
    """What this needs of the editor (`editor.EditorPanel`)."""

    def follow_changes(
        self,
        changed: Collection[MemoryFileRef],
        listed: Callable[[MemoryFileRef], MemoryFile | None] | None = None,
    ) -> None: ...


class MuxOnlyNote(Protocol):
    """What this needs of the footer (`footer.ConsolidationFooter`)."""

    def set_mux_only_note(self, agent: str | None) -> None: ...


class SourcesFollower(QObject):
    """See the module docstring."""

    # (list[tuple[str, bool]]) the sources' directories to watch (directory, recursive), outside the
    # home
    watch_targets_changed = Signal(object)
    status_message = Signal(str)  # a note for the status bar
    # the tree first shows other agents' memory (after the first scan with sources merged; also when
    # none was found)
    shown = Signal()

    def __init__(
        self,
        tree: MemoryTreeView,
        model: MemoryTreeModel,
        editor: SourceEditor,
        footer: MuxOnlyNote,
        searching: Callable[[], bool],
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._tree = tree
        self._model = model
        self._editor = editor
        self._footer = footer
        self._searching = searching
        self._follow = SourcesShown()
        self.is_shown = False

    def scanned(self, scan: HomeScan) -> None:
        """A scan landed (its tree may still be merging)."""
        news = self._follow.scanned(scan.sources)
        if news is None:
            return
        self._editor.follow_changes(news.follow, functools.partial(open_file, scan))
        if news.watch is not None:
            self.watch_targets_changed.emit(list(news.watch))
        if news.say is not None:
            self.status_message.emit(news.say)

    @Slot()
    def tree_shown(self) -> None:
        """The tree finished showing a scan: open the sections seen for the first time."""
        if self._follow.sources is not None and not self.is_shown:
            self.is_shown = True
            self.shown.emit()
        if self._searching():
            return
        for node in self._follow.to_expand(self._model.root.children):
            self._tree.setExpanded(self._model.index_for_node(node), True)

    def file_opened(self, ref: MemoryFileRef) -> None:
        """The editor opened a file: consolidation is mux's only, which the footer says
        while another agent's file is open."""
        consolidated = ref.source_id == MUX_SOURCE_ID
        self._footer.set_mux_only_note(None if consolidated else agent_title(ref.agent))

    def file_closed(self) -> None:
        self._footer.set_mux_only_note(None)
