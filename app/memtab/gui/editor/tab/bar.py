"""An inline message bar (not a modal) with a message and a few actions, reported by id
(`action_triggered`); Enter picks the default one, a label's Alt+letter is the window's action
(`BarKeys`). The message wraps, collapsed to `COLLAPSED_LINES` until "More".
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from PySide6.QtCore import QEvent, QObject, QRectF, Qt, Signal, Slot
from PySide6.QtGui import (
    QAction,
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
    QLabel,
    QPushButton,
    QStyle,
    QToolButton,
    QWidget,
)

from memtab.components import merge as choices
from memtab.components.editor.panel import (
    COLLAPSED_LINES,
    bar_fit,
    default_choice_of,
)
from memtab.components.editor.session import SHOW_DIFF, BarKind, bar_choice
from memtab.components.merge import ConflictChoice
from memtab.gui.actions import ActionRegistry, Focus
from memtab.gui.toolkit.icons import tinted_icon
from memtab.gui.toolkit.keyboard_return import KeyboardReturn
from memtab.gui.toolkit.style import Accent, blend, muted_text, tint
from memtab.gui.toolkit.widgets import WrappedLabel, chain_tab_order, hbox, holds_keyboard, named

_NO_MAX_HEIGHT = 16_777_215  # Qt's QWIDGETSIZE_MAX
_ICONS = {
    BarKind.INFO: QStyle.StandardPixmap.SP_MessageBoxInformation,
    BarKind.WARNING: QStyle.StandardPixmap.SP_MessageBoxWarning,
    BarKind.ERROR: QStyle.StandardPixmap.SP_MessageBoxCritical,
}


class MessageBar(QFrame):
    """A tinted strip: icon, wrapped message, action buttons and a dismiss button."""

    action_triggered = Signal(str)  # the id of the action button clicked
    dismissed = Signal()  # the close button was clicked (the bar hides itself)
    # a message was shown or the bar cleared — the buttons it offers changed (the conflict's keys
    # follow them: `BarKeys`)
    offer_changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        """An empty, hidden bar; `show_message` fills and shows it."""
        super().__init__(parent)
        self.setObjectName("messageBar")
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setAutoFillBackground(False)
        self.kind = BarKind.INFO
        self._buttons: dict[str, QPushButton] = {}
        self.default_action: str | None = None

        self._icon = QLabel(self)
        self._text = named(WrappedLabel("", self), accessible="Editor message")
        self._text.setTextFormat(Qt.TextFormat.PlainText)
        self._text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self._text.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.expanded = False
        self._more = named(QToolButton(self), accessible="Show the whole message")
        self._more.setAutoRaise(True)
        self._more.setText("More")
        self._more.clicked.connect(self._on_more_clicked)
        self._more.hide()
        self._close = named(QToolButton(self), accessible="Dismiss message", tip="Dismiss")
        self._close.setAutoRaise(True)
        self._close.setIcon(tinted_icon("editor-dismiss", muted_text(self.palette())))
        self._close.clicked.connect(self._on_close_clicked)

        self._actions_layout = hbox(spacing=6)
        top = Qt.AlignmentFlag.AlignTop
        items = ((self._icon, 0, top), (self._text, 1), (self._more, 0, top))
        hbox(
            *items,
            self._actions_layout,
            (self._close, 0, top),
            on=self,
            margins=(10, 6, 6, 6),
            spacing=8,
        )
        self.hide()

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
        self.kind = kind
        self._text.setText(text)
        self.expanded = False
        size = self.style().pixelMetric(QStyle.PixelMetric.PM_SmallIconSize)
        self._icon.setPixmap(self.style().standardIcon(_ICONS[kind]).pixmap(size, size))
        self._drop_buttons()
        for action_id, label in actions:
            button = named(QPushButton(label, self), accessible=label.replace("&", ""))
            button.setProperty("actionId", action_id)
            key = QKeySequence.mnemonic(label)
            if not key.isEmpty():  # the window's action has the key (see the module doc)
                button.setShortcut(QKeySequence())
                button.setToolTip(key.toString(QKeySequence.SequenceFormat.NativeText))
            button.clicked.connect(self._on_action_clicked)
            self._actions_layout.addWidget(button, 0, Qt.AlignmentFlag.AlignTop)
            self._buttons[action_id] = button
        chain_tab_order([self._more, *self._buttons.values(), self._close])
        self.default_action = default_choice_of(default, self._buttons)
        for action_id, button in self._buttons.items():
            button.setAutoDefault(False)
            button.setDefault(action_id == self.default_action)
        self.update()
        self.show()
        self._fit_text()
        self.offer_changed.emit()

    def _fit_text(self) -> None:
        """At most `COLLAPSED_LINES` lines until expanded; "More" when there are more."""
        lines = self._text.fontMetrics().lineSpacing()
        margins = self._text.contentsMargins()
        collapsed = COLLAPSED_LINES * lines + margins.top() + margins.bottom()
        width = self._text.width()
        needed = self._text.heightForWidth(width) if width > 0 else collapsed
        fit = bar_fit(needed, collapsed, expanded=self.expanded)
        self._more.setVisible(fit.toggle_shown)
        self._more.setText(fit.toggle_text)
        self._text.setMaximumHeight(_NO_MAX_HEIGHT if fit.max_height is None else fit.max_height)

    def resizeEvent(self, event: QResizeEvent) -> None:
        """A new width wraps the message anew: "More" may come or go."""
        super().resizeEvent(event)
        self._fit_text()

    def clear(self) -> None:
        """Hide the bar and drop its buttons."""
        self._drop_buttons()
        self.default_action = None
        self.hide()
        self.offer_changed.emit()

    def _drop_buttons(self) -> None:
        for button in self._buttons.values():
            self._actions_layout.removeWidget(button)
            button.deleteLater()
        self._buttons = {}

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Enter on the bar (or a button in it) picks the default action."""
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.default_action is not None:
            self.action_triggered.emit(self.default_action)
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
        accent = Accent[self.kind.name]  # a kind's accent has its name
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
        self.expanded = not self.expanded
        self._fit_text()

    @Slot()
    def _on_close_clicked(self) -> None:
        self.clear()
        self.dismissed.emit()


