"""Small widgets and sizing rules more than one tab uses.

A label showing a path or free text must never set the window's minimum width: a QLabel
asks for its whole text (a wrapped one for its longest word, e.g. a path), and a layout
passes that up until the window grows past the screen. `ElidedLabel` (one line, elided
in the middle, whole text in the tooltip) and `WrappedLabel` (wraps, cuts a long word at
the edge) ask for nothing. `fit_to_title` makes a dialog wide enough for the window
manager to show its whole title. `give_mnemonics` gives a dialog's buttons their Alt+
letters (Qt's standard ones have none outside GNOME); `focused_text_field` is the text
field Edit → Undo and Redo act on, `REDO_KEYS` redo in it on every desktop
(`give_redo_keys` for a line edit).
"""

from __future__ import annotations

import logging
import re

from PySide6.QtCore import QEvent, QObject, QSize, Qt
from PySide6.QtGui import (
    QFont,
    QFontMetrics,
    QGuiApplication,
    QKeyEvent,
    QKeySequence,
    QResizeEvent,
)
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QDialogButtonBox,
    QGridLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QSizePolicy,
    QSpacerItem,
    QVBoxLayout,
    QWidget,
)

logger = logging.getLogger(__name__)

_MIN_WIDTH = 40
MAX_HINT_WIDTH = 640  # an elided label never asks for more (dialogs open at a sane size)
# The window manager's buttons, icon and padding beside the title (generous: cut titles
# are what this is for).
TITLE_BAR_ALLOWANCE = 170
_TITLE_SEPARATOR = " \u2014 "  # how Qt joins the title and the application's name
_SCREEN_MARGIN = 40


