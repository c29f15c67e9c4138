"""The editor's widgets and text mechanics: `EditorView` lays out the path, state, view modes,
Save, the description, the Markdown source and preview; it loads and replaces text as one
undoable edit keeping cursor and scroll. Which file is shown is `editor.EditorPanel`'s."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

from PySide6.QtCore import QEvent, QObject, QRect, Qt, QUrl, Signal, Slot
from PySide6.QtGui import (
    QAction,
    QColor,
    QFont,
    QFontDatabase,
    QFontMetricsF,
    QPalette,
    QSyntaxHighlighter,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
)
from PySide6.QtWidgets import (
    QButtonGroup,
    QLabel,
    QLineEdit,
    QMenu,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QStyle,
    QTextBrowser,
    QToolButton,
    QWidget,
)

from memtab.components.editor.panel import (
    DESCRIPTION_HINT,
    MIRROR_DELAY_MS,
    PREVIEW_DELAY_MS,
    READING,
    ViewMode,
    description_field,
    is_warning,
    preview_delay,
)
from memtab.components.editor.session import FileState
from memtab.components.editor.text_buffer import (
    body_without_frontmatter,
    buffer_from_raw,
    changed_span,
    read_description,
    utf16_offset,
    with_final_newline,
)
from memtab.components.loads.loads import with_import_links
from memtab.components.text import Style, line_spans
from memtab.gui.toolkit.clock import qtimer
from memtab.gui.toolkit.icons import tinted_icon
from memtab.gui.toolkit.style import (
    Accent,
    accent_text,
    blend,
    is_dark,
    muted_text,
    set_style_sheet,
)
from memtab.gui.toolkit.text.find_bar import FindBar
from memtab.gui.toolkit.text.line_margin import LineNumbers
from memtab.gui.toolkit.text.source_edit import SourceEdit
from memtab.gui.toolkit.text.text_fields import give_redo_keys
from memtab.gui.toolkit.widgets import ElidedLabel, hbox, named, vbox


class MarkdownPreview(QTextBrowser):
    """A read-only view of a Markdown buffer, rendered; accessible name "Markdown preview"."""

    link_clicked = Signal(str)  # the target of a link clicked, as written

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Markdown preview")
        self.setOpenLinks(False)
        self.setOpenExternalLinks(False)
        self.anchorClicked.connect(self._on_anchor_clicked)
        self.document().setDocumentMargin(14)
        self.source_text = ""
        self._imports = False

    def set_markdown_source(self, text: str) -> None:
        """Render `text`, leaving out its frontmatter; keeps the scroll position."""
        if text == self.source_text and not self.document().isEmpty():
            return
        self.source_text = text
        bar = self.verticalScrollBar()
        position = bar.value()
        body = body_without_frontmatter(text)
        if self._imports:
            body = with_import_links(body)
        self.document().setMarkdown(body, QTextDocument.MarkdownFeature.MarkdownDialectGitHub)
        bar.setValue(min(position, bar.maximum()))

    def set_imports(self, on: bool) -> None:
        """Render `@`-imports as links (Claude Code's instruction files), or not."""
        if on != self._imports:
            self._imports = on
            source, self.source_text = self.source_text, ""
            self.set_markdown_source(source)

    @Slot(QUrl)
    def _on_anchor_clicked(self, url: QUrl) -> None:
        self.link_clicked.emit(url.toString())


class EmptyState(QWidget):
    """What the panel shows with no file open."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._label = QLabel("Select a memory file to view or edit it.", self)
        self._label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self._label.setWordWrap(True)
        self._layout = vbox(1, self._label, 2, on=self)
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
    """The one room of an editor's stack, lent to whichever empty state it shows and taken
    back, hidden, when that page leaves the stack (a closed tab never takes it along)."""

    def __init__(self, stack: QStackedWidget) -> None:
        super().__init__(stack)
        self._stack = stack
        self.room: QWidget | None = None
        stack.currentChanged.connect(self._on_stack_current_changed)
        stack.widgetRemoved.connect(self._on_stack_widget_removed)

    def hold(self, room: QWidget) -> None:
        """Show `room` whenever no file is open; it is the stack's from now on, lent to
        the page that shows it."""
        self.room = room
        self._take_back()
        self._on_stack_current_changed(self._stack.currentIndex())

    def _take_back(self) -> None:
        room = self.room
        if room is not None and room.parentWidget() is not self._stack:
            room.hide()
            room.setParent(self._stack)  # not a page: kept hidden until a page shows it

    @Slot(int)
    def _on_stack_current_changed(self, index: int) -> None:
        shown = self._stack.widget(index)
        if self.room is None or shown is None:
            return
        state = shown if isinstance(shown, EmptyState) else shown.findChild(EmptyState)
        # A file tab's own empty state is never shown while it holds a file: the room
        # stays where it was.
        if state is not None and (state is shown or state.isVisibleTo(shown)):
            state.hold(self.room)

    @Slot(int)
    def _on_stack_widget_removed(self, _index: int) -> None:
        room = self.room
        if room is None or room.parentWidget() is self._stack:
            return
        pages = (self._stack.widget(i) for i in range(self._stack.count()))
        if not any(page is not None and page.isAncestorOf(room) for page in pages):
            self._take_back()  # its page goes (a closed tab, deleted later)


def _format(
    color: QColor, *, bold: bool = False, background: QColor | None = None, link: bool = False
) -> QTextCharFormat:
    text_format = QTextCharFormat()
    text_format.setForeground(color)
    text_format.setFontUnderline(link)
    if bold:
        text_format.setFontWeight(QFont.Weight.Bold)
    if background is not None:
        text_format.setBackground(background)
    return text_format


class MarkdownHighlighter(QSyntaxHighlighter):
    """Highlights a Markdown document with colours taken from a palette."""

    def __init__(self, document: QTextDocument, palette: QPalette) -> None:
        """Attach to `document`; call `set_palette` when the theme changes."""
        super().__init__(document)
        self._formats: dict[Style, QTextCharFormat] = {}
        self._imports = False
        self._build_formats(palette)

    def set_imports(self, on: bool) -> None:
        """Mark `@`-imports as links (Claude Code's instruction files), or not."""
        if on != self._imports:
            self._imports = on
            self.rehighlight()

    def set_palette(self, palette: QPalette) -> None:
        """Recompute the colours for a new palette and re-highlight."""
        self._build_formats(palette)
        self.rehighlight()

    def _build_formats(self, palette: QPalette) -> None:
        text = palette.color(QPalette.ColorRole.Text)
        base = palette.color(QPalette.ColorRole.Base)
        dark = is_dark(palette)
        heading = blend(text, Accent.INFO.color, 0.55 if dark else 0.7)
        code_text = blend(text, QColor("#b35c00") if not dark else QColor("#e5a15a"), 0.6)
        self._formats = {
            Style.DELIMITER: _format(muted_text(palette), bold=True),
            Style.FRONTMATTER: _format(muted_text(palette)),
            Style.FRONTMATTER_KEY: _format(blend(text, Accent.SUCCESS.color, 0.6), bold=True),
            Style.HEADING: _format(heading, bold=True),
            Style.BULLET: _format(blend(text, Accent.WARNING.color, 0.75), bold=True),
            Style.CODE: _format(code_text, background=blend(base, text, 0.06)),
            Style.FENCE: _format(muted_text(palette), background=blend(base, text, 0.06)),
            Style.LINK: _format(palette.color(QPalette.ColorRole.Link), link=True),
        }

    def highlightBlock(self, text: str) -> None:
        """Qt calls this for every line that needs (re-)highlighting."""
        number = self.currentBlock().blockNumber()
        state, spans = line_spans(text, self.previousBlockState(), number, imports=self._imports)
        self.setCurrentBlockState(state)
        for start, length, style in spans:
            self.setFormat(start, length, self._formats[style])


EDITOR_ACCESSIBLE_NAME = "Memory file content"
_Type = QEvent.Type
_BAR_EVENTS = frozenset({_Type.Show, _Type.Hide, _Type.Resize, _Type.Move, _Type.LayoutRequest})


class EditorView(QWidget):
    """The editor's widgets and text mechanics (see the module docstring)."""

    save_requested = Signal()  # Save was clicked (its keys are the `editor.save` action's)
    modified_changed = Signal(bool)  # the buffer's modified flag changed (not during `quietly`)
    description_edited = Signal(str)  # the user typed in the description field

    def __init__(self, parent: QWidget | None = None) -> None:
        """An empty view (the empty state shows until `show_file`)."""
        super().__init__(parent)
        self.view_mode = ViewMode.SOURCE
        self.state = FileState.CLEAN
        # Guards against the text widget's own signals while the text is set by code.
        self._loading = False
        self._applying_description = False
        self._quiet = False
        self._bar: QWidget | None = None
        self._rendered: str | None = None  # what Preview shows instead of the buffer
        self._build()
        self._mirror_timer = qtimer(self, self._mirror_description_field, MIRROR_DELAY_MS)
        self._preview_timer = qtimer(self, self._on_preview_timer_timeout, PREVIEW_DELAY_MS)

    def _build(self) -> None:
        self._stack = QStackedWidget(self)
        self._empty = EmptyState(self._stack)
        self.page = QWidget(self._stack)
        self._stack.addWidget(self._empty)
        self._stack.addWidget(self.page)

        # The path gives way first when the editor is narrow.
        self._path_label = named(
            ElidedLabel("", self.page, min_width=0), accessible="Memory file path"
        )
        self._path_label.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self._state_label = named(QLabel(self.page), accessible="Editor state")
        # Who changed the open file since the user opened it (set by the Memory tab).
        self.badge_label = named(QLabel(self.page), "editorBadge", accessible="Changed by")
        self.badge_label.hide()

        self._mode_buttons: dict[ViewMode, QToolButton] = {}
        self._mode_group = QButtonGroup(self)
        self._mode_group.setExclusive(True)
        modes = hbox(spacing=0)
        for mode in ViewMode:
            button = named(QToolButton(self.page), accessible=f"{mode.value} view", tip=mode.tip)
            button.setText(mode.value)
            button.setCheckable(True)
            button.setAutoRaise(True)
            button.setProperty("viewMode", mode.value)
            button.clicked.connect(self._on_mode_button_clicked)
            self._mode_group.addButton(button)
            self._mode_buttons[mode] = button
            modes.addWidget(button)
        self._mode_buttons[ViewMode.SOURCE].setChecked(True)

        save_icon = self.style().standardIcon(QStyle.StandardPixmap.SP_DialogSaveButton)
        self.save_button = named(
            QPushButton(save_icon, "Save", self.page),
            accessible="Save",
            tip="Save (Ctrl+S or Ctrl+Enter)",
        )
        self.save_button.clicked.connect(self.save_requested)
        self.more_button = named(
            QToolButton(self.page),
            accessible="More file actions",
            tip="More: find, open in an external editor, real path",
        )
        self.more_button.setAutoRaise(True)
        self.more_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.more_button.setMenu(QMenu(self.more_button))
        self.more_button.setIcon(tinted_icon("editor-more", muted_text(self.palette())))

        header = hbox(
            (self._path_label, 1),
            self.badge_label,
            self._state_label,
            modes,
            self.save_button,
            self.more_button,
            spacing=10,
        )

        self._description_label = QLabel("Description", self.page)
        self.description_edit = named(
            QLineEdit(self.page),
            accessible="Description",
            tip="The frontmatter description: line of this file. Agents and the tree show it.",
        )
        give_redo_keys(self.description_edit)  # Ctrl+Y too, as in the text
        self.description_edit.setPlaceholderText(DESCRIPTION_HINT)
        self._description_label.setBuddy(self.description_edit)
        self.description_edit.textEdited.connect(self.description_edited)
        description_row = hbox(self._description_label, (self.description_edit, 1), spacing=8)

        self.text_edit = named(SourceEdit(self.page), accessible=EDITOR_ACCESSIBLE_NAME)
        editor_font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        self.text_edit.setFont(editor_font)
        self.text_edit.setTabStopDistance(QFontMetricsF(editor_font).horizontalAdvance(" ") * 4)
        self.text_edit.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        document = self.text_edit.document()
        document.setDocumentMargin(8)
        self.line_numbers = LineNumbers(self.text_edit)
        self.line_numbers.set_shown(True)
        self._highlighter = MarkdownHighlighter(document, self.palette())
        document.contentsChanged.connect(self._on_document_contents_changed)
        document.modificationChanged.connect(self._on_document_modification_changed)

        self.preview = MarkdownPreview(self.page)
        self._splitter = QSplitter(Qt.Orientation.Horizontal, self.page)
        self._splitter.setChildrenCollapsible(False)
        self._splitter.addWidget(self.text_edit)
        self._splitter.addWidget(self.preview)
        self.preview.hide()

        self._page_layout = vbox(
            header, description_row, (self._splitter, 1), on=self.page, margins=0, spacing=6
        )
        # The find bar is made when first asked for: most tabs are never searched, and it
        # was a third of a tab's making (~1 ms) and a Python filter of the text's events.
        self._find_bar: FindBar | None = None
        self._find_read_only = False

        vbox(self._stack, on=self, margins=8)

    def set_bar(self, bar: QWidget) -> None:
        """Lay the message bar over the foot of the text, not in the page's layout: a
        conflict that arrives while the user types must not push the text down. The
        text keeps room below for it (a viewport margin), so no line hides under it."""
        self._bar = bar
        bar.setParent(self.page)
        bar.hide()
        bar.installEventFilter(self)
        self._splitter.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Keep the bar over the foot of the text as either changes size or shows."""
        if watched in (self._bar, self._splitter) and event.type() in _BAR_EVENTS:
            self._place_bar()
        return super().eventFilter(watched, event)

    def _place_bar(self) -> None:
        bar = self._bar
        if bar is None:
            return
        area = self._splitter.geometry()
        if not bar.isVisibleTo(self.page):
            self._reserve_below_text(0)
            return
        # Its height at the text's width: its size hint is the message wrapped a word a line.
        height = bar.heightForWidth(area.width()) if bar.hasHeightForWidth() else -1
        if height < 0:
            height = bar.sizeHint().height()
        top = area.bottom() + 1 - height
        if bar.geometry() != QRect(area.left(), top, area.width(), height):
            bar.setGeometry(area.left(), top, area.width(), height)
        bar.raise_()
        self._reserve_below_text(height)

    def _reserve_below_text(self, height: int) -> None:
        margins = self.text_edit.viewportMargins()
        if margins.bottom() != height:
            self.text_edit.setViewportMargins(
                margins.left(), margins.top(), margins.right(), height
            )

    def set_file_actions(self, actions: list[QAction | None]) -> None:
        """The "more" menu's actions (None: a separator); the ones without a shortcut
        context of their own are also on the path label's context menu."""
        menu = self.more_button.menu()
        assert menu is not None
        menu.clear()
        for action in actions:
            if action is None:
                menu.addSeparator()
            else:
                menu.addAction(action)

    def set_path_actions(self, actions: list[QAction]) -> None:
        """The path label's context menu."""
        self._path_label.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        for action in actions:
            self._path_label.addAction(action)

    @property
    def find_bar(self) -> FindBar:
        """The find / replace bar under the text (made now if it is not yet)."""
        if self._find_bar is None:
            self._find_bar = FindBar(self.text_edit, self.replace_text, self.page)
            self._find_bar.set_read_only(self._find_read_only)
            self._page_layout.addWidget(self._find_bar)
        return self._find_bar

    @property
    def finding(self) -> bool:
        return self._find_bar is not None and self._find_bar.isVisible()

    def close_find(self) -> None:
        if self._find_bar is not None:
            self._find_bar.close_bar()

    @property
    def has_file(self) -> bool:
        """Whether a file page (not the empty state) is shown."""
        return self._stack.currentWidget() is self.page

    @property
    def path_tooltip(self) -> str:
        """The path label's tooltip (the virtual path and the real one)."""
        return self._path_label.toolTip()

    def show_file(self, title: str, text: str, read_only: bool, tooltip: str | None = None) -> None:
        """Show a file: `title` in the path label (`tooltip` over it), `text` with a fresh
        undo history."""
        self._rendered = None
        self._path_label.set_full_text(title, tooltip)
        self.text_edit.setPlaceholderText("")
        self.load_text(text)
        self.text_edit.setReadOnly(read_only)
        self.description_edit.setReadOnly(read_only)
        field = description_field(read_only)
        self.description_edit.setPlaceholderText(field.hint)
        self.description_edit.setFocusPolicy(
            Qt.FocusPolicy.StrongFocus if field.focusable else Qt.FocusPolicy.NoFocus
        )
        self._find_read_only = read_only
        if self._find_bar is not None:
            self._find_bar.set_read_only(read_only)
        self._mirror_description_field()
        self._stack.setCurrentWidget(self.page)
        if self.view_mode.shows_preview:
            self.preview.set_markdown_source(text)

    def show_reading(self, title: str, tooltip: str) -> None:
        """Show `title` whose text is on its way from disk: an empty page that says so
        (`show_file` then shows the text)."""
        self.show_file(title, "", False, tooltip)
        self.text_edit.setPlaceholderText(READING)

    def show_rendered(self, markdown: str) -> None:
        """Preview `markdown` — what Memtab renders of a file shown as its own text in
        Source (loki-mode's JSON) — and show the preview."""
        self._rendered = markdown
        self.set_view_mode(ViewMode.PREVIEW)
        self._render_preview()

    def set_title(self, title: str, tooltip: str) -> None:
        """Name another file in the path label (the open one was moved), text unchanged."""
        self._path_label.set_full_text(title, tooltip)

    def show_state(self, state: FileState, can_save: bool) -> None:
        """Say what the open file's state is, and enable Save when there is something to
        save."""
        self.state = state
        self.save_button.setEnabled(self.has_file and can_save)
        palette = self.palette()
        warning = is_warning(state)
        color = accent_text(palette, Accent.WARNING) if warning else muted_text(palette)
        self._state_label.setText(state.value)
        set_style_sheet(self._state_label, f"color: {color.name()}")
        set_style_sheet(self._description_label, f"color: {muted_text(palette).name()}")

    def set_badge(self, text: str | None, tooltip: str = "") -> None:
        """Show who changed the open file (a small badge beside the path), or nothing."""
        self.badge_label.setVisible(bool(text))
        self.badge_label.setText(text or "")
        self.badge_label.setToolTip(tooltip)
        accent = accent_text(self.palette(), Accent.INFO).name()
        set_style_sheet(
            self.badge_label,
            f"color: {accent}; border: 1px solid {accent}; border-radius: 7px; padding: 0 5px;",
        )

    def set_imports(self, on: bool) -> None:
        """`@`-imports as links in the text and the preview (Claude Code's instruction
        files: `components.loads.loads`), or not."""
        self._highlighter.set_imports(on)
        self.preview.set_imports(on)

    def set_view_mode(self, mode: ViewMode) -> None:
        """Show the source, the preview, or both."""
        self.view_mode = mode
        self._mode_buttons[mode].setChecked(True)
        self.text_edit.setVisible(mode.shows_source)
        self.preview.setVisible(mode.shows_preview)
        if mode.shows_preview:
            self._preview_timer.stop()
            self._render_preview()
        if mode is ViewMode.SPLIT:
            half = max(1, self._splitter.width() // 2)
            self._splitter.setSizes([half, half])

    def buffer_text(self) -> str:
        """What the editor holds, with `\\n` line breaks (exactly, unlike toPlainText)."""
        return buffer_from_raw(self.text_edit.document().toRawText())

    def focus_text(self) -> None:
        """Give the text the keyboard focus (to review what was put in it, and save)."""
        self.text_edit.setFocus(Qt.FocusReason.OtherFocusReason)

    def take_keyboard(self) -> None:
        """The keyboard in what the view shows: the text (past a new file's frontmatter,
        `SourceEdit.take_keyboard`), or the preview when only it shows."""
        if self.view_mode.shows_source:
            self.text_edit.take_keyboard()
        else:
            self.preview.setFocus(Qt.FocusReason.OtherFocusReason)

    def start_past_frontmatter(self) -> None:
        """A cursor at the very top of a file goes past its frontmatter (`SourceEdit`)."""
        self.text_edit.start_past_frontmatter()

    def is_modified(self) -> bool:
        """Whether the buffer was edited since it was loaded or marked clean."""
        return self.text_edit.document().isModified()

    def set_modified(self, modified: bool) -> None:
        self.text_edit.document().setModified(modified)

    def load_text(self, text: str) -> None:
        """A new file: fresh text and a fresh undo history."""
        self._loading = True
        try:
            with self.quietly():
                self.text_edit.setPlainText(text)
                self.set_modified(False)
        finally:
            self._loading = False

    def replace_text(self, new_text: str) -> None:
        """Replace the buffer with one undoable edit of the changed middle part, so the
        cursor and scroll position survive wherever the text did not change."""
        old_text = self.buffer_text()
        start, old_end, new_end = changed_span(old_text, new_text)
        if start == old_end == new_end:
            return
        scroll = self.text_edit.verticalScrollBar().value()
        cursor = QTextCursor(self.text_edit.document())
        cursor.beginEditBlock()
        cursor.setPosition(utf16_offset(old_text, start))
        cursor.setPosition(utf16_offset(old_text, old_end), QTextCursor.MoveMode.KeepAnchor)
        cursor.insertText(new_text[start:new_end])
        cursor.endEditBlock()
        self.text_edit.verticalScrollBar().setValue(scroll)

    def end_with_newline(self) -> bool:
        """Add a line break at the end of the text if it lacks one (an undoable edit that
        leaves the cursor where it is); True when one was added."""
        text = self.buffer_text()
        if with_final_newline(text) == text:
            return False
        cursor = self.text_edit.textCursor()
        anchor, position = cursor.anchor(), cursor.position()
        scroll = self.text_edit.verticalScrollBar().value()
        end = QTextCursor(self.text_edit.document())
        end.movePosition(QTextCursor.MoveOperation.End)
        end.insertText("\n")
        cursor.setPosition(anchor)
        cursor.setPosition(position, QTextCursor.MoveMode.KeepAnchor)
        self.text_edit.setTextCursor(cursor)
        self.text_edit.verticalScrollBar().setValue(scroll)
        return True

    def apply_description(self, new_text: str, *, clean: bool) -> None:
        """Replace the buffer for an edit of the description field (the field is not
        synced back from it); `clean` marks the result unmodified."""
        self._applying_description = True
        try:
            self.replace_text(new_text)
            if clean:
                self.set_modified(False)
        finally:
            self._applying_description = False

    @contextmanager
    def quietly(self) -> Iterator[None]:
        """Programmatic edits: no `modified_changed` until the block ends."""
        self._quiet = True
        try:
            yield
        finally:
            self._quiet = False

    def _mirror_description_field(self) -> None:
        value = read_description(self.buffer_text())
        if self.description_edit.text() != value:
            self.description_edit.setText(value)
            self.description_edit.setCursorPosition(0)

    def _render_preview(self) -> None:
        """Render now; a slow render (a big file) waits for longer typing pauses next time."""
        started = time.perf_counter()
        shown = self._rendered if self._rendered is not None else self.buffer_text()
        self.preview.set_markdown_source(shown)
        elapsed_ms = (time.perf_counter() - started) * 1000
        self._preview_timer.setInterval(preview_delay(elapsed_ms))

    def changeEvent(self, event: QEvent) -> None:
        """Follow palette changes (light ↔ dark) in highlighting and labels."""
        if event.type() == QEvent.Type.PaletteChange:
            self._highlighter.set_palette(self.palette())
            self.show_state(self.state, self.save_button.isEnabled())
            self.more_button.setIcon(tinted_icon("editor-more", muted_text(self.palette())))
        super().changeEvent(event)

    @Slot()
    def _on_mode_button_clicked(self) -> None:
        button = self.sender()
        if isinstance(button, QToolButton):
            self.set_view_mode(ViewMode(str(button.property("viewMode"))))

    @Slot()
    def _on_document_contents_changed(self) -> None:
        if self._loading:
            return
        if not self._applying_description:
            self._mirror_timer.start()
        if self.view_mode.shows_preview:
            self._preview_timer.start()

    @Slot(bool)
    def _on_document_modification_changed(self, modified: bool) -> None:
        if not self._quiet:
            self.modified_changed.emit(modified)

    @Slot()
    def _on_preview_timer_timeout(self) -> None:
        if self.view_mode.shows_preview:
            self._render_preview()
