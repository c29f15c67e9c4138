"""The Memory tab's search field: typing filters the tree to the matching files (searched off
the GUI thread from the home's search index, the newest query winning) and shows their
matching lines; F3/Shift+F3 step through them. The rules are `components/search/box_state.py`.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Iterable
from typing import Protocol

from PySide6.QtCore import QObject, Qt, Signal, Slot
from PySide6.QtGui import QFocusEvent, QKeyEvent
from PySide6.QtWidgets import QLineEdit, QWidget

from memtab.components.search.box_state import SearchBoxState, first_match
from memtab.components.search.search import Searcher, SearchOutcome, SearchQuery
from memtab.components.tree.nodes import TreeNode
from memtab.components.tree.scan import HomeScan
from memtab.gui.context import WindowContext
from memtab.gui.tasks.jobs import Lane
from memtab.gui.toolkit.icons import tinted_icon
from memtab.gui.toolkit.style import muted_text
from memtab.gui.toolkit.widgets import named

logger = logging.getLogger(__name__)

SEARCH_KEY = "search"
# How long closing waits for a search to see its cancel (it checks every few hundred
# files) before it leaves the index file to be closed with the process.
SHUTDOWN_WAIT_MS = 200
WARM_KEY = "warm-index"

NO_MATCHING_LINES = "No matching lines: type in the search box first"
MORE_MATCHES = "The first {count} matching files are shown: type more to narrow them"

# What the search box needs of the Memory tab's other parts, as small protocols the
# composition (`gui/window/features.py`) fills with the tree's own.


class TermsHighlighter(Protocol):
    """The tree's row painter (`MemoryItemDelegate`): the terms it marks in the rows."""

    highlight_terms: tuple[str, ...]


class SearchedTree(Protocol):
    """The tree (`MemoryTreeView`): its current row, what is expanded, its painter."""

    @property
    def delegate(self) -> TermsHighlighter: ...
    def current_node(self) -> TreeNode | None: ...
    def expandAll(self) -> None: ...
    def expanded_keys(self) -> set[str]: ...
    def set_expanded_keys(self, keys: Iterable[str], *, collapse_others: bool = False) -> None: ...
    def setFocus(self, reason: Qt.FocusReason) -> None: ...


class SearchedRows(Protocol):
    """The tree's model (`MemoryTreeModel`): its rows, repainted when the terms change."""

    def nodes(self) -> Iterable[TreeNode]: ...
    def refresh_all(self) -> None: ...


class MatchStepper(Protocol):
    """The tree and the editor kept in step (`TreeEditorLink`): a row selected, a matching
    line gone to."""

    def select_key(self, key: str, open_it: bool) -> None: ...
    def step_match(self, forward: bool) -> bool: ...


class ShownScan(Protocol):
    """The tab (`MemoryTab`): the scan it shows, which searches run over."""

    @property
    def scan(self) -> HomeScan | None: ...