class ElidedLabel(QLabel):
    """A one-line label that elides its text in the middle to fit (paths keep both ends);
    the tooltip holds it all.

    It asks for its whole text (up to `MAX_HINT_WIDTH`) where there is room, and for
    only `min_width` where there is not: it never sets its window's minimum width."""

    def __init__(
        self,
        text: str = "",
        parent: QWidget | None = None,
        *,
        min_width: int = _MIN_WIDTH,
        max_hint: int = MAX_HINT_WIDTH,
        elide: Qt.TextElideMode = Qt.TextElideMode.ElideMiddle,
    ) -> None:
        """A selectable label that may shrink to `min_width` (0: it may be squeezed away,
        eliding to a stub) and asks for at most `max_hint` (less: it takes what the
        layout has left rather than claiming it); `elide`: where the text is cut (a
        sentence reads better cut at its end)."""
        super().__init__(parent)
        self._full_text = ""
        self._min_width = min_width
        self._max_hint = max_hint
        self._elide_mode = elide
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        self.set_full_text(text)

    @property
    def full_text(self) -> str:
        """The text before eliding."""
        return self._full_text

    def set_full_text(self, text: str, tooltip: str | None = None) -> None:
        """Show `text`, elided to the current width; the tooltip is `tooltip`, or the
        whole text."""
        self._full_text = text
        self.setToolTip(text if tooltip is None else tooltip)
        self._elide()
        self.updateGeometry()

    def sizeHint(self) -> QSize:
        """The whole text's size (up to `MAX_HINT_WIDTH`): what it would like."""
        hint = super().sizeHint()
        margins = self.contentsMargins()
        extra = margins.left() + margins.right() + 2 * self.margin() + 8  # elision slack
        wanted = self.fontMetrics().horizontalAdvance(self._full_text) + extra
        return QSize(min(wanted, self._max_hint), hint.height())

    def minimumSizeHint(self) -> QSize:
        """As narrow as `min_width`: the text elides instead of widening the window."""
        return QSize(self._min_width, super().minimumSizeHint().height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._elide()

    def _elide(self) -> None:
        width = max(self.width() - 2, _MIN_WIDTH // 2)
        self.setText(self.fontMetrics().elidedText(self._full_text, self._elide_mode, width))


class WrappedLabel(QLabel):
    """A label for free text (messages, errors, summaries): it wraps to the width it gets
    and never asks for more, so a long word (a path, a URL) is cut at the edge instead
    of widening the window. Its height follows the wrapped text."""

    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        """A word-wrapping label that does not set its layout's minimum width."""
        super().__init__(text, parent)
        self.setWordWrap(True)
        policy = self.sizePolicy()  # keeps the height-for-width that wrapping turned on
        policy.setHorizontalPolicy(QSizePolicy.Policy.Ignored)
        self.setSizePolicy(policy)
        self.setMinimumWidth(_MIN_WIDTH)

    def minimumSizeHint(self) -> QSize:
        """One line: QLabel's is the text wrapped at its narrowest (a word a line), which
        a form row kept as its least height however wide it was — gaps above and below.
        Layouts give it the height its width needs (height-for-width)."""
        hint = super().minimumSizeHint()
        line = self.fontMetrics().lineSpacing() + 2 * self.margin()
        margins = self.contentsMargins()
        return QSize(hint.width(), min(hint.height(), line + margins.top() + margins.bottom()))


TITLE_NAME_CHARS = 40


def short_name(name: str, limit: int = TITLE_NAME_CHARS) -> str:
    """`name` for a window title: cut in the middle beyond `limit` characters (a title
    must fit the title bar; the dialog shows the whole name)."""
    if len(name) <= limit:
        return name
    half = (limit - 1) // 2
    return f"{name[:half]}…{name[len(name) - half :]}"


def shown_title(window: QWidget) -> str:
    """The title as the window manager shows it: with " — Memtab" after it."""
    title = window.windowTitle()
    app_name = QGuiApplication.applicationDisplayName()
    if app_name and app_name not in title:
        return f"{title}{_TITLE_SEPARATOR}{app_name}"
    return title


def title_width(window: QWidget) -> int:
    """How wide `window` must be for its whole title to show in the title bar (title
    bars use a bold font more often than not: measured bold)."""
    font = QFont(window.font())
    font.setBold(True)
    return QFontMetrics(font).horizontalAdvance(shown_title(window)) + TITLE_BAR_ALLOWANCE


def fit_to_title(window: QWidget) -> int:
    """Make `window` at least as wide as its title needs (no wider than the screen).

    Call it once the window's title and content are set: a QMessageBox rebuilds its
    layout when its texts change. Returns the width asked for."""
    needed = title_width(window)
    screen = window.screen() or QGuiApplication.primaryScreen()
    if screen is not None:
        needed = min(needed, screen.availableGeometry().width() - _SCREEN_MARGIN)
    if isinstance(window, QMessageBox):
        # A message box sizes itself to its layout when shown: widen the layout.
        layout = window.layout()
        if isinstance(layout, QGridLayout):
            margins = layout.contentsMargins()
            width = needed - margins.left() - margins.right()
            spacer = QSpacerItem(width, 0, QSizePolicy.Policy.Minimum, QSizePolicy.Policy.Minimum)
            layout.addItem(spacer, layout.rowCount(), 0, 1, layout.columnCount())
        else:
            logger.debug("Cannot widen a message box laid out by %r", layout)
        return needed
    window.setMinimumWidth(max(window.minimumWidth(), needed))
    return needed


def focused_text_field() -> QPlainTextEdit | QLineEdit | None:
    """The editable text field that has the keyboard focus (Edit → Undo acts on its
    typing), or None."""
    widget = QApplication.focusWidget()
    if isinstance(widget, (QPlainTextEdit, QLineEdit)) and not widget.isReadOnly():
        return widget
    return None


REDO_KEYS = (QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y"))
"""Redo in a text field, both on every desktop (Qt's own Redo is one of them, by desktop)."""


def is_redo_key(event: QKeyEvent) -> bool:
    """Whether `event` is one of `REDO_KEYS`."""
    pressed = QKeySequence(event.keyCombination())
    return any(pressed.matches(key) == QKeySequence.SequenceMatch.ExactMatch for key in REDO_KEYS)


class _LineRedoKeys(QObject):
    """`give_redo_keys`' event filter."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if not (isinstance(event, QKeyEvent) and is_redo_key(event)):
            return False
        if not isinstance(watched, QLineEdit):
            return False
        if event.type() == QEvent.Type.ShortcutOverride:
            event.accept()  # the field's key, not a window shortcut's
            return True
        if event.type() == QEvent.Type.KeyPress:
            if not watched.isReadOnly():
                watched.redo()
            return True
        return False


def give_redo_keys(field: QLineEdit) -> None:
    """Make both `REDO_KEYS` redo in `field` (a QLineEdit takes only its desktop's one)."""
    field.installEventFilter(_LineRedoKeys(field))


def field_can(field: QPlainTextEdit | QLineEdit, *, redo: bool) -> bool:
    """Whether the field has typing to undo (or redo)."""
    if isinstance(field, QLineEdit):
        return field.isRedoAvailable() if redo else field.isUndoAvailable()
    document = field.document()
    return document.isRedoAvailable() if redo else document.isUndoAvailable()


# --- dialog buttons ---------------------------------------------------------------------

_MNEMONIC = re.compile(r"(?<!&)&(?!&)(.)")


def mnemonic(text: str) -> str | None:
    """The letter `&` marks in `text` (lower case), or None."""
    found = _MNEMONIC.search(text)
    return found.group(1).lower() if found else None


def with_mnemonic(text: str, taken: set[str]) -> str:
    """`text` with a `&` before a letter not in `taken` — a word's first letter if one is
    free, else any other — or unchanged when every letter is taken."""
    firsts = [match.start() for match in re.finditer(r"\b\w", text)]
    others = [index for index, char in enumerate(text) if char.isalnum()]
    for index in [*firsts, *others]:
        if text[index].lower() not in taken:
            return f"{text[:index]}&{text[index:]}"
    return text


def give_mnemonics(box: QDialogButtonBox | QMessageBox) -> None:
    """Give each button of a dialog's button box a mnemonic no other of its buttons has
    (Alt+D: Discard): Qt's standard buttons have none outside GNOME. Call it once the
    buttons have their texts."""
    buttons = box.buttons()
    taken = {letter for button in buttons if (letter := mnemonic(button.text()))}
    for button in buttons:
        text = button.text()
        if text and mnemonic(text) is None:
            marked = with_mnemonic(text, taken)
            button.setText(marked)
            if (letter := mnemonic(marked)) is not None:
                taken.add(letter)


def lay_out_prose_dialog(
    dialog: QDialog, above: QLabel, text_edit: QPlainTextEdit, accept_text: str, height: int
) -> None:
    """Lay out a dialog that asks for a short prose text: `above` says where it goes,
    `text_edit` takes it — Tab goes on to the buttons, as prose has no use for a tab — and
    the buttons are `accept_text` (with its Alt+letter) and Cancel."""
    text_edit.setTabChangesFocus(True)
    buttons = QDialogButtonBox(
        QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, dialog
    )
    buttons.button(QDialogButtonBox.StandardButton.Ok).setText(accept_text)
    give_mnemonics(buttons)
    buttons.accepted.connect(dialog.accept)
    buttons.rejected.connect(dialog.reject)
    layout = QVBoxLayout(dialog)
    layout.addWidget(above)
    layout.addWidget(text_edit, 1)
    layout.addWidget(buttons)
    dialog.resize(480, height)
