"""How Memtab's dialogs open: whole on their screen (`fit_to_screen`, `stack_when_narrow`),
wide enough for their title (`fit_to_title`), an Alt+letter on every button
(`give_mnemonics`), and the one layout of a short prose dialog (`lay_out_prose_dialog`)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import TypeAlias

from PySide6.QtCore import QEvent, QObject, QRect, QSize, Qt
from PySide6.QtGui import QFont, QFontMetrics, QGuiApplication, QKeySequence, QScreen, QShortcut
from PySide6.QtWidgets import (
    QAbstractButton,
    QDialog,
    QDialogButtonBox,
    QGridLayout,
    QLabel,
    QMenu,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QSpacerItem,
    QSplitter,
    QWidget,
)

from memtab.components.window.mnemonics import MNEMONIC, menu_mnemonics, mnemonic, with_mnemonic
from memtab.components.window.ui_state import UiState
from memtab.gui.toolkit.screen_room import room_on
from memtab.gui.toolkit.widgets import vbox

logger = logging.getLogger(__name__)

# The window manager's buttons, icon and padding beside the title (generous: cut titles
# are what this is for).
TITLE_BAR_ALLOWANCE = 170
_TITLE_SEPARATOR = " \u2014 "  # how Qt joins the title and the application's name
_SCREEN_MARGIN = 40
NARROWEST_WINDOW_CAP = 480
"""px: a dialog opens no wider than the window it opens over, but a window narrower than
this leaves it this much (a screen permitting)."""
QWIDGETSIZE_MAX = (1 << 24) - 1  # Qt's own bound on a widget's size


def opening_screen(window: QWidget) -> QScreen | None:
    """The screen `window` opens on: its parent window's (a dialog opens over it, even
    before it has a screen of its own), else its own."""
    parent = window.parentWidget()
    screen = parent.window().screen() if parent is not None else window.screen()
    return screen or QGuiApplication.primaryScreen()


def available_geometry(window: QWidget) -> QRect:
    """The available geometry (panels and docks excluded) of the screen `window` opens on
    (the tests replace it with a small screen's)."""
    screen = opening_screen(window)
    return screen.availableGeometry() if screen is not None else QRect(0, 0, 1024, 600)


def shown_title(window: QWidget) -> str:
    """The title as the window manager shows it: with " — Memtab" after it."""
    title = window.windowTitle()
    app_name = QGuiApplication.applicationDisplayName()
    if app_name and app_name not in title:
        return f"{title}{_TITLE_SEPARATOR}{app_name}"
    return title


def title_width(window: QWidget) -> int:
    """How wide `window` must be for its whole title to show in the title bar (title
    bars use a bold font more often than not)."""
    font = QFont(window.font())
    font.setBold(True)
    return QFontMetrics(font).horizontalAdvance(shown_title(window)) + TITLE_BAR_ALLOWANCE


def fit_to_title(window: QWidget) -> int:
    """Make `window` at least as wide as its title needs (no wider than the screen), once
    its title and content are set (a QMessageBox relays out as its texts change). Returns
    the width asked for."""
    needed = min(title_width(window), available_geometry(window).width() - _SCREEN_MARGIN)
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


_SMALL_DIALOG_FLAGS = (
    Qt.WindowType.Dialog
    | Qt.WindowType.CustomizeWindowHint
    | Qt.WindowType.WindowTitleHint
    | Qt.WindowType.WindowSystemMenuHint
    | Qt.WindowType.WindowCloseButtonHint
)


def small_dialog(dialog: QDialog) -> None:
    """Give `dialog` a title and a close button but no minimize or maximize button (the
    window manager's defaults): call it before it is shown."""
    dialog.setWindowFlags(_SMALL_DIALOG_FLAGS)


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


OK_CANCEL = QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel


def button_box(
    dialog: QDialog,
    buttons: QDialogButtonBox.StandardButton = QDialogButtonBox.StandardButton.Close,
    *,
    ok: str | None = None,
    extra: Sequence[QAbstractButton] = (),
) -> QDialogButtonBox:
    """`dialog`'s row of `buttons` (the Ok one reading `ok`) and `extra` ones, each with a
    mnemonic, accepting and rejecting `dialog`."""
    box = QDialogButtonBox(buttons, dialog)
    if ok is not None:
        box.button(QDialogButtonBox.StandardButton.Ok).setText(ok)
    for button in extra:
        box.addButton(button, QDialogButtonBox.ButtonRole.ActionRole)
    give_mnemonics(box)
    box.accepted.connect(dialog.accept)
    box.rejected.connect(dialog.reject)
    return box


Choice: TypeAlias = (
    QMessageBox.StandardButton | tuple[str, QMessageBox.ButtonRole | QMessageBox.StandardButton]
)
"""A message box's button: a standard one, or a text with its role (or the standard one it
relabels)."""


def message_box(
    parent: QWidget | None,
    icon: QMessageBox.Icon,
    title: str,
    text: str,
    detail: str,
    choices: Sequence[Choice],
    *,
    default: int = -1,
    escape: int = -1,
    window_modal: bool = False,
) -> tuple[QMessageBox, list[QPushButton]]:
    """A small message box asking `text` (`detail` under it) with a button for each of
    `choices` (each with a mnemonic; Enter: `choices[default]`, Escape: `choices[escape]`),
    sized to show its whole title; and its buttons, in the order of `choices`."""
    box = QMessageBox(icon, title, text, parent=parent)
    if window_modal:
        box.setWindowModality(Qt.WindowModality.WindowModal)  # sets flags: before ours
    small_dialog(box)
    box.setInformativeText(detail)
    buttons: list[QPushButton] = []
    for choice in choices:
        label, kind = choice if isinstance(choice, tuple) else ("", choice)
        if isinstance(kind, QMessageBox.StandardButton):
            buttons.append(box.addButton(kind))
            if label:
                buttons[-1].setText(label)
        else:
            buttons.append(box.addButton(label, kind))
    give_mnemonics(box)
    box.setDefaultButton(buttons[default])
    box.setEscapeButton(buttons[escape])
    fit_to_title(box)
    return box, buttons


def answer_later(
    box: QMessageBox, buttons: Sequence[QAbstractButton], answer: Callable[[int], object]
) -> None:
    """Open `box` without blocking; `answer` gets the index in `buttons` of the one clicked
    (-1: the box was closed)."""

    def finished(_result: int) -> None:
        clicked = box.clickedButton()
        box.deleteLater()
        answer(next((i for i, button in enumerate(buttons) if button is clicked), -1))

    box.finished.connect(finished)
    box.open()


def give_menu_letters(menu: QMenu) -> None:
    """Give each entry `menu` shows a letter no other of its entries has: Qt runs an entry
    by its letter only when the letter is its alone."""
    shown = [a for a in menu.actions() if not a.isSeparator() and a.isVisible()]
    for action, text in zip(shown, menu_mnemonics([a.text() for a in shown]), strict=True):
        if action.text() != text:
            action.setText(text)


def room_for_mnemonics(widget: QWidget) -> None:
    """Widen the labels in `widget` whose mnemonic's underline costs them width: Qt draws
    the underlined letter unkerned, and the last letter was cut ("To" read "Tc")."""
    for label in widget.findChildren(QLabel):
        found = MNEMONIC.search(label.text())
        if found is None or label.buddy() is None:
            continue
        text = label.text()
        before, letter, after = text[: found.start()], found.group(1), text[found.end() :]
        metrics = label.fontMetrics()
        plain = (before + letter + after).replace("&&", "&")
        drawn = metrics.horizontalAdvance(before + letter) + metrics.horizontalAdvance(after)
        extra = drawn - metrics.horizontalAdvance(plain)
        if extra > 0:
            label.setMinimumWidth(label.sizeHint().width() + extra)


def lay_out_prose_dialog(
    dialog: QDialog, above: QLabel, text_edit: QPlainTextEdit, accept_text: str, height: int
) -> None:
    """Lay out a dialog that asks for a short prose text: `above` says where it goes,
    `text_edit` takes it (Tab goes on to the buttons), and the buttons are `accept_text`
    (also Ctrl+Enter, as the editor saves) and Cancel."""
    text_edit.setTabChangesFocus(True)
    buttons = button_box(dialog, OK_CANCEL, ok=accept_text)
    ok = buttons.button(QDialogButtonBox.StandardButton.Ok)
    ok.setToolTip(f"{accept_text.replace('&', '')} (Ctrl+Enter)")
    for key in ("Ctrl+Return", "Ctrl+Enter"):
        QShortcut(QKeySequence(key), dialog).activated.connect(ok.click)
    vbox(above, (text_edit, 1), buttons, on=dialog)
    above.setWordWrap(True)  # a long path in it never widens the dialog past the screen
    fit_to_screen(dialog, QSize(480, height))


def _ui_state_of(window: QWidget) -> UiState | None:
    """The UI state of the main window `window` opens over (None: no window, or one that
    keeps none)."""
    parent = window.parentWidget()
    while parent is not None:
        state = getattr(parent, "ui_state", None)  # MainWindow's
        if isinstance(state, UiState):
            return state
        parent = parent.parentWidget()
    return None


# What `fit_to_screen` and `stack_when_narrow` keep, as properties of the widget they
# watch: their event filters keep nothing of their own (a filter's Python attributes can
# be gone while Qt still calls it, as a dialog deleted on close is torn down).
_PREFERRED = "memtabPreferredSize"
_REMEMBER = "memtabRememberedAs"
_GIVEN = "memtabGivenSize"  # the size the last Show gave the dialog
_STACK_BELOW = "memtabStackBelow"


class _ScreenFit(QObject):
    """`fit_to_screen`'s event filter: sizes a dialog on every Show, before `QDialog`'s own
    showEvent centres it over its parent on that screen; on Hide, remembers a size the
    user changed."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Size the dialog as it is shown; note its size as it is hidden."""
        if isinstance(watched, QDialog) and not event.spontaneous():
            if event.type() == QEvent.Type.Show:
                _fit_now(watched)
            elif event.type() == QEvent.Type.Hide:
                _note_size(watched)
        return False


def _remembered_as(dialog: QDialog) -> str | None:
    name = dialog.property(_REMEMBER)
    return name if isinstance(name, str) and name else None


def _wanted_size(dialog: QDialog) -> QSize:
    name = _remembered_as(dialog)
    state = _ui_state_of(dialog) if name else None
    remembered = state.dialog_size(name) if state is not None and name else None
    if remembered is not None:
        return QSize(*remembered)  # the user's own size: held to the screen only
    preferred = dialog.property(_PREFERRED)
    preferred = preferred if isinstance(preferred, QSize) else QSize()
    hint = dialog.sizeHint()
    width = preferred.width() or hint.width()
    return QSize(min(width, _window_width(dialog)), preferred.height() or hint.height())


def _window_width(dialog: QDialog) -> int:
    """How wide the shown window `dialog` opens over is (no narrower than
    `NARROWEST_WINDOW_CAP`; no shown window: no bound) — a dialog opened from a window on
    half a screen opens over that window, not over the terminal beside it."""
    parent = dialog.parentWidget()
    window = parent.window() if parent is not None else None
    if window is None or not window.isVisible() or window.isMinimized():
        return QWIDGETSIZE_MAX
    return max(window.width(), NARROWEST_WINDOW_CAP)


def _fit_now(dialog: QDialog) -> None:
    """Size `dialog` as `fit_to_screen` asked, on the screen it opens on now."""
    room = room_on(available_geometry(dialog))
    # A minimum set by a constant or a long title never outgrows the screen.
    if dialog.minimumWidth() > room.width():
        dialog.setMinimumWidth(room.width())
    if dialog.minimumHeight() > room.height():
        dialog.setMinimumHeight(room.height())
    wanted = _wanted_size(dialog)
    width = min(wanted.width(), room.width())
    height = wanted.height()
    layout = dialog.layout()
    if layout is not None and layout.hasHeightForWidth():  # wrapped labels, shown whole
        height = max(height, layout.totalHeightForWidth(width))
    dialog.resize(width, min(height, room.height()))
    dialog.setProperty(_GIVEN, dialog.size())
    if dialog.minimumSizeHint().width() > room.width():
        logger.debug("%s needs more than the screen's width", type(dialog).__name__)


def grow_to_fit(dialog: QDialog) -> None:
    """Make a shown `dialog` tall enough for what its layout holds now at its width, held to
    the screen's room, never shorter: Qt squeezes a new line into the shown size."""
    layout = dialog.layout()
    if layout is None or not dialog.isVisible():
        return  # `fit_to_screen` sizes it as it shows
    layout.activate()
    width = dialog.width()
    if layout.hasHeightForWidth():
        needed = layout.totalHeightForWidth(width)
    else:
        needed = layout.totalSizeHint().height()
    needed = min(needed, room_on(available_geometry(dialog)).height())
    if needed > dialog.height():
        dialog.resize(width, needed)
        dialog.setProperty(_GIVEN, dialog.size())  # Memtab's size, not the user's


def _note_size(dialog: QDialog) -> None:
    name = _remembered_as(dialog)
    given = dialog.property(_GIVEN)
    if name is None or not isinstance(given, QSize) or dialog.size() == given:
        return  # not resized since it was shown: the screen's size stays free to change it
    state = _ui_state_of(dialog)
    if state is not None:
        state.set_dialog_size(name, dialog.width(), dialog.height())


def fit_to_screen(dialog: QDialog, preferred: QSize, *, remember: str | None = None) -> None:
    """Open `dialog`, every time it is shown, at `preferred` size (a 0 side: its size hint's)
    no wider than the window it opens over — or, with `remember`, at the size the user last
    gave it — shrunk to its screen's available geometry; Qt then centres it over its parent.
    Sized now too, so a layout made while hidden is made at that size."""
    if remember is None:
        small_dialog(dialog)
    dialog.setProperty(_PREFERRED, QSize(preferred))
    dialog.setProperty(_REMEMBER, remember or "")
    dialog.installEventFilter(_ScreenFit(dialog))
    _fit_now(dialog)


class _Stacker(QObject):
    """`stack_when_narrow`'s event filter: turns a splitter as its width crosses its
    threshold, its panes keeping their shares."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Turn the splitter as its width crosses the threshold."""
        below = watched.property(_STACK_BELOW)
        if isinstance(watched, QSplitter) and event.type() == QEvent.Type.Resize:
            narrow = isinstance(below, int) and watched.width() < below
            wanted = Qt.Orientation.Vertical if narrow else Qt.Orientation.Horizontal
            if watched.orientation() != wanted:
                shares = watched.sizes()
                watched.setOrientation(wanted)
                watched.setSizes(shares)  # the same shares of the other side
        return False


def stack_when_narrow(splitter: QSplitter, below: int) -> None:
    """Lay `splitter`'s panes side by side, or one above the other while it is narrower
    than `below` px (a dialog on half a laptop's screen); either way the handle drags."""
    splitter.setChildrenCollapsible(False)
    splitter.setProperty(_STACK_BELOW, below)
    splitter.installEventFilter(_Stacker(splitter))