BAR_KEY = "F6"
CONFLICT_KEYS = (
    ("editor.compare", choices.COMPARE, "Alt+C"),
    ("editor.keep_mine", choices.KEEP_MINE, "Alt+M"),
    ("editor.keep_theirs", choices.KEEP_THEIRS, "Alt+T"),
    ("editor.keep_both", choices.KEEP_BOTH, "Alt+B"),
)
"""Each conflict choice's action and key: the letter its label underlines."""
NO_CONFLICT = "The open file has no conflict: nothing to {what}"
NO_MESSAGE = "The editor's bar shows nothing now"
BOTH_IN_COMPARE = "Keep both is in the compare window: Alt+B there once both sides merged"


class BarView(Protocol):
    """The open file's view (`EditorView`): its text takes the keyboard back."""

    def take_keyboard(self) -> None: ...


class BarPrompts(Protocol):
    """The open file's prompts (`EditorPrompts`)."""

    @property
    def bar(self) -> MessageBar: ...


class BarTab(Protocol):
    """An open file's tab (`FileTab`)."""

    @property
    def key(self) -> str | None: ...
    @property
    def prompts(self) -> BarPrompts: ...
    @property
    def view(self) -> BarView: ...


TabT = TypeVar("TabT", bound=BarTab)


class BarEditor(Protocol[TabT]):
    """The editor (`EditorPanel`), as these keys need it."""

    @property
    def current_tab(self) -> TabT | None: ...

    @property
    def tabs(self) -> list[TabT]: ...

    def set_current_tab(self, tab: TabT) -> None: ...


