"""The detail pane of the Traces tab: one dump's header, attempts, memory, events and raw
JSON, filled lazily (lazy models, "Show all", raw JSON loaded on first open).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Any

from PySide6.QtCore import QEvent, QModelIndex, QObject, Qt, Signal, Slot
from PySide6.QtGui import QFont, QFontDatabase, QGuiApplication, QPalette, QTextCursor, QTextOption
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QTabWidget,
    QWidget,
)

from memtab.components.traces import (
    FIELD_TIPS,
    FIELDS,
    WIDE_FIELDS,
    Preview,
    attempt_status,
    attempt_tab_title,
    dump_header,
    event_preview,
    events_summary_text,
    events_tab_title,
    execution_detail,
    first_failed,
    message_preview,
    message_text,
    prompt_section_preview,
    prompt_section_text,
    prompt_sections,
    step_preview,
)
from memtab.gui.toolkit.clock import qtimer
from memtab.gui.toolkit.row_list import FittedTable
from memtab.gui.toolkit.style import Accent, accent_text, mute, tint
from memtab.gui.toolkit.text.find_bar import FindBar
from memtab.gui.toolkit.widgets import ElidedLabel, WrappedLabel, hbox, named, vbox
from memtab.gui.traces.models import PreviewTableModel, ToolExecutionModel, outcome_icon
from memtab.humanize import size_text
from memtab.traces.describe import format_json
from memtab.traces.reader import TraceAttempt, TraceDump

DEFAULT_LIMIT_CHARS = 64 * 1024
CHUNK_CHARS = 256 * 1024


class LongTextView(QWidget):
    """Read-only text: the first `limit` characters now, the rest on "Show all"."""

    fully_loaded = Signal()  # the whole text is in the editor (after the last chunk)

    def __init__(
        self,
        accessible_name: str,
        parent: QWidget | None = None,
        *,
        monospace: bool = True,
        limit: int = DEFAULT_LIMIT_CHARS,
    ) -> None:
        """`accessible_name` names the text area for screen readers and tests."""
        super().__init__(parent)
        self._limit = limit
        self.full_text = ""
        self._loaded = 0  # characters of `_text` in the editor

        self.editor = named(QPlainTextEdit(self), accessible=accessible_name)
        self.editor.setReadOnly(True)
        self.editor.setUndoRedoEnabled(False)
        self.editor.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse
            | Qt.TextInteractionFlag.TextSelectableByKeyboard
        )
        self.editor.setWordWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        if monospace:
            self.editor.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))

        self._more_label = mute(QLabel(self))
        self.more_button = QPushButton("Show all", self)
        self.more_button.setAccessibleName(f"Show all of {accessible_name}")
        self.more_button.clicked.connect(self.show_all)
        self._more_bar = QWidget(self)
        hbox((self._more_label, 1), self.more_button, on=self._more_bar, margins=(4, 2, 4, 2))
        self._more_bar.hide()

        self._chunk_timer = qtimer(self, self._on_chunk_timer_timeout, 0, single_shot=False)

        vbox((self.editor, 1), self._more_bar, on=self, margins=0, spacing=2)

    @property
    def is_complete(self) -> bool:
        """Whether the editor holds the whole value."""
        return self._loaded >= len(self.full_text)

    def set_placeholder(self, text: str) -> None:
        """What the empty view says (e.g. "The memory file was empty")."""
        self.editor.setPlaceholderText(text)

    def set_text(self, text: str) -> None:
        """Show `text`: all of it if short, else its start and a "Show all" bar."""
        self._chunk_timer.stop()
        self.full_text = text
        self._loaded = _cut_point(text, self._limit)
        self.editor.setPlainText(text[: self._loaded])
        self._update_more_bar()

    def show_all(self) -> None:
        """Append the rest of the text in chunks (returns at once)."""
        if not self.is_complete and not self._chunk_timer.isActive():
            self.more_button.setEnabled(False)
            self._chunk_timer.start()

    def _update_more_bar(self) -> None:
        if self.is_complete:
            self._more_bar.hide()
            return
        shown, total = size_text(self._loaded), size_text(len(self.full_text))
        self._more_label.setText(f"Showing the first {shown} of {total}")
        self.more_button.setEnabled(not self._chunk_timer.isActive())
        self._more_bar.show()

    @Slot()
    def _on_chunk_timer_timeout(self) -> None:
        end = min(len(self.full_text), self._loaded + CHUNK_CHARS)
        cursor = QTextCursor(self.editor.document())
        cursor.movePosition(QTextCursor.MoveOperation.End)
        cursor.insertText(self.full_text[self._loaded : end])
        self._loaded = end
        if self.is_complete:
            self._chunk_timer.stop()
            self._update_more_bar()
            self.fully_loaded.emit()
        else:
            percent = round(100 * self._loaded / len(self.full_text))
            self._more_label.setText(f"Loading… {percent}%")


def _cut_point(text: str, limit: int) -> int:
    """Where to cut `text` to show about `limit` characters: at a line end when one is near."""
    if len(text) <= limit:
        return len(text)
    newline = text.rfind("\n", limit // 2, limit)
    return newline + 1 if newline >= 0 else limit


RAW_LIMIT_CHARS = 256 * 1024


class Styled:
    """Remembers which widgets carry an accent, to repaint them when the palette changes."""

    def __init__(self) -> None:
        self._texts: list[tuple[QWidget, Accent]] = []
        self._banners: list[tuple[QWidget, Accent]] = []

    def text(self, widget: QWidget, accent: Accent | None) -> None:
        """Draw `widget`'s text in `accent` (None: the normal text colour)."""
        self._texts = [(w, a) for w, a in self._texts if w is not widget]
        if accent is None:
            widget.setPalette(QPalette())
            return
        self._texts.append((widget, accent))
        self._apply_text(widget, accent)

    def banner(self, widget: QWidget, accent: Accent) -> None:
        """Give `widget` a background tinted with `accent`."""
        widget.setAutoFillBackground(True)
        self._banners.append((widget, accent))
        self._apply_banner(widget, accent)

    def reapply(self) -> None:
        for widget, accent in self._texts:
            self._apply_text(widget, accent)
        for widget, accent in self._banners:
            self._apply_banner(widget, accent)

    # Only the one role is set, so every other colour still follows the application palette.
    @staticmethod
    def _apply_text(widget: QWidget, accent: Accent) -> None:
        palette = widget.palette()
        palette.setColor(
            QPalette.ColorRole.WindowText, accent_text(QGuiApplication.palette(), accent)
        )
        widget.setPalette(palette)

    @staticmethod
    def _apply_banner(widget: QWidget, accent: Accent) -> None:
        palette, window = widget.palette(), QPalette.ColorRole.Window
        palette.setColor(window, tint(QGuiApplication.palette(), accent, window, 0.16))
        widget.setPalette(palette)


