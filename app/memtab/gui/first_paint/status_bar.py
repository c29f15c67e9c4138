"""The window's status bar: notes in a label of their own that elides at its end (Qt's
`showMessage` hid the widgets under it and ran into the home's label), with QStatusBar's
meaning for `showMessage`, `currentMessage`, `clearMessage`; narrower than `ROOMY_WIDTH`, a
note takes the other widgets' room while it shows."""

from __future__ import annotations

import logging

from PySide6 import QtGui
from PySide6.QtCore import Qt, QTimer, Slot
from PySide6.QtWidgets import QStatusBar, QToolButton, QWidget

from memtab.gui.toolkit.widgets import ElidedLabel

logger = logging.getLogger(__name__)

HOME_LABEL_MIN_WIDTH = 80
ROOMY_WIDTH = 900
"""The least width of a bar whose notes show beside the normal widgets and the home."""


class WindowStatusBar(QStatusBar):
    """A status bar whose notes elide beside the normal widgets (see the module
    docstring)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        """An empty bar with the note's label (normal widgets go before it)."""
        super().__init__(parent)
        self.setObjectName("windowStatusBar")
        self._normal = 0  # normal widgets: a permanent one's index counts them
        self._give_way: list[QWidget] = []  # what a note covers in a narrow bar
        self._covered: list[QWidget] = []  # what the note shown covers now
        self._before_tip: str | None = None  # the note a hovered entry's tip stands in for
        self.note = ElidedLabel("", self, min_width=0, elide=Qt.TextElideMode.ElideRight)
        self.note.setObjectName("statusNote")
        self.note.setAccessibleName("Status")
        # As tall from the start as a tool button (the writer's Pause comes a moment after
        # the window shows) and empty as with a note: nothing arriving in the bar later
        # moves the tab above it.
        button = QToolButton()  # never shown; gone with this function
        button.setAutoRaise(True)
        button.setText("Pause")
        self.note.setMinimumHeight(button.sizeHint().height())
        self.addWidget(self.note, 1)
        self._expiry = QTimer(self)
        self._expiry.setSingleShot(True)
        self._expiry.timeout.connect(self._on_expiry_timeout)

    def addWidget(self, widget: QWidget, stretch: int | None = 0) -> None:
        """A normal widget, on the left (counted: permanent ones are placed after)."""
        self._normal += 1
        if self._normal > 1:  # not the note itself
            self._give_way.append(widget)
        super().addWidget(widget, stretch)

    def insertWidget(self, index: int, widget: QWidget, stretch: int | None = 0) -> int:
        """A normal widget at `index` among the normal ones."""
        self._normal += 1
        self._give_way.append(widget)
        return super().insertWidget(index, widget, stretch)

    def insert_permanent_first(self, widget: QWidget) -> None:
        """A permanent widget left of the other permanent ones (the notes never cover
        it)."""
        self.insertPermanentWidget(self._normal, widget)

    def mode_indicator(self, action: QtGui.QAction, text: str) -> QToolButton:
        """A permanent button saying `text` while the checkable `action` is on (a mode
        the keys change, as VS Code shows "Tab Moves Focus"); a click turns it off."""
        button = QToolButton(self)
        button.setAutoRaise(True)
        button.setText(text)
        keys = action.shortcut().toString(QtGui.QKeySequence.SequenceFormat.NativeText)
        how = f"Click or press {keys}" if keys else "Click"
        button.setToolTip(f"{action.toolTip()}. {how} to turn it off.")
        button.setAccessibleName(text)
        button.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # Tab never stops on a status note
        button.clicked.connect(action.trigger)
        action.toggled.connect(button.setVisible)
        self.insert_permanent_first(button)
        button.setVisible(action.isChecked())
        return button

    def home_label(self, text: str, tooltip: str) -> ElidedLabel:
        """A permanent label for the home (right of the notes), eliding in the middle."""
        label = ElidedLabel(text, self, min_width=HOME_LABEL_MIN_WIDTH)
        label.set_full_text(text, tooltip)
        self.addPermanentWidget(label)
        self._give_way.append(label)
        return label

    def showMessage(self, text: str, timeout: int | None = 0) -> None:
        """Show `text` (elided to the room there is) for `timeout` ms (0: until
        replaced or cleared)."""
        self._before_tip = None  # a note that comes while a tip shows stays after it
        self.note.set_full_text(text)
        self._cover(bool(text) and self.width() < ROOMY_WIDTH)
        if timeout:
            self._expiry.start(timeout)
        else:
            self._expiry.stop()
        self.messageChanged.emit(text)

    def show_tip(self, tip: str) -> None:
        """Show a hovered menu entry's or widget's status tip in the note's place; ""
        (the pointer left it) gives the note back. The window sends its tips here: Qt's
        own, painted over the bar, hid the writer's status and ran into the home's label."""
        if tip:
            if self._before_tip is None:
                self._before_tip = self.note.full_text
            self.note.set_full_text(tip)
            self._cover(self.width() < ROOMY_WIDTH)
        elif self._before_tip is not None:
            before, self._before_tip = self._before_tip, None
            self.note.set_full_text(before)
            self._cover(bool(before) and self.width() < ROOMY_WIDTH)

    def currentMessage(self) -> str:
        """The note shown, whole ("" when none)."""
        return self.note.full_text

    def clearMessage(self) -> None:
        """Remove the note."""
        self._expiry.stop()
        if self._before_tip is not None:  # under a tip: gone once the tip goes
            self._before_tip = ""
            return
        self._cover(False)
        if self.note.full_text:
            self.note.set_full_text("")
            self.messageChanged.emit("")

    def _cover(self, cover: bool) -> None:
        """Hide what gives way to a note (those shown), or show again what was hidden."""
        for widget in self._covered:
            widget.show()
        self._covered = [w for w in self._give_way if w.isVisibleTo(self)] if cover else []
        for widget in self._covered:
            widget.hide()

    @Slot()
    def _on_expiry_timeout(self) -> None:
        self.clearMessage()