class BarKeys(QObject):
    """The bar's keys of one editor: a conflict's choices as window actions (Alt+C, M, T,
    B; on only while the open file's bar offers them, `components.merge`), and F6
    from the text to the bar's default button and back (F6 or Escape)."""

    def __init__(
        self,
        actions: ActionRegistry,
        widget: QWidget,
        editor: BarEditor[Any],
        say: Callable[[str], None],
    ) -> None:
        """Register the keys: the conflict's in the window, F6 in `widget` (the editor)."""
        super().__init__(widget)
        self._editor = editor
        self._say = say
        self._choices: list[tuple[QAction, ConflictChoice]] = []
        for action_id, choice, key in CONFLICT_KEYS:
            action = actions.add(
                action_id,
                f"Conflict: {choice.button}",
                functools.partial(self.choose, choice),
                keys=[key],
                tip=choice.tip,
            )
            self._choices.append((action, choice))
        self.follow_bar()
        actions.add(
            "editor.go_to_bar",
            "Go to the editor's message bar",
            self.go_to_bar,
            keys=[BAR_KEY],
            focus=Focus.WITHIN,
            on=widget,
            tip="Put the keyboard on the open file's bar (a conflict's choices); again, or "
            "Escape, puts it back in the text",
        )

    def _bar(self) -> MessageBar | None:
        """The open file's bar, while it shows something."""
        tab = self._editor.current_tab
        bar = tab.prompts.bar if tab is not None else None
        return bar if bar is not None and not bar.isHidden() else None

    def _offered(self, choice: ConflictChoice) -> str | None:
        """The action id of the bar's button that is `choice`, if it offers one."""
        bar = self._bar()
        ids = bar.action_ids() if bar is not None else []
        found = next((i for i in ids if bar_choice(i) is choice), None)
        if found is None and choice is choices.KEEP_BOTH:  # kept in the compare window
            found = next((i for i in ids if bar_choice(i) is choices.COMPARE), None)
        return found

    def offers(self, choice: ConflictChoice) -> bool:
        """Whether the open file's bar offers `choice` now (the palette lists it then)."""
        return self._offered(choice) is not None

    def follow_bar(self) -> None:
        """Enable each choice's action while the open file's bar offers it, and only then:
        a key always on took its letter from every panel (a bar shown or cleared, the
        current tab changed: the editor asks)."""
        for action, choice in self._choices:
            action.setEnabled(self.offers(choice))

    def choose(self, choice: ConflictChoice) -> None:
        """Press the bar's button of `choice`, or say there is no conflict."""
        action_id = self._offered(choice)
        bar = self._bar()
        if action_id is None or bar is None:
            self._say(NO_CONFLICT.format(what=choice.button.lower()))
            return
        if choice is choices.KEEP_BOTH and bar_choice(action_id) is choices.COMPARE:
            self._say(BOTH_IN_COMPARE)
        bar.button(action_id).click()

    def go_to_bar(self) -> None:
        """F6: the keyboard on the bar's default (else first) button; from the bar, back."""
        tab = self._editor.current_tab
        bar = self._bar()
        if tab is None or bar is None:
            self._say(NO_MESSAGE)
            return
        way_back = bar.findChild(KeyboardReturn) or KeyboardReturn(bar)
        if holds_keyboard(bar):
            if not way_back.give_back():
                tab.view.take_keyboard()
            return
        ids = bar.action_ids()
        first = bar.default_action or (ids[0] if ids else None)
        way_back.take(bar.button(first) if first is not None else None)

    def resolve_first(self) -> str | None:
        """File → Resolve conflicts… with the editor's own conflict: the first tab whose
        draft conflicts with the disk shown, its Compare opened; its file's name (None:
        no tab has one)."""
        for tab in self._editor.tabs:
            bar = tab.prompts.bar
            if not bar.isHidden() and SHOW_DIFF in bar.action_ids():
                self._editor.set_current_tab(tab)
                bar.button(SHOW_DIFF).click()
                return tab.key
        return None