class Inspector(QWidget):
    """A table of items above a viewer that shows the selected item in full."""

    def __init__(self, name: str, parent: QWidget | None = None, *, monospace: bool = True) -> None:
        """`name` is the table's accessible name; the viewer is "`name` detail"."""
        super().__init__(parent)
        self.table = FittedTable(name, self)
        self.viewer = LongTextView(f"{name} detail", self, monospace=monospace)
        self._detail: Callable[[Any], str] = format_json
        self.model: PreviewTableModel | None = None
        splitter = QSplitter(Qt.Orientation.Vertical, self)
        splitter.setChildrenCollapsible(False)
        splitter.addWidget(self.table)
        splitter.addWidget(self.viewer)
        splitter.setStretchFactor(0, 2)
        splitter.setStretchFactor(1, 3)
        vbox(splitter, on=self, margins=0)

    def set_items(
        self,
        headers: Sequence[str],
        items: Sequence[Any],
        describe: Callable[[int, Any], Preview],
        detail: Callable[[Any], str],
        *,
        stretch: int,
        whole: Collection[int] = (),
    ) -> None:
        """Show `items` (described lazily) and the first one in the viewer; the column
        `stretch` takes the room the others leave, the `whole` ones are never cut."""
        old = self.model
        self.model = PreviewTableModel(headers, items, describe, self)
        self._detail = detail
        self.table.set_model(self.model, stretch=stretch, whole=whole)
        self.table.selectionModel().currentRowChanged.connect(self._on_table_current_row_changed)
        if old is not None:
            old.deleteLater()
        if items:
            self.table.setCurrentIndex(self.model.index(0, 0))
        else:
            self.viewer.set_text("")

    @Slot(QModelIndex, QModelIndex)
    def _on_table_current_row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if self.model is None or not current.isValid():
            return
        self.viewer.set_text(self._detail(self.model.item(current.row())))


