"""An inline message bar (not a modal) with a message and a few action buttons.

The editor shows conflicts, disk changes, read-only notes and save errors in it; each
action is reported by id through `action_triggered`, so the panel decides what it means.
One action may be the default: it is drawn as such, and Enter anywhere in the bar picks
it (never the focused button's neighbour by surprise). Tab goes through its buttons
between the text above it and its ✕. A label's Alt+letter (a conflict's "Keep &mine") is
drawn and named in its tooltip, but the key is the window's action's (`gui/editor/bar_keys`,
which works from the text too), never the button's own. The message wraps and never
widens the window, however long a path it names; it takes at most `COLLAPSED_LINES`
lines until "More" shows the rest (`components.editor.panel`).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QRectF, Qt, Signal, Slot
from PySide6.QtGui import (
    QKeyEvent,
    QKeySequence,
    QPainter,
    QPaintEvent,
    QPalette,
    QPen,
    QResizeEvent,
)
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QStyle,
    QToolButton,
    QWidget,
)

from memtab.components.editor.panel import (
    COLLAPSED_LINES,
    bar_fit,
    default_choice_of,
)
from memtab.components.editor.session import BarKind
from memtab.gui.toolkit.icons import tinted_icon
from memtab.gui.toolkit.style import Accent, blend, muted_text, tint
from memtab.gui.toolkit.widgets import WrappedLabel, chain_tab_order

_NO_MAX_HEIGHT = 16_777_215  # Qt's QWIDGETSIZE_MAX
_ACCENTS = {
    BarKind.INFO: Accent.INFO,
    BarKind.WARNING: Accent.WARNING,
    BarKind.ERROR: Accent.ERROR,
}

_ICONS = {
    BarKind.INFO: QStyle.StandardPixmap.SP_MessageBoxInformation,
    BarKind.WARNING: QStyle.StandardPixmap.SP_MessageBoxWarning,
    BarKind.ERROR: QStyle.StandardPixmap.SP_MessageBoxCritical,
}


class MessageBar(QFrame):
    """A tinted strip: icon, wrapped message, action buttons and a dismiss button.

    Signals:
        action_triggered(str): the id of the action button clicked.
        dismissed(): the close button was clicked (the bar hides itself).
        offer_changed(): a message was shown or the bar cleared — the buttons it offers
            changed (the conflict's keys follow them: `gui/editor/bar_keys`).
    """

    action_triggered = Signal(str)
    dismissed = Signal()
    offer_changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        """An empty, hidden bar; `show_message` fills and shows it."""
        super().__init__(parent)
        self.setObjectName("messageBar")
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setAutoFillBackground(False)
        self._kind = BarKind.INFO
        self._buttons: dict[str, QPushButton] = {}
        self._default: str | None = None

        self._icon = QLabel(self)
        self._text = WrappedLabel("", self)
        self._text.setTextFormat(Qt.TextFormat.PlainText)
        self._text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self._text.setAccessibleName("Editor message")
        self._text.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self._expanded = False
        self._more = QToolButton(self)
        self._more.setAutoRaise(True)
        self._more.setText("More")
        self._more.setAccessibleName("Show the whole message")
        self._more.clicked.connect(self._on_more_clicked)
        self._more.hide()
        self._close = QToolButton(self)
        self._close.setAutoRaise(True)
        self._close.setIcon(tinted_icon("editor-dismiss", muted_text(self.palette())))
        self._close.setToolTip("Dismiss")
        self._close.setAccessibleName("Dismiss message")
        self._close.clicked.connect(self._on_close_clicked)

        self._layout = QHBoxLayout(self)
        self._layout.setContentsMargins(10, 6, 6, 6)
        self._layout.setSpacing(8)
        self._layout.addWidget(self._icon, 0, Qt.AlignmentFlag.AlignTop)
        self._layout.addWidget(self._text, 1)
        self._actions_layout = QHBoxLayout()
        self._actions_layout.setSpacing(6)
        self._layout.addWidget(self._more, 0, Qt.AlignmentFlag.AlignTop)
        self._layout.addLayout(self._actions_layout)
        self._layout.addWidget(self._close, 0, Qt.AlignmentFlag.AlignTop)
        self.hide()

    @property
    def kind(self) -> BarKind:
        """The kind of the message shown last."""
        return self._kind

    @property
    def text(self) -> str:
        """The message shown (also when hidden: the last one)."""
        return self._text.text()

    def action_ids(self) -> list[str]:
        """The ids of the action buttons now offered, in order."""
        return list(self._buttons)

    def button(self, action_id: str) -> QPushButton:
        """The button of an action (KeyError when not offered)."""
        return self._buttons[action_id]

    @property
    def default_action(self) -> str | None:
        """The action Enter picks, if any."""
        return self._default

    def show_message(
        self,
        kind: BarKind,
        text: str,
        actions: list[tuple[str, str]] | tuple[tuple[str, str], ...] = (),
        *,
        default: str | None = None,
    ) -> None:
        """Show `text` with buttons for `actions` (pairs of id and label); `default` is
        the id Enter picks (None: Enter picks nothing)."""
        self._kind = kind
        self._text.setText(text)
        self._expanded = False
        size = self.style().pixelMetric(QStyle.PixelMetric.PM_SmallIconSize)
        self._icon.setPixmap(self.style().standardIcon(_ICONS[kind]).pixmap(size, size))
        for button in self._buttons.values():
            self._actions_layout.removeWidget(button)
            button.deleteLater()
        self._buttons = {}
        for action_id, label in actions:
            button = QPushButton(label, self)
            button.setAccessibleName(label.replace("&", ""))
            button.setProperty("actionId", action_id)
            key = QKeySequence.mnemonic(label)
            if not key.isEmpty():  # the window's action has the key (see the module doc)
                button.setShortcut(QKeySequence())
                button.setToolTip(key.toString(QKeySequence.SequenceFormat.NativeText))
            button.clicked.connect(self._on_action_clicked)
            self._actions_layout.addWidget(button, 0, Qt.AlignmentFlag.AlignTop)
            self._buttons[action_id] = button
        chain_tab_order([self._more, *self._buttons.values(), self._close])
        self._default = default_choice_of(default, self._buttons)
        for action_id, button in self._buttons.items():
            button.setAutoDefault(False)
            button.setDefault(action_id == self._default)
        self.update()
        self.show()
        self._fit_text()
        self.offer_changed.emit()

    @property
    def expanded(self) -> bool:
        """Whether the whole message shows (else at most `COLLAPSED_LINES` lines)."""
        return self._expanded

    def _fit_text(self) -> None:
        """At most `COLLAPSED_LINES` lines until expanded; "More" when there are more."""
        lines = self._text.fontMetrics().lineSpacing()
        margins = self._text.contentsMargins()
        collapsed = COLLAPSED_LINES * lines + margins.top() + margins.bottom()
        width = self._text.width()
        needed = self._text.heightForWidth(width) if width > 0 else collapsed
        fit = bar_fit(needed, collapsed, expanded=self._expanded)
        self._more.setVisible(fit.toggle_shown)
        self._more.setText(fit.toggle_text)
        self._text.setMaximumHeight(_NO_MAX_HEIGHT if fit.max_height is None else fit.max_height)

    def resizeEvent(self, event: QResizeEvent) -> None:
        """A new width wraps the message anew: "More" may come or go."""
        super().resizeEvent(event)
        self._fit_text()

    def clear(self) -> None:
        """Hide the bar and drop its buttons."""
        for button in self._buttons.values():
            button.deleteLater()
        self._buttons = {}
        self._default = None
        self.hide()
        self.offer_changed.emit()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Enter on the bar (or a button in it) picks the default action."""
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self._default is not None:
            self.action_triggered.emit(self._default)
            return
        super().keyPressEvent(event)

    def changeEvent(self, event: QEvent) -> None:
        """Re-tint the dismiss icon when the palette changes (light ↔ dark)."""
        if event.type() == QEvent.Type.PaletteChange:
            self._close.setIcon(tinted_icon("editor-dismiss", muted_text(self.palette())))
        super().changeEvent(event)

    def paintEvent(self, event: QPaintEvent) -> None:
        """A rounded strip tinted with the kind's accent, from the current palette (so it
        follows light and dark themes without a style sheet)."""
        palette = self.palette()
        accent = _ACCENTS[self._kind]
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(blend(palette.color(QPalette.ColorRole.Window), accent.color, 0.5)))
        painter.setBrush(tint(palette, accent, QPalette.ColorRole.Window, 0.14))
        painter.drawRoundedRect(QRectF(self.rect()).adjusted(0.5, 0.5, -0.5, -0.5), 5, 5)
        painter.end()

    @Slot()
    def _on_action_clicked(self) -> None:
        button = self.sender()
        if isinstance(button, QPushButton):
            self.action_triggered.emit(str(button.property("actionId")))

    @Slot()
    def _on_more_clicked(self) -> None:
        self._expanded = not self._expanded
        self._fit_text()

    @Slot()
    def _on_close_clicked(self) -> None:
        self.clear()
        self.dismissed.emit()
