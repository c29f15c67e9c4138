"""A coloured rendering of a unified diff (`components.text`), and `DiffDialog`
with the editor's choices; Enter never picks a choice that drops a change."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QSize, Qt, Signal, Slot
from PySide6.QtGui import (
    QColor,
    QFontDatabase,
    QPalette,
    QTextBlockFormat,
    QTextCharFormat,
    QTextCursor,
)
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QTabWidget,
    QWidget,
)

from memtab.components.editor.merge import MergeResult
from memtab.components.editor.session import MERGE
from memtab.components.rich_text import escape_html
from memtab.components.text import counts_text, diff_rows, merge_offer, next_pass
from memtab.components.text_diff import DiffLine, DiffResult, LineKind
from memtab.gui.toolkit.clock import qtimer
from memtab.gui.toolkit.dialog_layout import fit_to_screen, fit_to_title, give_mnemonics
from memtab.gui.toolkit.style import Accent, accent_text, muted_text, set_style_sheet, tint
from memtab.gui.toolkit.widgets import WrappedLabel, hbox, named, vbox

IDENTICAL = "No differences: the draft matches the file on disk."


class DiffView(QPlainTextEdit):
    """A read-only, monospace, coloured rendering of a `DiffResult`."""

    def __init__(self, parent: QWidget | None = None) -> None:
        """An empty view; `show_computing` or `set_diff` fills it."""
        super().__init__(parent)
        self.setReadOnly(True)
        self.setUndoRedoEnabled(False)
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.setAccessibleName("Differences")
        self.wraps_lines = False
        """Whether a diff's lines wrap at the view's width (a review in a column that may
        be narrow) instead of scrolling sideways (a diff's columns, side by side)."""
        self.result: DiffResult | None = None
        # The lines still to colour: (the lines shown, the number gutter's width, the first).
        self._uncolored: tuple[tuple[DiffLine, ...], int, int] | None = None
        self._color_timer = qtimer(self, self._color_next_lines, 0)

    @property
    def is_colored(self) -> bool:
        """Whether every line shown has its colour (a long diff's come a pass at a time)."""
        return self._uncolored is None

    def setPlainText(self, text: str) -> None:
        """Show `text` (colours still to come for the text it replaces are dropped)."""
        self._uncolored = None
        self._color_timer.stop()
        super().setPlainText(text)

    def show_sentence(self, text: str) -> None:
        """Show a sentence instead of a diff, wrapped: a narrow pane never scrolls sideways
        to read it (a diff's lines stay whole, as a diff's columns must)."""
        self.result = None
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.setPlainText(text)

    def show_computing(self) -> None:
        """Say that the diff is on its way."""
        self.show_sentence("Computing the differences…")

    def show_failure(self, message: str) -> None:
        """Say why there is no diff."""
        self.show_sentence(f"Could not compute the differences: {message}")

    def set_diff(self, result: DiffResult, *, identical: str = IDENTICAL) -> None:
        """Render `result`: removed lines red, added green, hunk headers muted (`identical`:
        what it says when there is no difference)."""
        if result.identical:
            self.show_sentence(identical)
        else:
            rows = diff_rows(result)
            self.setLineWrapMode(
                QPlainTextEdit.LineWrapMode.WidgetWidth
                if self.wraps_lines
                else QPlainTextEdit.LineWrapMode.NoWrap
            )
            self.setPlainText(rows.text)
            self._uncolored = (rows.lines, rows.gutter, 0)
            self._color_next_lines()
        self.result = result

    def _color_next_lines(self) -> None:
        if self._uncolored is None:
            return
        shown, gutter, first = self._uncolored
        end = next_pass(first, len(shown))
        self._color_blocks(shown[first:end], gutter, first)
        self._uncolored = (shown, gutter, end) if end < len(shown) else None
        if self._uncolored is not None:
            self._color_timer.start()

    def _color_blocks(self, lines: tuple[DiffLine, ...], gutter: int, first: int) -> None:
        """Colour `lines`, shown from block number `first` on."""
        palette = self.palette()
        backgrounds = {
            LineKind.ADDED: tint(palette, Accent.ADDED, QPalette.ColorRole.Base, 0.16),
            LineKind.REMOVED: tint(palette, Accent.REMOVED, QPalette.ColorRole.Base, 0.14),
            LineKind.HUNK: tint(palette, Accent.INFO, QPalette.ColorRole.Base, 0.08),
        }
        hunk_text = QTextCharFormat()
        hunk_text.setForeground(accent_text(palette, Accent.INFO))
        number_text = QTextCharFormat()
        number_text.setForeground(muted_text(palette))
        cursor = QTextCursor(self.document())
        cursor.beginEditBlock()
        block = self.document().findBlockByNumber(first)
        for line in lines:
            if not block.isValid():
                break
            background: QColor | None = backgrounds.get(line.kind)
            cursor.setPosition(block.position())
            if background is not None:
                block_format = QTextBlockFormat()
                block_format.setBackground(background)  # no QBrush: see review_dialog._fill
                cursor.setBlockFormat(block_format)
            if line.kind is LineKind.HUNK:
                cursor.movePosition(
                    QTextCursor.MoveOperation.EndOfBlock, QTextCursor.MoveMode.KeepAnchor
                )
                cursor.setCharFormat(hunk_text)
            else:
                cursor.setPosition(block.position() + gutter, QTextCursor.MoveMode.KeepAnchor)
                cursor.setCharFormat(number_text)
            block = block.next()
        cursor.endEditBlock()


class DiffDialog(QDialog):
    """A window showing a diff, with the editor's choices as buttons; `action_triggered(str)`:
    the choice clicked (the dialog then closes)."""

    action_triggered = Signal(str)

    def __init__(
        self,
        title: str,
        old_label: str,
        new_label: str,
        actions: list[tuple[str, str]] | tuple[tuple[str, str], ...] = (),
        parent: QWidget | None = None,
    ) -> None:
        """A dialog comparing `old_label` (red) with `new_label` (green)."""
        super().__init__(parent)
        self.setWindowTitle(title)
        self.setAccessibleName("Differences dialog")
        self.view = DiffView(self)
        self._legend = QLabel(self)
        palette = self.palette()
        removed = accent_text(palette, Accent.REMOVED).name()
        added = accent_text(palette, Accent.ADDED).name()
        self._legend.setText(
            f"<span style='color:{removed}'>− {old_label}</span>"
            f"&nbsp;&nbsp;&nbsp;<span style='color:{added}'>+ {new_label}</span>"
        )
        self._stats = QLabel(self)
        self._stats.setStyleSheet(f"color: {muted_text(palette).name()}")
        header = hbox((self._legend, 1), self._stats)

        self.merge_note = named(WrappedLabel("", self), accessible="Merge")
        self.merge_note.hide()

        buttons = QDialogButtonBox(self)
        self._buttons: dict[str, QPushButton] = {}
        for action_id, label in actions:
            button = buttons.addButton(label, QDialogButtonBox.ButtonRole.ActionRole)
            button.setProperty("actionId", action_id)
            button.setAccessibleName(label)
            button.setAutoDefault(False)  # Enter must not keep one side over the other
            button.clicked.connect(self._on_action_clicked)
            self._buttons[action_id] = button
        if MERGE in self._buttons:
            self._buttons[MERGE].setEnabled(False)
            self._buttons[MERGE].setToolTip("Waiting for the differences…")
        self.close_button = buttons.addButton(QDialogButtonBox.StandardButton.Close)
        self.close_button.clicked.connect(self.reject)
        self.close_button.setDefault(True)
        give_mnemonics(buttons)

        self.views = QTabWidget(self)  # a caller may put a view of its own before the diff
        self.views.setDocumentMode(True)
        self.views.addTab(self.view, "Unified diff")
        self.views.tabBar().hide()  # one view: no tabs to choose from
        vbox(header, self.merge_note, (self.views, 1), buttons, on=self)
        self.view.show_computing()
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, False)
        fit_to_title(self)
        fit_to_screen(self, QSize(820, 560), remember="differences")

    def button(self, action_id: str) -> QPushButton:
        """The button of a choice (KeyError when not offered)."""
        return self._buttons[action_id]

    def add_first_view(self, widget: QWidget, title: str) -> None:
        """Show `widget` first, the unified diff one tab away (e.g. the three-way view of
        a conflict; the legend then speaks of the diff's tab)."""
        self.views.insertTab(0, widget, title)
        self.views.setCurrentIndex(0)
        self.views.tabBar().show()
        self.views.currentChanged.connect(self._on_views_current_changed)
        self._on_views_current_changed(0)

    @Slot(int)
    def _on_views_current_changed(self, _index: int) -> None:
        # The − / + legend and counts are the unified diff's: shown with it only.
        on_diff = self.views.currentWidget() is self.view
        self._legend.setVisible(on_diff)
        self._stats.setVisible(on_diff)

    def set_diff(self, result: DiffResult) -> None:
        """Show the computed diff and its counts."""
        self.view.set_diff(result)
        self._stats.setText(counts_text(result))

    def set_merge(self, result: MergeResult | None) -> None:
        """Say whether the draft and the disk merge; enable (and default to) Keep both
        when they do. None: no merge was possible (nothing loaded to merge from)."""
        button = self._buttons.get(MERGE)
        if button is None:
            return
        offer = merge_offer(result)
        button.setToolTip(offer.tip)
        if offer.note is None:
            return
        self.merge_note.setText(offer.note)
        self.merge_note.show()
        accent = Accent.SUCCESS if offer.enabled else Accent.WARNING
        set_style_sheet(self.merge_note, f"color: {accent_text(self.palette(), accent).name()}")
        button.setEnabled(offer.enabled)
        if offer.is_default:
            self.close_button.setDefault(False)
            button.setDefault(True)

    def show_failure(self, message: str) -> None:
        """Show why the diff could not be computed."""
        self.view.show_failure(message)

    @Slot()
    def _on_action_clicked(self) -> None:
        button = self.sender()
        if isinstance(button, QPushButton):
            self.action_triggered.emit(str(button.property("actionId")))
            self.accept()


