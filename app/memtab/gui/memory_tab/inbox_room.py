"""Where the Inbox sits: the room its review needs.

Over the bottom of the tree (`TreeOverlay`), a proposal's review was as narrow as the tree
— its diff cut a replacement's text while the editor's ~900 px sat empty — and took the
tree's rows: at 1366×768 the list showed one row and the tree four. So a wide tab puts
the Inbox below the editor, in a splitter the user can move and the window remembers
(`INBOX_SPLITTER`; at first the Inbox has `INBOX_SHARE` of the editor's column), its
review's diff as wide as the editor, its lines wrapped (`InboxPanel.set_roomy`); without a
review it is no taller than its rows, the editor keeping the rest; the tree keeps its
height. A narrow tab (one pane at a time) lays it over the tree again, where the
files are: the keyboard goes from the tree to it there.
"""

from __future__ import annotations

from typing import Protocol

from PySide6.QtCore import QEvent, QObject, SignalInstance, Slot
from PySide6.QtWidgets import QSplitter, QWidget

from memtab.components.window.ui_state import UiState
from memtab.gui.memory_tab.overlay import TreeOverlay
from memtab.gui.memory_tab.panes import PaneSwitch
from memtab.gui.toolkit.clock import QT_CLOCK

INBOX_SPLITTER = "inbox"
"""The UI state's name of the editor/Inbox splitter's sizes."""
INBOX_SHARE = 0.5
"""The Inbox's share of the editor's column until the user moves the splitter."""


class RoomyInbox(Protocol):
    """The Inbox, as its room needs it (`InboxPanel`)."""

    @property
    def reviewing_changed(self) -> SignalInstance: ...

    @property
    def reviewing(self) -> bool: ...

    def set_roomy(self, roomy: bool) -> None: ...


class InboxRoom(QObject):
    """Moves the Inbox between the tree and the editor's column (see the module doc)."""

    def __init__(
        self,
        inbox: QWidget,
        roomy: RoomyInbox,
        overlay: TreeOverlay,
        below_editor: QSplitter,
        panes: PaneSwitch,
        ui_state: UiState | None,
        parent: QObject | None = None,
    ) -> None:
        """Place `inbox` (over the tree in `overlay`, or below the editor in
        `below_editor`) as `panes` is narrow or wide, from now on."""
        super().__init__(parent)
        self._inbox = inbox
        self._roomy = roomy
        self._overlay = overlay
        self._splitter = below_editor
        self._state = ui_state
        self._sized = False  # the splitter has its sizes (remembered, or the first share)
        self._fit_soon = QT_CLOCK.timer(self, self._fit, single_shot=True)
        below_editor.splitterMoved.connect(self._on_splitter_moved)
        roomy.reviewing_changed.connect(self._on_inbox_reviewing_changed)
        inbox.installEventFilter(self)
        panes.narrow_changed.connect(self._on_panes_narrow_changed)
        self._place(panes.narrow)

    @property
    def below_editor(self) -> bool:
        """Whether the Inbox sits below the editor (a wide tab)."""
        return self._inbox.parentWidget() is self._splitter

    def _place(self, narrow: bool) -> None:
        if narrow:
            if self.below_editor:
                self._overlay.add(self._inbox)  # reparented: out of the splitter
            elif self._inbox not in self._overlay.panels:
                self._overlay.add(self._inbox)
            self._roomy.set_roomy(False)
            return
        self._overlay.remove(self._inbox)
        self._splitter.addWidget(self._inbox)
        self._splitter.setStretchFactor(0, 1)
        self._splitter.setStretchFactor(1, 0)
        self._roomy.set_roomy(True)
        if not self._sized and not self._inbox.isHidden():
            self._size()

    def _size(self) -> None:
        """The splitter's sizes as the Inbox first shows below the editor, and as a review
        shows in it: remembered, or `INBOX_SHARE` of the column it has then."""
        self._sized = True
        sizes = self._state.splitter_sizes(INBOX_SPLITTER) if self._state else None
        if sizes is not None and len(sizes) == 2 and min(sizes) > 0:
            self._splitter.setSizes(sizes)
            return
        total = sum(self._splitter.sizes()) or self._splitter.height()
        share = int(total * INBOX_SHARE)
        self._splitter.setSizes([total - share, share])

    def _fit(self) -> None:
        """Without a review, the Inbox as tall as what it shows, at the bottom of the
        column (its buttons stay where they were as details come and go); the editor takes
        the rest."""
        if self._roomy.reviewing or not self.below_editor or self._inbox.isHidden():
            return
        total = sum(self._splitter.sizes())
        wanted = min(self._inbox.sizeHint().height(), total)
        if total and self._splitter.sizes()[1] != wanted:
            self._splitter.setSizes([total - wanted, wanted])

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """The Inbox shows (something waits) below the editor: size the splitter once."""
        # Asked of Show and LayoutRequest alone: other events come while the window is
        # torn down, when the splitter is no longer one. Not while the splitter is taking
        # the Inbox in (`_place` sizes it then).
        kind = event.type()
        if watched is not self._inbox or kind not in _FITTING_EVENTS:
            return False
        if self._splitter.indexOf(self._inbox) != 1:
            return False
        if kind == QEvent.Type.Show and not self._sized:
            self._size()
        self._fit_soon.start(0)
        return False

    @Slot(bool)
    def _on_panes_narrow_changed(self, narrow: bool) -> None:
        self._place(narrow)

    @Slot(bool)
    def _on_inbox_reviewing_changed(self, reviewing: bool) -> None:
        """A review shows: the Inbox gets its room again (without one it is no taller
        than its rows, the editor taking the rest)."""
        if not self.below_editor:
            return
        if reviewing:
            self._size()
        else:
            self._fit()

    @Slot(int, int)
    def _on_splitter_moved(self, _position: int, _index: int) -> None:
        # The room a review is given (without one, the Inbox is as tall as its rows).
        if self._state is not None and self.below_editor and self._roomy.reviewing:
            self._state.set_splitter_sizes(INBOX_SPLITTER, self._splitter.sizes())


_FITTING_EVENTS = frozenset({QEvent.Type.Show, QEvent.Type.LayoutRequest})
"""The Inbox's events its room follows: it shows, what it shows changed."""
