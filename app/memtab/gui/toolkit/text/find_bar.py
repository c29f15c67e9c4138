"""A find bar for a `QPlainTextEdit`: Ctrl+F finds, Enter/F3 and Shift+Enter/Shift+F3 go to
the next and previous match, Ctrl+H replaces (one undoable edit), Esc closes and gives the
text the focus back. The matching is `components.text`'s (Qt-free)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, Qt, Signal, Slot
from PySide6.QtGui import QKeyEvent, QPalette, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import (
    QFrame,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QTextEdit,
    QToolButton,
    QWidget,
)

from memtab.components.editor.find import FindOptions, Span
from memtab.components.editor.text_buffer import buffer_from_raw
from memtab.components.text import (
    FindKey,
    FindState,
    count_words,
    find_key,
    replaced_words,
)
from memtab.gui.toolkit.clock import qtimer
from memtab.gui.toolkit.icons import tinted_icon
from memtab.gui.toolkit.style import Accent, accent_text, muted_text, set_style_sheet, tint
from memtab.gui.toolkit.widgets import hbox, named, vbox

_REFRESH_DELAY_MS = 150  # re-find after typing in the text pauses


class FindBar(QFrame):
    """Find (and replace) in a `QPlainTextEdit`; `closed()`: the text has the focus again."""

    closed = Signal()

    def __init__(
        self,
        text_edit: QPlainTextEdit,
        replace_text: Callable[[str], None] | None = None,
        parent: QWidget | None = None,
    ) -> None:
        """A hidden bar for `text_edit`; `replace_text(new)` replaces the whole buffer with
        one undoable edit (Replace all; None: the text is only read, never replaced)."""
        super().__init__(parent)
        self.setObjectName("findBar")
        self._text_edit = text_edit
        self._replace_text = replace_text
        self._find = FindState()
        self._read_only = replace_text is None
        self._build()
        self._refresh_timer = qtimer(self, self._on_refresh_timer_timeout, _REFRESH_DELAY_MS)
        text_edit.document().contentsChanged.connect(self._on_document_contents_changed)
        text_edit.installEventFilter(self)  # Esc in the text closes the bar too
        self.hide()

    def _build(self) -> None:
        self.query_edit = named(QLineEdit(self), accessible="Find in file")
        self.query_edit.setPlaceholderText("Find in file")
        self.query_edit.setClearButtonEnabled(True)
        self.query_edit.textChanged.connect(self._on_query_edit_text_changed)
        self.query_edit.installEventFilter(self)
        self.case_button = self._toggle("Aa", "Match case")
        self.words_button = self._toggle("W", "Whole words only")
        self.count_label = named(QLabel(self), accessible="Matches")
        previous = "Previous match (Shift+F3, Shift+Enter)"
        self.previous_button = self._tool("chevron-up", previous, self.find_previous)
        self.next_button = self._tool("chevron-down", "Next match (F3, Enter)", self.find_next)
        self.close_button = self._tool("editor-dismiss", "Close (Esc)", self.close_bar)

        self.replace_edit = named(QLineEdit(self), accessible="Replace with")
        self.replace_edit.setPlaceholderText("Replace with")
        self.replace_edit.installEventFilter(self)
        tip = "Replace the selected match and find the next one"
        self.replace_button = named(QPushButton("Replace", self), tip=tip)
        self.replace_button.clicked.connect(self.replace_current)
        tip = "Replace every match (one step to undo)"
        self.replace_all_button = named(QPushButton("Replace all", self), tip=tip)
        self.replace_all_button.clicked.connect(self.replace_every)

        options = (self.case_button, self.words_button, self.count_label)
        steps = (self.previous_button, self.next_button, self.close_button)
        find_row = hbox((self.query_edit, 1), *options, *steps, spacing=4)
        self._replace_row = QWidget(self)
        hbox(
            (self.replace_edit, 1),
            self.replace_button,
            self.replace_all_button,
            on=self._replace_row,
            margins=0,
            spacing=4,
        )
        self._replace_row.hide()
        vbox(find_row, self._replace_row, on=self, margins=(0, 4, 0, 0), spacing=4)
        self._recolor()

    def _toggle(self, text: str, tip: str) -> QToolButton:
        button = named(QToolButton(self), accessible=tip, tip=tip)
        button.setText(text)
        button.setCheckable(True)
        button.setAutoRaise(True)
        button.toggled.connect(self._on_option_toggled)
        return button

    def _tool(self, icon: str, tip: str, clicked: Callable[[], object]) -> QToolButton:
        button = named(QToolButton(self), accessible=tip.split(" (", maxsplit=1)[0], tip=tip)
        button.setAutoRaise(True)
        button.setIcon(tinted_icon(icon, muted_text(self.palette())))
        button.clicked.connect(clicked)
        return button

    @property
    def query(self) -> str:
        return self.query_edit.text()

    @property
    def options(self) -> FindOptions:
        return FindOptions(self.case_button.isChecked(), self.words_button.isChecked())

    @property
    def match_count(self) -> int:
        """How many matches the query has in the text now."""
        self._refresh_if_stale()
        return len(self._find.matches)

    @property
    def replacing(self) -> bool:
        """Whether the replace row is shown."""
        return self._replace_row.isVisibleTo(self)

    def set_read_only(self, read_only: bool) -> None:
        """A read-only file can be searched, not changed (a bar made without
        `replace_text` never replaces)."""
        self._read_only = read_only or self._replace_text is None
        self._replace_row.setEnabled(not self._read_only)

    def open(self, query: str | None = None, *, replace: bool = False) -> None:
        """Show the bar with `query` (else the selected text, else the last query), and
        select the first match from the cursor."""
        selected = self._text_edit.textCursor().selectedText()
        if query is None and selected and "\u2029" not in selected:
            query = selected
        self._replace_row.setVisible(replace and not self._read_only)
        self.show()
        if query is not None and query != self.query_edit.text():
            self.query_edit.setText(query)  # finds from the cursor as the text changes
        else:
            self._find.stale = True
            self._go(backwards=False, from_start_of_selection=True)
        self.query_edit.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.query_edit.selectAll()

    def close_bar(self) -> None:
        """Hide the bar and its highlights; the text gets the focus back. (Open is "not
        hidden": a bar on a tab not shown now is open, and closes all the same.)"""
        self._refresh_timer.stop()
        self._text_edit.setExtraSelections([])
        if self.isHidden():
            return
        self.hide()
        self._text_edit.setFocus(Qt.FocusReason.OtherFocusReason)
        self.closed.emit()

    @Slot()
    def find_next(self) -> None:
        """Select the next match after the selection (wrapping around)."""
        self._go(backwards=False)

    @Slot()
    def find_previous(self) -> None:
        """Select the match before the selection (wrapping around)."""
        self._go(backwards=True)

    @Slot()
    def replace_current(self) -> None:
        """Replace the selected match (if the selection is one), then select the next."""
        if self._read_only or not self.query:
            return
        self._refresh_if_stale()
        cursor = self._text_edit.textCursor()
        start, end = cursor.selectionStart(), cursor.selectionEnd()
        if self._find.is_match_at(start, end, self.query, self.options):
            cursor.insertText(self.replace_edit.text())
            self._text_edit.setTextCursor(cursor)
            self._refresh()
        self._go(backwards=False)

    @Slot()
    def replace_every(self) -> None:
        """Replace every match with one undoable edit."""
        if self._read_only or not self.query:
            return
        self._refresh_if_stale()
        replacement = self.replace_edit.text()
        new_text, count = self._find.replace_all(self.query, replacement, self.options)
        if count and self._replace_text is not None:
            self._replace_text(new_text)
            self._refresh()
        self.count_label.setText(replaced_words(count))

    def _refresh_if_stale(self) -> None:
        if self._find.stale:
            self._refresh()

    def _refresh(self) -> None:
        self._refresh_timer.stop()
        text = buffer_from_raw(self._text_edit.document().toRawText())
        self._find.refresh(text, self.query, self.options)
        self._highlight()
        self._show_count()

    def _go(self, *, backwards: bool, from_start_of_selection: bool = False) -> None:
        self._refresh_if_stale()
        cursor = self._text_edit.textCursor()
        span = self._find.target(
            cursor.selectionStart(),
            cursor.selectionEnd(),
            backwards=backwards,
            from_start=from_start_of_selection,
        )
        if span is not None:
            self._select(span)
        self._show_count()

    def _select(self, span: Span) -> None:
        cursor = QTextCursor(self._text_edit.document())
        cursor.setPosition(span[0])
        cursor.setPosition(span[1], QTextCursor.MoveMode.KeepAnchor)
        self._text_edit.setTextCursor(cursor)
        self._text_edit.ensureCursorVisible()

    def _show_count(self) -> None:
        count = len(self._find.matches)
        cursor = self._text_edit.textCursor()
        current = self._find.index_of(cursor.selectionStart(), cursor.selectionEnd())
        self.count_label.setText(count_words(self.query, count, current))
        palette = self.palette()
        missing = bool(self.query) and not count
        color = accent_text(palette, Accent.ERROR) if missing else muted_text(palette)
        set_style_sheet(self.count_label, f"color: {color.name()}")
        for button in (self.previous_button, self.next_button, self.replace_all_button):
            button.setEnabled(bool(count))

    def _highlight(self) -> None:
        match_format = QTextCharFormat()
        palette = self._text_edit.palette()
        match_format.setBackground(tint(palette, Accent.WARNING, QPalette.ColorRole.Base, 0.35))
        selections = []
        for start, end in self._find.highlights():
            selection = QTextEdit.ExtraSelection()
            cursor = QTextCursor(self._text_edit.document())
            cursor.setPosition(start)
            cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
            selection.cursor = cursor
            selection.format = match_format
            selections.append(selection)
        self._text_edit.setExtraSelections(selections)

    def _recolor(self) -> None:
        muted = muted_text(self.palette())
        self.previous_button.setIcon(tinted_icon("chevron-up", muted))
        self.next_button.setIcon(tinted_icon("chevron-down", muted))
        self.close_button.setIcon(tinted_icon("editor-dismiss", muted))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Enter in the fields: next match (Shift: previous; in the replace field:
        replace); Esc: close."""
        if event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent):
            does = find_key(
                escape=event.key() == Qt.Key.Key_Escape,
                enter=event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter),
                shift=bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier),
                in_text=watched is self._text_edit,
                in_replace=watched is self.replace_edit,
                shown=not self.isHidden(),
            )
            if does is not FindKey.PASS:
                {
                    FindKey.CLOSE: self.close_bar,
                    FindKey.NEXT: self.find_next,
                    FindKey.PREVIOUS: self.find_previous,
                    FindKey.REPLACE: self.replace_current,
                }[does]()
                return True
        return super().eventFilter(watched, event)

    def changeEvent(self, event: QEvent) -> None:
        """Follow palette changes (light ↔ dark)."""
        if event.type() == QEvent.Type.PaletteChange:
            self._recolor()
            if not self.isHidden():
                self._refresh()
        super().changeEvent(event)

    @Slot(str)
    def _on_query_edit_text_changed(self, _text: str) -> None:
        if self.isHidden():  # the query is kept for the next open, not shown now
            return
        self._refresh()
        self._go(backwards=False, from_start_of_selection=True)

    @Slot(bool)
    def _on_option_toggled(self, _checked: bool) -> None:
        if self.isHidden():
            return
        self._refresh()
        self._go(backwards=False, from_start_of_selection=True)

    @Slot()
    def _on_document_contents_changed(self) -> None:
        self._find.stale = True
        if not self.isHidden():
            self._refresh_timer.start()

    @Slot()
    def _on_refresh_timer_timeout(self) -> None:
        if not self.isHidden():
            self._refresh()