class AttemptPage(QWidget):
    """One attempt: its status, the tool executions table, and the selected call in full."""

    def __init__(self, attempt: TraceAttempt, run_started_at: int | None) -> None:
        """Build the page for `attempt` (tool start times relative to `run_started_at`)."""
        super().__init__()
        self.attempt = attempt
        styled = self._styled = Styled()
        number = QLabel(f"<b>{attempt_tab_title(attempt.number)}</b>", self)
        facts = attempt_status(attempt)  # may hold a model's finish reason: elided
        self.status = ElidedLabel(f"· {facts}" if facts else "", self)
        status = hbox(number, (self.status, 1))
        record = attempt.record
        self.error_label = WrappedLabel(record.error or "", self)
        self.error_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.error_label.setVisible(bool(record.error))
        styled.text(self.error_label, Accent.ERROR)

        calls = record.tool_executions
        calls_title = QLabel(f"<b>Tool executions</b> ({len(calls)})", self)
        self.tool_model = ToolExecutionModel(calls, run_started_at, self)
        self.tool_table = FittedTable("Tool executions", self)
        self.tool_table.set_model(
            self.tool_model,
            stretch=ToolExecutionModel.RESULT,
            whole=(ToolExecutionModel.DURATION, ToolExecutionModel.STARTED),
        )
        self.tool_table.selectionModel().currentRowChanged.connect(
            self._on_tool_table_current_row_changed
        )
        self.tool_table.setVisible(bool(calls))
        no_calls = mute(QLabel("No tool calls in this attempt.", self))
        no_calls.setVisible(not calls)

        self.call_view = LongTextView("Selected tool call", self)
        self.messages = Inspector("Messages", self, monospace=False)
        self.messages.set_items(
            ("#", "Role", "Text"),
            attempt.messages,
            message_preview,
            message_text,
            stretch=2,
            whole=(0,),
        )
        self.steps = Inspector("Step results", self)
        self.steps.set_items(
            ("#", "Summary"),
            record.step_results,
            step_preview,
            format_json,
            stretch=1,
            whole=(0,),
        )
        self.inner_tabs = QTabWidget(self)
        self.inner_tabs.setDocumentMode(True)
        self.inner_tabs.addTab(self.call_view, "Selected call")
        self.inner_tabs.addTab(self.messages, f"Messages ({len(attempt.messages)})")
        self.inner_tabs.addTab(self.steps, f"Step results ({len(record.step_results)})")

        top = QWidget(self)
        vbox(calls_title, (self.tool_table, 1), no_calls, on=top, margins=0)
        splitter = QSplitter(Qt.Orientation.Vertical, self)
        splitter.setChildrenCollapsible(False)
        splitter.addWidget(top)
        splitter.addWidget(self.inner_tabs)
        splitter.setStretchFactor(0, 1)
        splitter.setStretchFactor(1, 3)
        # Room for the calls there are (up to a dozen), the rest for the selected one.
        row_height = self.fontMetrics().height() + 6
        table_height = row_height * (min(max(len(calls), 2), 12) + 2) + 30
        splitter.setSizes([table_height, 3 * table_height])

        vbox(status, self.error_label, (splitter, 1), on=self, margins=8)

        if calls:
            self.tool_table.setCurrentIndex(self.tool_model.index(first_failed(calls), 0))
        else:
            self.call_view.set_placeholder("No tool calls in this attempt.")
            self.inner_tabs.setCurrentWidget(self.messages)

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:  # the app palette, propagated
            self._styled.reapply()

    @Slot(QModelIndex, QModelIndex)
    def _on_tool_table_current_row_changed(self, current: QModelIndex, _prev: QModelIndex) -> None:
        execution = self.tool_model.execution(current.row())
        if execution is not None:
            self.call_view.set_text(execution_detail(execution))
            self.inner_tabs.setCurrentWidget(self.call_view)


