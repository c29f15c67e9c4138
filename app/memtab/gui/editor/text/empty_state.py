"""What the editor shows with no file open: one muted line, in the window's palette — and,
below it, the room another feature puts there (`EmptyRoom`: what needs the user, handed in
by the window's composition; the editor knows nothing of what it shows)."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, Slot
from PySide6.QtWidgets import QLabel, QStackedWidget, QVBoxLayout, QWidget

from memtab.gui.toolkit.style import muted_text, set_style_sheet


class EmptyState(QWidget):
    """What the panel shows with no file open."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._label = QLabel("Select a memory file to view or edit it.", self)
        self._label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self._label.setWordWrap(True)
        self._layout = layout = QVBoxLayout(self)
        layout.addStretch(1)
        layout.addWidget(self._label)
        layout.addStretch(2)
        self._recolor()

    def hold(self, room: QWidget) -> None:
        """Show `room` under the line, taking the room the stretches had."""
        if room.parentWidget() is self:
            return
        layout = self._layout
        room.setParent(self)
        layout.insertWidget(2, room, 1)
        layout.setStretch(0, 0)
        layout.setStretch(3, 0)
        room.show()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.PaletteChange:
            self._recolor()
        super().changeEvent(event)

    def _recolor(self) -> None:
        set_style_sheet(self._label, f"color: {muted_text(self.palette()).name()}")


class EmptyRoom(QObject):
    """The one room of an editor's stack: lent to whichever empty state the stack shows
    (the panel's own, or the empty page's), moved there as the stack changes — and taken
    back, hidden, when the page holding it leaves the stack, so a closed tab never takes
    the room with it."""

    def __init__(self, stack: QStackedWidget) -> None:
        super().__init__(stack)
        self._stack = stack
        self._room: QWidget | None = None
        stack.currentChanged.connect(self._on_stack_current_changed)
        stack.widgetRemoved.connect(self._on_stack_widget_removed)

    @property
    def room(self) -> QWidget | None:
        return self._room

    def hold(self, room: QWidget) -> None:
        """Show `room` whenever no file is open; it is the stack's from now on, lent to
        the page that shows it."""
        self._room = room
        self._take_back()
        self._on_stack_current_changed(self._stack.currentIndex())

    def _take_back(self) -> None:
        room = self._room
        if room is not None and room.parentWidget() is not self._stack:
            room.hide()
            room.setParent(self._stack)  # not a page: kept hidden until a page shows it

    @Slot(int)
    def _on_stack_current_changed(self, index: int) -> None:
        shown = self._stack.widget(index)
        if self._room is None or shown is None:
            return
        state = shown if isinstance(shown, EmptyState) else shown.findChild(EmptyState)
        # A file tab's own empty state is never shown while it holds a file: the room
        # stays where it was.
        if state is not None and (state is shown or state.isVisibleTo(shown)):
            state.hold(self._room)

    @Slot(int)
    def _on_stack_widget_removed(self, _index: int) -> None:
        room = self._room
        if room is None or room.parentWidget() is self._stack:
            return
        pages = (self._stack.widget(i) for i in range(self._stack.count()))
        if not any(page is not None and page.isAncestorOf(room) for page in pages):
            self._take_back()  # its page goes (a closed tab, deleted later)