class DiffPane(QWidget):
    """A `DiffView` under a legend naming its sides and the added/removed counts."""

    def __init__(self, parent: QWidget | None = None) -> None:
        """An empty pane; `set_sides`, then `set_diff` or `show_message`, fill it."""
        super().__init__(parent)
        self._old_label = ""
        self._new_label = ""
        # Wraps: a long side ("version of 12:03 by the consolidator") never widens the
        # pane — the History panel's dock grew when a version was picked.
        self.legend = WrappedLabel("", self)
        self.stats = QLabel(self)
        self.view = DiffView(self)
        header = hbox((self.legend, 1), self.stats, margins=0)
        vbox(header, (self.view, 1), on=self, margins=0, spacing=2)
        self._recolor()

    @property
    def result(self) -> DiffResult | None:
        """The diff shown (None: a message instead)."""
        return self.view.result

    @property
    def text(self) -> str:
        """What the view shows (for tests and screen readers)."""
        return self.view.toPlainText()

    def set_sides(self, old_label: str, new_label: str) -> None:
        """What the removed (red) and added (green) lines are."""
        self._old_label, self._new_label = old_label, new_label
        self._recolor()

    def set_diff(self, result: DiffResult, identical_text: str = "No differences.") -> None:
        """Show a diff (`identical_text` when it has no changed line)."""
        self.view.set_diff(result, identical=identical_text)
        self.stats.setText(counts_text(result))

    def show_message(self, text: str) -> None:
        """Show a sentence instead of a diff (computing, nothing selected, a failure)."""
        self.view.show_sentence(text)
        self.stats.setText("")

    def changeEvent(self, event: QEvent) -> None:
        """Follow palette changes (light ↔ dark)."""
        if event.type() == QEvent.Type.PaletteChange:
            self._recolor()
        super().changeEvent(event)

    def _recolor(self) -> None:
        palette = self.palette()
        removed = accent_text(palette, Accent.REMOVED).name()
        added = accent_text(palette, Accent.ADDED).name()
        parts = []
        if self._old_label:
            parts.append(f"<span style='color:{removed}'>− {escape_html(self._old_label)}</span>")
        if self._new_label:
            parts.append(f"<span style='color:{added}'>+ {escape_html(self._new_label)}</span>")
        self.legend.setText("&nbsp;&nbsp;&nbsp;".join(parts))
        set_style_sheet(self.stats, f"color: {muted_text(palette).name()}")
