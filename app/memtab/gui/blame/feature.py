"""Blame in the window: View → Blame toggles a gutter beside the editor's text, each line's
author computed off the GUI thread (`components.blame`) and realigned as the user types; a
click opens the line's card. Nothing is read while the gutter is hidden.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol

from PySide6.QtCore import (
    QEvent,
    QObject,
    QPoint,
    QRect,
    QSize,
    Qt,
    Signal,
    SignalInstance,
    Slot,
)
from PySide6.QtGui import QColor, QGuiApplication, QHelpEvent, QMouseEvent, QPainter, QPaintEvent
from PySide6.QtWidgets import (
    QFrame,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QToolTip,
    QWidget,
)

from memtab.blame.records import Blame
from memtab.components.blame import (
    NO_BLAME,
    BlameFollow,
    GutterEntry,
    Link,
    align,
    blame_text,
    cannot_blame,
    trace_gone,
)
from memtab.components.rich_text import escape_html
from memtab.gui.context import WindowContext
from memtab.gui.tasks.jobs import JobClient, Lane
from memtab.gui.toolkit.clock import qtimer
from memtab.gui.toolkit.keyboard_return import KeyboardReturn
from memtab.gui.toolkit.style import Accent, muted_text
from memtab.gui.toolkit.text.line_margin import LineMargin, MarginEditor, Side
from memtab.gui.toolkit.widgets import vbox

LABEL_CHARS = 11  # the gutter is as wide as this many characters of the label (`writer 12w`)
BAR_WIDTH = 3
PADDING = 6

ACTOR_ACCENTS: dict[str, Accent] = {
    "user": Accent.SUCCESS,
    "writer": Accent.INFO,
    "consolidator": Accent.INFO,
    "agent-tool": Accent.INFO,
    "mux": Accent.WARNING,
    "external": Accent.WARNING,
    "unsaved": Accent.ERROR,
}  # the bar's colour by actor (the others: the muted text colour)


class BlameGutter(LineMargin):
    """A blame gutter on `text_edit`'s left (see the module docstring)."""

    card_requested = Signal(int, QPoint)  # a click on line `n` (0-based), at this global point

    def __init__(self, text_edit: QPlainTextEdit) -> None:
        super().__init__(text_edit, Side.LEFT)
        self.setObjectName("blameGutter")
        self.setAccessibleName("Blame: who wrote each line")
        self._entries: list[GutterEntry] = []
        self.status = ""

    @property
    def entries(self) -> list[GutterEntry]:
        """One entry per line of the text, as last set."""
        return list(self._entries)

    def set_entries(self, entries: Sequence[GutterEntry]) -> None:
        """Paint `entries` (one per line of the text)."""
        self._entries = list(entries)
        self.follow_lines()
        self.status = ""
        self.setToolTip("")  # the lines' cards now, not "Reading history…"
        self.update()

    def set_status(self, text: str) -> None:
        """Paint no entries, only `text` at the top ("Reading history…", "No history")."""
        self._entries = []
        self.status = text
        self.setToolTip(text)
        self.update()

    def entry_at(self, line: int) -> GutterEntry | None:
        """The entry of line `line` (0-based), or None."""
        return self._entries[line] if 0 <= line < len(self._entries) else None

    def sizeHint(self) -> QSize:
        width = self.fontMetrics().horizontalAdvance("m" * LABEL_CHARS)
        return QSize(BAR_WIDTH + 2 * PADDING + width, 0)

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        self.fill_background(painter, event.rect())
        muted = muted_text(self.palette())
        painter.setPen(muted)
        metrics = self.fontMetrics()
        if not self._entries:
            if self.status:
                text = metrics.elidedText(
                    self.status, Qt.TextElideMode.ElideRight, self.width() - 2 * PADDING
                )
                painter.drawText(PADDING, metrics.ascent() + PADDING, text)
            return
        for line, top, height in self.visible_lines():
            entry = self.entry_at(line)
            if entry is None:
                continue
            accent = ACTOR_ACCENTS.get(entry.actor)
            bar = QColor(accent.value) if accent is not None else muted
            painter.fillRect(QRect(0, top, BAR_WIDTH, height), bar)
            previous = self.entry_at(line - 1)
            if previous is not None and previous.owner == entry.owner:
                continue  # the same change as the line above: its bar says so
            label = metrics.elidedText(
                entry.label, Qt.TextElideMode.ElideRight, self.width() - BAR_WIDTH - 2 * PADDING
            )
            painter.drawText(BAR_WIDTH + PADDING, top + metrics.ascent() + 1, label)

    def event(self, event: QEvent) -> bool:
        """A hover that rests (Qt's tooltip event): the card of the line under it."""
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            line = self.line_at(event.pos().y())
            entry = self.entry_at(line) if line is not None else None
            if entry is not None:
                QToolTip.showText(event.globalPos(), card_html(entry), self)
                return True
        return super().event(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        line = self.line_at(round(event.position().y()))
        entry = self.entry_at(line) if line is not None else None
        if entry is None:
            QToolTip.hideText()
        else:
            QToolTip.showText(event.globalPosition().toPoint(), card_html(entry), self)
        super().mouseMoveEvent(event)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        line = self.line_at(round(event.position().y()))
        if (
            event.button() == Qt.MouseButton.LeftButton
            and line is not None
            and self.entry_at(line) is not None
        ):
            QToolTip.hideText()
            self.card_requested.emit(line, event.globalPosition().toPoint())
            event.accept()
            return
        super().mousePressEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        event.accept()  # the press opened the card: the release ends it here


def card_html(entry: GutterEntry) -> str:
    """A line's card as rich text (the hover tooltip)."""
    lines = [f"<b>{escape_html(entry.title)}</b>"]
    lines += [escape_html(detail) for detail in entry.details]
    if entry.links:
        lines.append("<i>Click for its links</i>")
    return "<br>".join(lines)


CARD_WIDTH = 420


class BlameCard(QFrame):
    """One line's card (see the module docstring)."""

    link_activated = Signal(object)  # (Link) a link's button was clicked (the card closes)

    def __init__(self, entry: GutterEntry, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Popup)
        self.setObjectName("blameCard")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAccessibleName(f"Blame: {entry.title}")
        self.entry = entry
        lines: list[QWidget] = [QLabel(f"<b>{escape_html(entry.title)}</b>", self)]
        for detail in entry.details:
            label = QLabel(detail, self)
            label.setWordWrap(True)
            label.setTextFormat(Qt.TextFormat.PlainText)
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            lines.append(label)
        self.buttons: list[QPushButton] = []
        for link in entry.links:
            button = QPushButton(link.text, self)
            button.setProperty("blameLink", link.kind)
            button.clicked.connect(functools.partial(self._on_link_clicked, link))
            self.buttons.append(button)
        vbox(*lines, *self.buttons, on=self, margins=(12, 10, 12, 10), spacing=4)
        self.setFixedWidth(CARD_WIDTH)

    def show_at(self, point: QPoint) -> None:
        """Show the card at `point` (global), kept on its screen."""
        self.adjustSize()
        screen = QGuiApplication.screenAt(point) or QGuiApplication.primaryScreen()
        area = screen.availableGeometry()
        x = max(area.left(), min(point.x(), area.right() - self.width()))
        y = max(area.top(), min(point.y(), area.bottom() - self.height()))
        self.move(x, y)
        self.show()

    def _on_link_clicked(self, link: Link, _checked: bool = False) -> None:
        self.close()
        self.link_activated.emit(link)


SHOWN_FLAG = "blame-gutter"  # the UI-state flag: whether the gutter shows
BLAME_KEY = "blame"
ALIGN_KEY = "blame-align"
NO_LINE_BLAME = "Show the blame first (View → Blame, Ctrl+Alt+B), with a file open"
NOT_BLAMED_YET = "No blame for this line yet: it is being read, or the line is new"
REALIGN_DELAY_MS = 300  # how long typing pauses before the lines are matched again


class BlameEditor(MarginEditor, Protocol):
    """What the feature needs of an editor beyond a margin's: its saves and its buffer."""

    @property
    def saved(self) -> SignalInstance: ...
    def buffer_text(self) -> str: ...


class BlameFeature(QObject):
    """The blame gutter of one editor (see the module docstring)."""

    def __init__(
        self,
        context: WindowContext,
        editor: BlameEditor,
        *,
        open_trace: Callable[[Path], None],
        open_run: Callable[[str, int | None], None],
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._context = context
        self._editor = editor
        self._open_trace = open_trace
        self._open_run = open_run
        self._client: JobClient | None = None
        self._shut_down = False  # no worker is started after the window closed
        self._follow: BlameFollow[Blame] = BlameFollow()
        self.card: BlameCard | None = None
        self._gutters: list[BlameGutter] = []  # one per text widget it was shown on
        self._realign = qtimer(self, self._on_realign_timeout, REALIGN_DELAY_MS)
        self.action = context.actions.add(
            "blame.toggle",
            "&Blame: who wrote each line",
            self._on_action_toggled,
            keys=["Ctrl+Alt+B"],
            menu="view",
            checkable=True,
            checked_when=lambda: self.shown,
            tip="Beside each line: who wrote it, when and in which run; click for more",
        )
        context.actions.add(
            "blame.line",
            "Who wrote this &line",
            self.show_line_card,
            keys=["Ctrl+Alt+L"],
            menu="view",
            tip="The blame card of the line the cursor is on: who wrote it, when, in which "
            "run and why (Escape closes it)",
        )
        editor.file_opened.connect(self._on_editor_file_changed)
        editor.saved.connect(self._on_editor_file_changed)
        editor.file_closed.connect(self._on_editor_file_closed)
        context.shown.scan_applied.connect(self.refresh)
        state = context.ui_state
        if state is not None and state.flag(SHOWN_FLAG):
            self.set_shown(True)

    @property
    def shown(self) -> bool:
        return self._follow.shown

    @property
    def gutter(self) -> BlameGutter:
        """The gutter of the editor's text widget now (each editor tab has its own: made
        on first use, a child of its text widget)."""
        text = self._editor.text_edit
        found = BlameGutter.attached_to(text)
        if found is None:
            found = BlameGutter(text)
            found.card_requested.connect(self._on_gutter_card_requested)
            text.document().contentsChanged.connect(self._on_text_changed)
            found.set_shown(self.shown)
            found.destroyed.connect(functools.partial(self._forget_gutter, id(found)))
            self._gutters.append(found)
        return found

    @property
    def blame(self) -> Blame | None:
        """The last blame shown (of the open file), or None."""
        return self._follow.blame

    @property
    def busy(self) -> bool:
        """Whether a blame or realignment is running (tests wait for it to end)."""
        return self._client is not None and self._client.is_busy()

    def set_shown(self, shown: bool) -> None:
        """Show the gutter (blaming the open file) or hide it."""
        self._follow.shown = shown
        self.action.setChecked(shown)
        for gutter in [*self._gutters, self.gutter]:
            gutter.set_shown(shown)
        if shown:
            self.refresh()
        else:
            self._realign.stop()
            if self._client is not None:
                self._client.cancel_latest(BLAME_KEY)
                self._client.cancel_latest(ALIGN_KEY)

    @Slot()
    def refresh(self) -> None:
        """Blame the open file again (on the worker)."""
        file = self._editor.current_file
        step = self._follow.refresh(file.ref if file is not None else None, closing=self._shut_down)
        if step.status is not None:
            self.gutter.set_status(step.status)
        if not step.blame or file is None:
            return
        job = functools.partial(blame_text, file, self._editor.buffer_text())
        self._jobs().submit_latest(BLAME_KEY, job)

    def open_link(self, link: Link) -> None:
        """Follow one of a card's links."""
        if link.kind == "run":
            self._open_run(link.target, link.op_index)
            return
        if link.kind == "trace" and link.workspace_id:
            path = self._context.home.trace_dir(link.workspace_id) / link.target
            if path.is_file():
                self._open_trace(path)
            else:
                self._context.status.show(trace_gone(link.target))

    def save_ui_state(self) -> None:
        if self._context.ui_state is not None:
            self._context.ui_state.set_flag(SHOWN_FLAG, self.shown)

    def shutdown(self) -> None:
        """Stop the worker (on window close); nothing is checked after it."""
        self._shut_down = True
        if self._client is not None:
            self._client.shutdown()

    def _jobs(self) -> JobClient:
        if self._client is None:
            self._client = self._context.jobs.client("blame", Lane.JOBS, parent=self)
            self._client.latest_finished.connect(self._on_client_latest_finished)
            self._client.latest_failed.connect(self._on_client_latest_failed)
        return self._client

    @Slot(str, object)
    def _on_client_latest_finished(self, _key: str, result: object) -> None:
        if isinstance(result, str):
            self._on_client_latest_failed(_key, result)
            return
        if not isinstance(result, tuple):
            return
        ref, blame, lines = result
        current = self._editor.current_file
        if self._follow.answered(ref, blame, current.ref if current is not None else None):
            self.gutter.set_entries(lines)

    @Slot(str, str)
    def _on_client_latest_failed(self, _key: str, message: str) -> None:
        self.gutter.set_status(NO_BLAME)
        self._context.status.show(cannot_blame(message))

    def _on_action_toggled(self) -> None:
        shown = self.action.isChecked()
        self.set_shown(shown)
        text = self._editor.text_edit
        if shown and self._editor.current_file is not None and text.isVisible():
            # The blame is beside the text: the keyboard goes there (Escape: back).
            (text.findChild(KeyboardReturn) or KeyboardReturn(text)).take(text)

    def show_line_card(self) -> None:
        """The card of the line the cursor is on (the gutter's click, by keyboard)."""
        if not self.shown or self._editor.current_file is None:
            self._context.status.show(NO_LINE_BLAME)
            return
        text = self._editor.text_edit
        line = text.textCursor().blockNumber()
        if self.gutter.entry_at(line) is None:
            self._context.status.show(NOT_BLAMED_YET)
            return
        where = text.viewport().mapToGlobal(text.cursorRect().bottomLeft())
        self._on_gutter_card_requested(line, where)

    @Slot(object)
    def _on_editor_file_changed(self, _ref: object) -> None:
        self.gutter.set_shown(self.shown)  # another tab's text widget, maybe
        self.refresh()

    @Slot()
    def _on_editor_file_closed(self) -> None:
        self._follow.closed()
        self.gutter.set_entries([])

    @Slot()
    def _on_text_changed(self) -> None:
        if self._follow.realigns():
            self._realign.start()

    def _forget_gutter(self, gone: int, _object: object = None) -> None:
        """A gutter's tab closed: it is not kept (nor shown, nor hidden) any more."""
        self._gutters = [gutter for gutter in self._gutters if id(gutter) != gone]

    @Slot()
    def _on_realign_timeout(self) -> None:
        subject = self._follow.to_realign(closing=self._shut_down)
        if subject is None:
            return
        job = functools.partial(align, *subject, self._editor.buffer_text())
        self._jobs().submit_latest(ALIGN_KEY, job)

    @Slot(int, QPoint)
    def _on_gutter_card_requested(self, line: int, point: QPoint) -> None:
        entry = self.gutter.entry_at(line)
        if entry is None:
            return
        if self.card is not None:
            self.card.close()
            self.card.deleteLater()
        self.card = BlameCard(entry, self.gutter)
        self.card.link_activated.connect(self.open_link)
        self.card.show_at(point)