class RawJsonView(QWidget):
    """The dump file as it is on disk, read-only, with a Copy button and a find bar
    (Ctrl+F on the Traces tab: `open_find`)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        """Empty until `load`."""
        super().__init__(parent)
        self._text = ""
        self.info = mute(ElidedLabel("", self))  # the dump's path: as long as the home's
        self.copy_button = QPushButton("Copy", self)
        self.copy_button.setAccessibleName("Copy raw JSON")
        self.copy_button.setToolTip("Copy the whole file to the clipboard")
        self.copy_button.clicked.connect(self._on_copy_button_clicked)
        self.text_view = LongTextView("Raw JSON", self, limit=RAW_LIMIT_CHARS)
        self.find_bar = FindBar(self.text_view.editor, parent=self)
        self._reset_timer = qtimer(self, self._on_reset_timer_timeout, 1500)
        bar = hbox((self.info, 1), self.copy_button)
        vbox(bar, (self.text_view, 1), self.find_bar, on=self, margins=8)

    def open_find(self) -> None:
        """Open the find bar over the whole file (the rest of a long one streams in and
        is searched as it comes)."""
        self.text_view.show_all()
        self.find_bar.open()

    def load(self, dump: TraceDump) -> None:
        """Show the dump's text (its start, if it is large)."""
        self._text = dump.raw_text
        self.info.set_full_text(f"{size_text(dump.size_bytes)} · {dump.path}")
        self.text_view.set_text(dump.raw_text)
        self.copy_button.setEnabled(bool(dump.raw_text))

    def clear(self) -> None:
        """Forget the text (a new dump is being shown)."""
        self._text = ""
        self.text_view.set_text("")

    @Slot()
    def _on_copy_button_clicked(self) -> None:
        QGuiApplication.clipboard().setText(self._text)
        self.copy_button.setText("Copied")
        self._reset_timer.start()

    @Slot()
    def _on_reset_timer_timeout(self) -> None:
        self.copy_button.setText("Copy")


LOADING_DELAY_MS = 150
TWO_COLUMNS_WIDTH = 640  # the header's least width for its short fields two pairs a row