class _SearchField(QLineEdit):
    """The search line edit: Escape clears it; Down or Enter asks for the first match."""

    first_match_requested = Signal()
    focused = Signal()

    def focusInEvent(self, event: QFocusEvent) -> None:
        super().focusInEvent(event)
        self.focused.emit()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        if key == Qt.Key.Key_Escape and self.text():
            self.clear()
        elif key in (Qt.Key.Key_Down, Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.first_match_requested.emit()
        else:
            super().keyPressEvent(event)


class SearchBox(QObject):
    """The search field, its searches, and the tree's search state."""

    # (TreeNode) the tree to show for the current query (the full tree once the query is cleared);
    # call `after_tree_shown` when it is shown
    results_found = Signal(object)

    def __init__(
        self,
        context: WindowContext,
        parent: QWidget,
        tree: SearchedTree,
        model: SearchedRows,
        editor_link: MatchStepper,
        target: ShownScan,
    ) -> None:
        """Build the field (on `parent`, for its layout); searches run over `target.scan`.
        Its key is the Memory tab's (`MemoryTabController.focus_search`: the files shown
        first)."""
        super().__init__(parent)
        self._context = context
        self._tree = tree
        self._model = model
        self._editor_link = editor_link
        self._target = target
        self._state = SearchBoxState()
        self._searcher = Searcher()  # its jobs run on one lane, one at a time
        self._jobs = context.jobs.client("search", Lane.SCANS, parent=self)
        self._jobs.latest_finished.connect(self._on_jobs_latest_finished)
        self._jobs.latest_failed.connect(self._on_jobs_latest_failed)

        self.edit = named(_SearchField(parent), "memorySearch", accessible="Search memories")
        self.edit.setPlaceholderText("Search memories  (Ctrl+Shift+F)")
        self.edit.setClearButtonEnabled(True)
        self.edit.addAction(
            tinted_icon("search", muted_text(parent.palette())),
            QLineEdit.ActionPosition.LeadingPosition,
        )
        self.edit.textChanged.connect(self._on_edit_text_changed)
        self.edit.first_match_requested.connect(self._on_edit_first_match_requested)
        self.edit.focused.connect(self._on_edit_focused)
        self._register()

    def _register(self) -> None:
        add = self._context.actions.add
        # F3 and Shift+F3 are Find next's and Find previous's, which step here out of the
        # open file: these are the palette's, by name (see the module docstring).
        add("search.next_result", "Next search result", self.next_result)
        add("search.previous_result", "Previous search result", self.previous_result)

    @property
    def query(self) -> SearchQuery:
        """The query typed (its terms are what the tree is filtered by)."""
        return self._state.query

    @property
    def busy(self) -> bool:
        return self._jobs.is_busy(SEARCH_KEY)

    def search(self, scan: HomeScan) -> None:
        """Run the current query over `scan` (typed, or a new scan landed while searching)."""
        search = functools.partial(self._searcher.search, scan, self._state.query)
        self._jobs.submit_latest(SEARCH_KEY, search)

    def focus(self) -> None:
        """Put the cursor in the field, its text selected."""
        self.edit.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.edit.selectAll()

    def next_result(self, forward: bool = True) -> None:
        """F3: the next matching line of the search results, in the editor."""
        if not self._editor_link.step_match(forward=forward):
            self._context.status.show(NO_MATCHING_LINES)

    def previous_result(self) -> None:
        """Shift+F3: the previous matching line of the search results."""
        self.next_result(forward=False)

    def after_tree_shown(self) -> None:
        """Expand every match, or bring back the browsing expansion once cleared."""
        then = self._state.after_tree_shown()
        if then.expand_all:
            self._tree.expandAll()
        elif then.restore is not None:
            self._tree.set_expanded_keys(then.restore, collapse_others=True)

    def shutdown(self) -> None:
        """Drop the searches under way; once none runs, close the index file."""
        if self._jobs.shutdown(timeout_ms=SHUTDOWN_WAIT_MS):
            self._searcher.close()

    @Slot()
    def _on_edit_focused(self) -> None:
        """Read the files' contents in the background, so the first search is quick (once:
        from then on each search reads what changed by itself)."""
        scan = self._target.scan
        if scan is not None and self._state.warm_now(scan):
            self._jobs.submit(functools.partial(self._searcher.warm, scan), key=WARM_KEY)

    @Slot()
    def _on_edit_first_match_requested(self) -> None:
        self._tree.setFocus(Qt.FocusReason.OtherFocusReason)
        first = first_match(self._tree.current_node(), self._model.nodes())
        if first is not None:
            self._editor_link.select_key(first, open_it=False)

    @Slot(str)
    def _on_edit_text_changed(self, text: str) -> None:
        if not self._state.typed(text, self._tree.expanded_keys):
            return
        self._tree.delegate.highlight_terms = self._state.query.terms
        self._model.refresh_all()
        scan = self._target.scan
        if scan is not None:
            self.search(scan)

    @Slot(str, object)
    def _on_jobs_latest_finished(self, key: str, outcome: object) -> None:
        if key != SEARCH_KEY or not isinstance(outcome, SearchOutcome):
            return
        if not self._state.is_current(outcome.scan, outcome.query, self._target.scan):
            return  # stale: the home or the query changed since
        if self._state.told(outcome.problem):
            self._context.status.show(f"Searching without the index on disk: {outcome.problem}")
        if outcome.more:
            self._context.status.show(MORE_MATCHES.format(count=outcome.match_count))
        self.results_found.emit(outcome.tree)

    @Slot(str, str)
    def _on_jobs_latest_failed(self, key: str, message: str) -> None:
        if key == SEARCH_KEY:
            logger.warning("Search failed: %s", message)
