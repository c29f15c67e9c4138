"""How Memtab's dialogs read: wide enough for the window manager to show their whole title
(`fit_to_title`), every button with an Alt+letter (`give_mnemonics`: Qt's standard ones
have none outside GNOME), and the one layout of a dialog that asks for a short prose text
(`lay_out_prose_dialog`).
"""

from __future__ import annotations

import logging
import re

from PySide6.QtGui import QFont, QFontMetrics, QGuiApplication
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QGridLayout,
    QLabel,
    QMessageBox,
    QPlainTextEdit,
    QSizePolicy,
    QSpacerItem,
    QVBoxLayout,
    QWidget,
)

logger = logging.getLogger(__name__)

# The window manager's buttons, icon and padding beside the title (generous: cut titles
# are what this is for).
TITLE_BAR_ALLOWANCE = 170
_TITLE_SEPARATOR = " \u2014 "  # how Qt joins the title and the application's name
_SCREEN_MARGIN = 40


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