class TraceDetailView(QWidget):
    """The right-hand pane: a placeholder, or one dump in full."""

    PLACEHOLDER, LOADING, CONTENT = range(3)

    def __init__(self, parent: QWidget | None = None) -> None:
        """Starts on the placeholder."""
        super().__init__(parent)
        self._styled = Styled()
        self.dump: TraceDump | None = None
        self._raw_loaded = False
        self.attempt_pages: list[AttemptPage] = []
        self._dump_pages: list[QWidget] = []  # the pages made for the dump shown

        self.stack = QStackedWidget(self)
        self.placeholder = mute(
            QLabel("Select a trace dump to see why the run failed.", self), wrap=True
        )
        self.placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.loading = mute(QLabel("Opening…", self))
        self.loading.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self._loading_timer = qtimer(self, self._on_loading_timer_timeout, LOADING_DELAY_MS)

        content = QWidget(self)
        self._build_header(content)
        self.tabs = named(QTabWidget(content), accessible="Trace dump sections")
        self.tabs.currentChanged.connect(self._on_tabs_current_changed)
        self.memory_view = LongTextView("Existing memory", content, monospace=False)
        self.memory_view.set_placeholder("The memory file was empty when the run started.")
        self.events_summary = mute(ElidedLabel("", content))
        self.events = Inspector("Events", content)
        events_page = QWidget(content)
        vbox(self.events_summary, (self.events, 1), on=events_page, margins=8)
        self.prompt = Inspector("Prompt and context", content, monospace=False)
        prompt_page = QWidget(content)
        vbox(self.prompt, on=prompt_page, margins=8)
        memory_page = QWidget(content)
        vbox(self.memory_view, on=memory_page, margins=8)
        self.raw_view = RawJsonView(content)
        self._fixed_pages = (
            (memory_page, "Memory"),
            (events_page, "Events"),
            (prompt_page, "Prompt"),
            (self.raw_view, "Raw JSON"),
        )
        self._events_page = events_page

        vbox(self.header, (self.tabs, 1), on=content, margins=0, spacing=6)

        self.stack.addWidget(self.placeholder)
        self.stack.addWidget(self.loading)
        self.stack.addWidget(content)
        vbox(self.stack, on=self, margins=0)

    def _build_header(self, parent: QWidget) -> None:
        self.header = QWidget(parent)
        # Paths, names and messages elide or wrap: none may widen the window.
        self.title = ElidedLabel("", self.header)
        title_font = QFont(self.title.font())
        title_font.setPointSizeF(title_font.pointSizeF() * 1.25)
        title_font.setWeight(QFont.Weight.DemiBold)
        self.title.setFont(title_font)
        self.outcome_dot = QLabel(self.header)
        self.subtitle = mute(ElidedLabel("", self.header))
        self.error_label = named(WrappedLabel("", self.header), "traceError")
        self.error_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self._styled.text(self.error_label, Accent.ERROR)
        self.problem_banner = QFrame(self.header)
        self.problem_label = named(WrappedLabel("", self.problem_banner), "traceProblem")
        self.problem_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        hbox(self.problem_label, on=self.problem_banner, margins=(8, 6, 8, 6))
        self._styled.banner(self.problem_banner, Accent.WARNING)

        title_row = hbox(self.outcome_dot, (self.title, 1), spacing=8)

        self.fields: dict[str, ElidedLabel] = {}
        self._field_rows: list[tuple[QLabel, ElidedLabel, bool]] = []  # name, value, wide
        self._fields_grid = QGridLayout()
        self._fields_grid.setHorizontalSpacing(12)
        self._fields_grid.setVerticalSpacing(3)
        for key, label in FIELDS:
            name = self._field_name(label)
            name.setToolTip(FIELD_TIPS.get(key, ""))  # the value's tooltip is its whole text
            value = named(ElidedLabel("", self.header), f"field:{key}")
            self.fields[key] = value
            self._field_rows.append((name, value, False))
        for key, label in WIDE_FIELDS:
            # Spanning the value columns: it takes their room, not decides it.
            wide = named(ElidedLabel("", self.header, max_hint=120), f"field:{key}")
            self.fields[key] = wide
            self._field_rows.append((self._field_name(label), wide, True))
        self._field_columns = 0
        self._lay_out_fields(2)
        self.header.installEventFilter(self)

        layout = vbox(
            title_row,
            self.subtitle,
            self.error_label,
            self.problem_banner,
            on=self.header,
            margins=(10, 10, 10, 4),
            spacing=6,
        )
        layout.addSpacing(4)
        layout.addLayout(self._fields_grid)

    def _lay_out_fields(self, columns: int) -> None:
        """The short fields in `columns` pairs of name and value a row (two side by side
        squeezed the right ones to "a…5" beside a terminal), the wide ones below."""
        if columns == self._field_columns:
            return
        self._field_columns = columns
        grid = self._fields_grid
        for name, value, _wide in self._field_rows:
            grid.removeWidget(name)
            grid.removeWidget(value)
        short = [(name, value) for name, value, wide in self._field_rows if not wide]
        for position, (name, value) in enumerate(short):
            row, column = divmod(position, columns)
            grid.addWidget(name, row, column * 2)
            grid.addWidget(value, row, column * 2 + 1)
        first_wide = (len(short) + columns - 1) // columns
        wide_rows = [(name, value) for name, value, wide in self._field_rows if wide]
        for offset, (name, value) in enumerate(wide_rows):
            grid.addWidget(name, first_wide + offset, 0)
            grid.addWidget(value, first_wide + offset, 1, 1, 2 * columns - 1)
        # The left values as wide as they ask (a stretch would split the room evenly and
        # elide them); the right ones take what is left.
        for column in range(4):
            grid.setColumnStretch(column, 1 if column == 2 * columns - 1 else 0)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Two columns of fields where the header has the room, else one."""
        if watched is self.header and event.type() == QEvent.Type.Resize:
            self._lay_out_fields(2 if self.header.width() >= TWO_COLUMNS_WIDTH else 1)
        return super().eventFilter(watched, event)

    def _field_name(self, text: str) -> QLabel:
        label = mute(QLabel(text, self.header))
        return label

    def show_placeholder(self, text: str) -> None:
        """No dump: say why (nothing selected, the dump was deleted...)."""
        self._loading_timer.stop()
        self.dump = None
        self.placeholder.setText(text)
        self.stack.setCurrentIndex(self.PLACEHOLDER)

    def show_loading(self, name: str) -> None:
        """A dump is being parsed; say so if it takes more than a moment."""
        self.loading.setText(f"Opening {name}…")
        self._loading_timer.start()

    def show_dump(self, dump: TraceDump, workspace_label: str) -> None:
        """Fill every section from `dump` (`workspace_label`: how to name its workspace)."""
        self._loading_timer.stop()
        self.dump = dump
        self._fill_header(dump, workspace_label)
        self._fill_tabs(dump)
        self.stack.setCurrentIndex(self.CONTENT)

    @Slot()
    def _on_loading_timer_timeout(self) -> None:
        self.stack.setCurrentIndex(self.LOADING)

    def _fill_header(self, dump: TraceDump, workspace_label: str) -> None:
        header = dump_header(dump, workspace_label)
        self.outcome_dot.setPixmap(outcome_icon(dump.outcome).pixmap(12, 12))
        self.title.set_full_text(header.title)
        self.subtitle.set_full_text(header.subtitle)
        self.error_label.setText(header.error)
        self.error_label.setVisible(bool(header.error))
        self.problem_label.setText(header.notes)
        self.problem_banner.setVisible(bool(header.notes))
        for key, value in header.fields.items():
            label = self.fields[key]
            label.set_full_text(value.text)
            self._styled.text(label, Accent.ERROR if value.bad else None)

    def _fill_tabs(self, dump: TraceDump) -> None:
        current = self.tabs.tabText(self.tabs.currentIndex()) if self.tabs.count() else ""
        self.tabs.blockSignals(True)
        self.tabs.clear()
        for page in self._dump_pages:
            page.deleteLater()
        self.attempt_pages = [
            AttemptPage(attempt, dump.record.run_started_at) for attempt in dump.attempts
        ]
        self._dump_pages = list(self.attempt_pages)
        for page in self.attempt_pages:
            title = attempt_tab_title(page.attempt.number)
            if page.attempt.failed:
                self.tabs.addTab(page, outcome_icon(dump.outcome), title)
            else:
                self.tabs.addTab(page, title)
        if not self.attempt_pages:
            empty = mute(QLabel("No attempts were recorded in this dump."))
            empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
            self._dump_pages.append(empty)
            self.tabs.addTab(empty, "Attempts")
        for page, title in self._fixed_pages:
            self.tabs.addTab(page, title)
        self.tabs.setTabText(self.tabs.indexOf(self._events_page), events_tab_title(dump))
        self.tabs.blockSignals(False)

        self.memory_view.set_text(dump.record.existing_memory or "")
        self.events_summary.set_full_text(events_summary_text(dump))
        self.events.set_items(
            ("#", "Role", "Text", "Tools"),
            dump.record.events,
            event_preview,
            format_json,
            stretch=2,
            whole=(0,),
        )
        self.prompt.set_items(
            ("Section", "Size", "Start"),
            prompt_sections(dump),
            prompt_section_preview,
            prompt_section_text,
            stretch=2,
            whole=(1,),
        )
        self._raw_loaded = False
        self.raw_view.clear()
        # Keep the section the reader was looking at when moving between dumps.
        same = next((i for i in range(self.tabs.count()) if self.tabs.tabText(i) == current), 0)
        self.tabs.setCurrentIndex(same)
        self._on_tabs_current_changed(same)

    def find_in_dump(self) -> bool:
        """Show the dump's raw JSON with its find bar open (Ctrl+F); False when no dump
        is shown."""
        if self.dump is None or self.stack.currentIndex() != self.CONTENT:
            return False
        self.tabs.setCurrentWidget(self.raw_view)
        self.raw_view.open_find()
        return True

    @Slot(int)
    def _on_tabs_current_changed(self, index: int) -> None:
        if self.tabs.widget(index) is self.raw_view and self.dump and not self._raw_loaded:
            self._raw_loaded = True
            self.raw_view.load(self.dump)

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:  # the app palette, propagated
            self._styled.reapply()
