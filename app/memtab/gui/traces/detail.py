"""The detail pane of the Traces tab: one dump's header, attempts, memory, events and raw JSON.

Everything here is filled from a `TraceDump` parsed off the GUI thread. Nothing big is put
into a widget at once: tables are lazy models, long texts show their start with "Show
all", and the raw JSON is only loaded when its tab is first opened.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Slot
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QStackedWidget,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from memtab.components.traces import (
    FIELD_TIPS,
    FIELDS,
    WIDE_FIELDS,
    attempt_tab_title,
    dump_header,
    event_preview,
    events_summary_text,
    events_tab_title,
    prompt_section_preview,
    prompt_section_text,
    prompt_sections,
)
from memtab.gui.toolkit.style import Accent, mute
from memtab.gui.toolkit.widgets import ElidedLabel, WrappedLabel
from memtab.gui.traces.models import outcome_icon
from memtab.gui.traces.pages import AttemptPage, Inspector, RawJsonView, Styled
from memtab.gui.traces.text_view import LongTextView
from memtab.traces.describe import format_json
from memtab.traces.reader import TraceDump

LOADING_DELAY_MS = 150
TWO_COLUMNS_WIDTH = 640
"""The header's least width for its short fields two pairs a row."""


class TraceDetailView(QWidget):
    """The right-hand pane: a placeholder, or one dump in full."""

    PLACEHOLDER, LOADING, CONTENT = range(3)

    def __init__(self, parent: QWidget | None = None) -> None:
        """Starts on the placeholder."""
        super().__init__(parent)
        self._styled = Styled()
        self._dump: TraceDump | None = None
        self._raw_loaded = False
        self.attempt_pages: list[AttemptPage] = []
        self._dump_pages: list[QWidget] = []  # the pages made for the dump shown

        self.stack = QStackedWidget(self)
        self.placeholder = QLabel("Select a trace dump to see why the run failed.", self)
        self.placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.placeholder.setWordWrap(True)
        mute(self.placeholder)
        self.loading = QLabel("Opening…", self)
        self.loading.setAlignment(Qt.AlignmentFlag.AlignCenter)
        mute(self.loading)
        self._loading_timer = QTimer(self)
        self._loading_timer.setSingleShot(True)
        self._loading_timer.setInterval(LOADING_DELAY_MS)
        self._loading_timer.timeout.connect(self._on_loading_timer_timeout)

        content = QWidget(self)
        self._build_header(content)
        self.tabs = QTabWidget(content)
        self.tabs.setAccessibleName("Trace dump sections")
        self.tabs.currentChanged.connect(self._on_tabs_current_changed)
        self.memory_view = LongTextView("Existing memory", content, monospace=False)
        self.memory_view.set_placeholder("The memory file was empty when the run started.")
        self.events_summary = ElidedLabel("", content)
        mute(self.events_summary)
        self.events = Inspector("Events", content)
        events_page = QWidget(content)
        events_layout = QVBoxLayout(events_page)
        events_layout.setContentsMargins(8, 8, 8, 8)
        events_layout.addWidget(self.events_summary)
        events_layout.addWidget(self.events, 1)
        self.prompt = Inspector("Prompt and context", content, monospace=False)
        prompt_page = QWidget(content)
        prompt_layout = QVBoxLayout(prompt_page)
        prompt_layout.setContentsMargins(8, 8, 8, 8)
        prompt_layout.addWidget(self.prompt)
        memory_page = QWidget(content)
        memory_layout = QVBoxLayout(memory_page)
        memory_layout.setContentsMargins(8, 8, 8, 8)
        memory_layout.addWidget(self.memory_view)
        self.raw_view = RawJsonView(content)
        self._fixed_pages = (
            (memory_page, "Memory"),
            (events_page, "Events"),
            (prompt_page, "Prompt"),
            (self.raw_view, "Raw JSON"),
        )
        self._events_page = events_page

        content_layout = QVBoxLayout(content)
        content_layout.setContentsMargins(0, 0, 0, 0)
        content_layout.setSpacing(6)
        content_layout.addWidget(self.header)
        content_layout.addWidget(self.tabs, 1)

        self.stack.addWidget(self.placeholder)
        self.stack.addWidget(self.loading)
        self.stack.addWidget(content)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.stack)

    # -- building ------------------------------------------------------------------------

    def _build_header(self, parent: QWidget) -> None:
        self.header = QWidget(parent)
        # Paths, names and messages elide or wrap: none may widen the window.
        self.title = ElidedLabel("", self.header)
        title_font = QFont(self.title.font())
        title_font.setPointSizeF(title_font.pointSizeF() * 1.25)
        title_font.setWeight(QFont.Weight.DemiBold)
        self.title.setFont(title_font)
        self.outcome_dot = QLabel(self.header)
        self.subtitle = ElidedLabel("", self.header)
        mute(self.subtitle)
        self.error_label = WrappedLabel("", self.header)
        self.error_label.setObjectName("traceError")
        self.error_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self._styled.text(self.error_label, Accent.ERROR)
        self.problem_banner = QFrame(self.header)
        self.problem_label = WrappedLabel("", self.problem_banner)
        self.problem_label.setObjectName("traceProblem")
        self.problem_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        banner_layout = QHBoxLayout(self.problem_banner)
        banner_layout.setContentsMargins(8, 6, 8, 6)
        banner_layout.addWidget(self.problem_label)
        self._styled.banner(self.problem_banner, Accent.WARNING)

        title_row = QHBoxLayout()
        title_row.setSpacing(8)
        title_row.addWidget(self.outcome_dot)
        title_row.addWidget(self.title, 1)

        self.fields: dict[str, ElidedLabel] = {}
        self._field_rows: list[tuple[QLabel, ElidedLabel, bool]] = []  # name, value, wide
        self._fields_grid = QGridLayout()
        self._fields_grid.setHorizontalSpacing(12)
        self._fields_grid.setVerticalSpacing(3)
        for key, label in FIELDS:
            name = self._field_name(label)
            name.setToolTip(FIELD_TIPS.get(key, ""))  # the value's tooltip is its whole text
            value = ElidedLabel("", self.header)
            value.setObjectName(f"field:{key}")
            self.fields[key] = value
            self._field_rows.append((name, value, False))
        for key, label in WIDE_FIELDS:
            # Spanning the value columns: it takes their room, not decides it.
            wide = ElidedLabel("", self.header, max_hint=120)
            wide.setObjectName(f"field:{key}")
            self.fields[key] = wide
            self._field_rows.append((self._field_name(label), wide, True))
        self._field_columns = 0
        self._lay_out_fields(2)
        self.header.installEventFilter(self)

        layout = QVBoxLayout(self.header)
        layout.setContentsMargins(10, 10, 10, 4)
        layout.setSpacing(6)
        layout.addLayout(title_row)
        layout.addWidget(self.subtitle)
        layout.addWidget(self.error_label)
        layout.addWidget(self.problem_banner)
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
            wide = self.header.width() >= TWO_COLUMNS_WIDTH
            self._lay_out_fields(2 if wide else 1)
        return super().eventFilter(watched, event)

    def _field_name(self, text: str) -> QLabel:
        label = QLabel(text, self.header)
        mute(label)
        return label

    # -- states --------------------------------------------------------------------------

    @property
    def dump(self) -> TraceDump | None:
        """The dump shown (None on the placeholder)."""
        return self._dump

    def show_placeholder(self, text: str) -> None:
        """No dump: say why (nothing selected, the dump was deleted...)."""
        self._loading_timer.stop()
        self._dump = None
        self.placeholder.setText(text)
        self.stack.setCurrentIndex(self.PLACEHOLDER)

    def show_loading(self, name: str) -> None:
        """A dump is being parsed; say so if it takes more than a moment."""
        self.loading.setText(f"Opening {name}…")
        self._loading_timer.start()

    def show_dump(self, dump: TraceDump, workspace_label: str) -> None:
        """Fill every section from `dump` (`workspace_label`: how to name its workspace)."""
        self._loading_timer.stop()
        self._dump = dump
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
            empty = QLabel("No attempts were recorded in this dump.")
            empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
            mute(empty)
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
        if self._dump is None or self.stack.currentIndex() != self.CONTENT:
            return False
        self.tabs.setCurrentWidget(self.raw_view)
        self.raw_view.open_find()
        return True

    @Slot(int)
    def _on_tabs_current_changed(self, index: int) -> None:
        if self.tabs.widget(index) is self.raw_view and self._dump and not self._raw_loaded:
            self._raw_loaded = True
            self.raw_view.load(self._dump)

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:  # the app palette, propagated
            self._styled.reapply()
