"""What each agent loads and recalls for a prompt: the dialogs, filled off the GUI thread
(`components.loads.jobs`) for the shown workspace and asked again as the disk changes. *Ask the
model too* sends Claude Code's selection request to the configured model on the user's ask only."""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QEvent, QObject, QPointF, QRectF, Qt, Slot
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetricsF,
    QPainter,
    QPaintEvent,
    QPen,
    QTextBlock,
    QTextCursor,
)
from PySide6.QtWidgets import QPlainTextEdit, QWidget

from memtab.components.activity.change_batch import ChangeBatch
from memtab.components.editor.text_buffer import changed_span, utf16_offset
from memtab.components.files.undo import MovedPastCut, move_lines_past_cut
from memtab.components.loads.jobs import ContextLoader, agent_loads, agent_recall, model_recall
from memtab.components.loads.loads import (
    GO_TO_CUT,
    GO_TO_ONLY,
    MOVE_PAST_CUT,
    FilePlace,
    PendingMove,
    asks_again,
    cut_line,
    is_cut_file,
    move_refused,
)
from memtab.components.tree.nodes import ref_key
from memtab.file_protocol.file_ref import MemoryFileRef, SourceError, parse_file_ref
from memtab.gui.context import WindowContext, WindowShell
from memtab.gui.tasks.file_ops import OpFollowUp
from memtab.gui.tasks.jobs import JobClient, Lane
from memtab.gui.toolkit.clock import qtimer
from memtab.gui.toolkit.external_editor import ExternalOpener
from memtab.gui.toolkit.style import Accent
from memtab.gui.toolkit.text.line_margin import MarginEditor, go_to
from memtab.loads.kept import KeptHeads
from memtab.loads.recall.records import Recall
from memtab.sources.claude.index import IndexCut, index_cut
from memtab.sources.config import SourceContext
from memtab.store.paths import PathError, parse_file_path
from memtab.store.scopes.memory import MemoryStore

if TYPE_CHECKING:  # lazy: the dialogs load when View → What each agent loads… (recalls…)
    # first opens them
    from memtab.gui.loads.dialog import LoadsDialog
    from memtab.gui.loads.recall_dialog import RecallDialog


LABEL = "Claude Code does not read below this line"
LABEL_MARGIN = 8  # between the label and the viewport's edge, and between it and any text
LABEL_SCALE = 0.85
RECUT_DELAY_MS = 150  # typing settles this long before the cut is found again


class CutLine(QWidget):
    """The cut over `text_edit`'s viewport (see the module doc); mouse events pass through."""

    def __init__(self, text_edit: QPlainTextEdit) -> None:
        # Over the viewport, not in it: a viewport scrolls its children with the text.
        super().__init__(text_edit)
        self.setObjectName("claudeCutLine")
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.text_edit = text_edit
        self.cut: IndexCut | None = None
        self.past_cut = 0
        self.shown = False
        self._recut = qtimer(self, self.recut, RECUT_DELAY_MS)
        text_edit.document().contentsChanged.connect(self._on_document_contents_changed)
        text_edit.updateRequest.connect(self._on_text_update_request)
        text_edit.viewport().installEventFilter(self)
        self.setGeometry(text_edit.viewport().geometry())
        self.hide()

    def follow(self, shown: bool) -> None:
        """Draw the cut of this text (or stop)."""
        self.shown = shown
        self.setVisible(shown)
        if shown:
            self.setGeometry(self.text_edit.viewport().geometry())
            self.raise_()
            self.recut()

    @Slot()
    def recut(self) -> None:
        if not self.shown:
            return
        self.cut = index_cut(self.text_edit.toPlainText())
        at = self.cut.cut_at_line
        self.past_cut = 0 if at is None else self.cut.lines - at + 1
        self.update()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in (QEvent.Type.Resize, QEvent.Type.Move):
            self.setGeometry(self.text_edit.viewport().geometry())
        return False

    @Slot()
    def _on_document_contents_changed(self) -> None:
        if self.shown:
            self._recut.start()

    @Slot()
    def _on_text_update_request(self, *_args: object) -> None:
        if self.shown:
            self.update()

    def _cut_top(self) -> float | None:
        """Where the cut is drawn: the top of the first line Claude Code does not read, in
        the viewport's coordinates (None: no cut, or not in view)."""
        cut = self.cut
        if cut is None or cut.cut_at_line is None:
            return None
        block = self.text_edit.document().findBlockByNumber(cut.cut_at_line - 1)
        if not block.isValid():
            return None
        top = (
            self.text_edit.blockBoundingGeometry(block)
            .translated(self.text_edit.contentOffset())
            .top()
        )
        return top if top <= self.height() else None

    def label_rect(self) -> QRectF | None:
        """Where the label is drawn, or None: right-aligned beside the line above the cut,
        else the line below — never over text (without room, only the line is drawn)."""
        top = self._cut_top()
        if top is None or self.cut is None or self.cut.cut_at_line is None:
            return None
        metrics = QFontMetricsF(self._label_font())
        width = metrics.horizontalAdvance(LABEL)
        height = metrics.height()
        left = self.width() - LABEL_MARGIN - width
        if left < LABEL_MARGIN:
            return None
        document = self.text_edit.document()
        around = [document.findBlockByNumber(self.cut.cut_at_line + step) for step in (-2, -1, 0)]
        for rect in (
            QRectF(left, top - height - 2, width, height),  # beside the last line read
            QRectF(left, top + 2, width, height),  # beside the first line not read
        ):
            if rect.top() >= 0 and not any(
                block.isValid() and self._text_covers(block, rect) for block in around
            ):
                return rect
        return None

    def _label_font(self) -> QFont:
        """The label's: the text's, a little smaller (it fits in a line's height)."""
        font = QFont(self.font())
        font.setPointSizeF(font.pointSizeF() * LABEL_SCALE)
        return font

    def _text_covers(self, block: QTextBlock, rect: QRectF) -> bool:
        """Whether any row of `block`'s text reaches into `rect` (a gap of the label's
        margin kept)."""
        geometry = self.text_edit.blockBoundingGeometry(block).translated(
            self.text_edit.contentOffset()
        )
        layout = block.layout()
        for index in range(layout.lineCount()):
            row = layout.lineAt(index)
            row_rect = QRectF(
                geometry.left() + row.x(),
                geometry.top() + row.y(),
                row.naturalTextWidth() + LABEL_MARGIN,
                row.height(),
            )
            if row.naturalTextWidth() > 0 and row_rect.intersects(rect):
                return True
        return False

    def paintEvent(self, event: QPaintEvent) -> None:
        top = self._cut_top()
        if top is None:
            return
        color = QColor(Accent.WARNING.value)
        painter = QPainter(self)
        tint = QColor(color)
        tint.setAlpha(28)
        painter.fillRect(0, max(0, round(top)), self.width(), self.height(), tint)
        pen = QPen(color)
        pen.setStyle(Qt.PenStyle.DashLine)
        pen.setWidth(2)
        painter.setPen(pen)
        painter.drawLine(QPointF(0, top), QPointF(self.width(), top))
        label = self.label_rect()
        if label is not None:
            painter.setFont(self._label_font())
            painter.drawText(
                label, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, LABEL
            )


SHOW_EDITOR = "memory.show_editor"  # the Memory tab's action: the editor shown and focused


class CutEditor(MarginEditor, Protocol):
    """What the cut's actions need of the editor (`EditorPanel`)."""

    @property
    def expected_on_disk(self) -> str | None: ...
    def buffer_text(self) -> str: ...
    def when_loaded(self, ref: MemoryFileRef, then: Callable[[], None]) -> None: ...
    def follow_changes(self, changed: Collection[MemoryFileRef]) -> None: ...


class IndexCutActions(QObject):
    """The cut over the open `MEMORY.md` and its two actions (see the module doc)."""

    def __init__(self, context: WindowContext, editor: CutEditor, parent: QObject) -> None:
        super().__init__(parent)
        self._context = context
        self._editor = editor
        self._moving = PendingMove()
        self._following_ops = False
        self.go_to_action = context.actions.add(
            GO_TO_CUT,
            "Go to Claude Code's c&ut",
            self.go_to_cut,
            enabled_when=lambda: bool((line := self.cut_line()) and line.past_cut),
            tip="Put the cursor on the first line of MEMORY.md Claude Code does not read",
        )
        self.move_action = context.actions.add(
            MOVE_PAST_CUT,
            "Move lines past Claude Code's &cut into a topic file",
            self.move_past_cut,
            enabled_when=lambda: bool((line := self.cut_line()) and line.past_cut),
            tip="The lines of MEMORY.md Claude Code does not read go to MEMORY-continued.md "
            "beside it; a link to it takes the last line it reads",
        )
        editor.file_opened.connect(self._follow_editor)
        editor.file_closed.connect(self._follow_editor)

    def cut_line(self) -> CutLine | None:
        """The cut drawn over the open file's text, when it is Claude Code's MEMORY.md."""
        line = self._editor.text_edit.findChild(CutLine)
        return line if isinstance(line, CutLine) and line.shown else None

    def go_to_cut(self) -> None:
        """The cursor on the first line of the open MEMORY.md Claude Code does not read,
        the keyboard in the text (once it is shown)."""
        file = self._editor.current_file
        if file is None or not is_cut_file(file.ref):
            self._context.status.show(GO_TO_ONLY)
            return
        self._editor.when_loaded(file.ref, self._go_to_cut_now)

    def _go_to_cut_now(self) -> None:
        line = cut_line(self._editor.buffer_text())
        if isinstance(line, str):
            self._context.status.show(line)
            return
        if SHOW_EDITOR in self._context.actions:  # one pane at a time: the editor's
            self._context.actions.action(SHOW_EDITOR).trigger()
        go_to(self._editor.text_edit, line)

    def move_past_cut(self) -> None:
        """Move the lines of the open MEMORY.md Claude Code does not read into a new topic
        file, and link to it from the index (on the file operations' worker)."""
        file = self._editor.current_file
        scan = self._context.shown.scan
        listings = scan.sources.listings if scan is not None and scan.sources else ()
        source = next(
            (x.source for x in listings if file and x.source.id == file.ref.source_id), None
        )
        text = self._editor.buffer_text()
        ref = file.ref if file is not None else None
        refused = move_refused(ref, has_source=source is not None, text=text)
        if refused is not None:
            self._context.status.show(refused)
            return
        assert file is not None and source is not None  # move_refused says why not
        self._moving.started(file.ref.key, text)
        if not self._following_ops:  # the worker starts on first use
            self._following_ops = True
            self._context.file_ops.op_finished.connect(self._on_file_ops_op_finished)
        self._context.own_writes.note(file.ref.key)
        operation = functools.partial(
            move_lines_past_cut,
            self._context.undo_stack,
            MemoryStore.of(self._context.shown.view()),
            source,
            file,
            text,
            self._editor.expected_on_disk,
        )
        self._context.file_ops.run(operation, OpFollowUp())

    @Slot(object, object)
    def _on_file_ops_op_finished(self, result: object, _follow_up: object) -> None:
        if not isinstance(result, MovedPastCut):
            return
        file = self._editor.current_file
        landed = self._moving.landed(
            file.ref.key if file is not None else None, self._editor.buffer_text()
        )
        if landed.take_text:
            self._take_text(result.index_text)
        if landed.follow and file is not None:
            self._editor.follow_changes([file.ref])

    def _take_text(self, new_text: str) -> None:
        """The buffer holds `new_text`: one undoable edit of the part that changed."""
        text_edit = self._editor.text_edit
        old_text = self._editor.buffer_text()
        start, old_end, new_end = changed_span(old_text, new_text)
        cursor = QTextCursor(text_edit.document())
        cursor.setPosition(utf16_offset(old_text, start))
        cursor.setPosition(utf16_offset(old_text, old_end), QTextCursor.MoveMode.KeepAnchor)
        cursor.insertText(new_text[start:new_end])

    @Slot()
    def _follow_editor(self) -> None:
        text_edit = self._editor.text_edit
        line = text_edit.findChild(CutLine)
        file = self._editor.current_file
        if not is_cut_file(file.ref if file is not None else None):
            if isinstance(line, CutLine):
                line.follow(False)
            return
        if not isinstance(line, CutLine):
            line = CutLine(text_edit)
        line.follow(True)


LOADS_KEY = "loads"
RECALL_KEY = "recall"
MODEL_KEY = "recall-model"
RECALL_KEYS = ["Ctrl+Shift+Y"]
AGAIN_AFTER_MS = 600  # how long the disk stays quiet before a recall shown is asked again
SelectKey = Callable[[str], None]


class LoadsFeature(QObject):
    """The action, its dialog and the worker that fills it (see the module doc)."""

    def __init__(
        self,
        context: WindowContext,
        shell: WindowShell,
        select_key: SelectKey,
        editor: CutEditor,
        *,
        source_context: ContextLoader | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._context = context
        self._shell = shell
        self._select_key = select_key
        self._load_context: ContextLoader = source_context or SourceContext.load
        self._client: JobClient | None = None
        self.dialog: LoadsDialog | None = None
        self.recall_dialog: RecallDialog | None = None
        self._kept: KeptHeads | None = None
        self._asked: str | None = None  # the prompt the recall shows, or is asked for
        self._ask_model = False  # the next recall's words go to the model too (the user's ask)
        self._picked: Recall | None = None  # the last recall the model answered
        self._again = qtimer(self, self._on_again_timeout, AGAIN_AFTER_MS)
        self.cut = IndexCutActions(context, editor, self)
        self._opener = ExternalOpener(self)  # files no source holds: on disk, as they are
        self._opener.failed.connect(context.status.show)
        context.shown.workspace_changed.connect(self._on_shown_workspace_changed)
        context.changes.published.connect(self._on_changes_published)
        self.action = context.actions.add(
            "loads.show",
            "What each agent &loads…",
            self.show,
            keys=["Ctrl+Shift+L"],
            menu="view",
            tip="What Claude Code, Codex and xum read at a session's start, and where each "
            "stops reading",
        )
        self.recall_action = context.actions.add(
            "loads.recall",
            "What each agent &recalls for a prompt…",
            self.show_recall,
            keys=RECALL_KEYS,
            tip="For a prompt you would type: what each agent would recall of its memory, "
            "what it would miss and why, and what no agent can recall",
        )

    @property
    def busy(self) -> bool:
        return self._client is not None and self._client.is_busy()

    def show_recall(self) -> None:
        """Show the recall's dialog with the keyboard in its prompt (asking again for the
        prompt it shows: a file may have changed since)."""
        if self.recall_dialog is None:
            # lazy: the dialog's module and its rows' rules, imported by no window that
            # never opens it
            from memtab.gui.loads.recall_dialog import RecallDialog

            self.recall_dialog = RecallDialog(self._shell.as_widget())
            self.recall_dialog.recall_requested.connect(self._on_recall_dialog_recall_requested)
            self.recall_dialog.place_requested.connect(self._on_recall_dialog_place_requested)
            self.recall_dialog.model_wanted.connect(self._on_recall_dialog_model_wanted)
        self.recall_dialog.show()
        self.recall_dialog.raise_()
        self.recall_dialog.take_keyboard()
        if self._asked is not None:
            self._ask(self._asked)

    def _ask(self, prompt: str, *, model: bool = False) -> None:
        """Recall for `prompt`; `model`: an ask of the user's, which asks the model too
        when the box says so."""
        assert self.recall_dialog is not None
        wanted = model and self.recall_dialog.ask_model.isChecked()
        # an ask after a file changed keeps the user's ask of the same prompt it supersedes
        self._ask_model = wanted or (not model and prompt == self._asked and self._ask_model)
        self._asked = prompt
        self.recall_dialog.show_busy(prompt)
        job = functools.partial(
            agent_recall,
            self._context.home,
            self._context.shown.workspace_id,
            self._load_context,
            self._kept_heads(),
            prompt,
        )
        self._jobs().submit_latest(RECALL_KEY, job)

    def _kept_heads(self) -> KeptHeads:
        """What the dialogs' asks read, kept for the next (one lane's: never two at once)."""
        if self._kept is None:
            self._kept = KeptHeads()
        return self._kept

    def show(self) -> None:
        """Show the dialog and read what each agent loads, for the shown workspace."""
        if self.dialog is None:
            # lazy: the dialog's module and its rows' rules, imported by no window that
            # never opens it
            from memtab.gui.loads.dialog import LoadsDialog

            self.dialog = LoadsDialog(self._shell.as_widget())
            self.dialog.refresh_requested.connect(self._request)
            self.dialog.file_requested.connect(self._on_dialog_file_requested)
            self.dialog.outside_requested.connect(self._on_dialog_outside_requested)
        self.dialog.show()
        self.dialog.raise_()
        self.dialog.activateWindow()
        self.dialog.tree.setFocus(Qt.FocusReason.ShortcutFocusReason)  # Escape: back
        self._request()

    def _request(self) -> None:
        assert self.dialog is not None
        self.dialog.show_busy()
        job = functools.partial(
            agent_loads,
            self._context.home,
            self._context.shown.workspace_id,
            self._load_context,
            self._kept_heads(),
        )
        self._jobs().submit_latest(LOADS_KEY, job)

    def _jobs(self) -> JobClient:
        if self._client is None:
            self._client = self._context.jobs.client("loads", Lane.JOBS, parent=self)
            self._client.latest_finished.connect(self._on_client_latest_finished)
            self._client.latest_failed.connect(self._on_client_latest_failed)
        return self._client

    def shutdown(self) -> None:
        self._again.stop()
        self._opener.stop()
        if self._client is not None:
            self._client.shutdown()

    def _words_found(self, result: object) -> None:
        """The words' recall came: show it, with the model's pick of the same request kept,
        and ask the model when the user's ask wants it."""
        assert self.recall_dialog is not None
        if not isinstance(result, Recall):
            self.recall_dialog.show_result(result)
            return
        if self._ask_model:
            self._ask_model = False
            self.recall_dialog.show_result(result)
            self.recall_dialog.show_asking_model()
            self._jobs().submit_latest(MODEL_KEY, functools.partial(model_recall, result))
            return
        self.recall_dialog.show_result(_with_pick(result, self._picked))

    def _model_found(self, result: object) -> None:
        """The model's pick came: show it, when it answers the prompt asked."""
        assert self.recall_dialog is not None
        if isinstance(result, Recall):
            self._picked = result
            if result.prompt == self._asked:
                self.recall_dialog.show_result(result)

    @Slot(str, object)
    def _on_client_latest_finished(self, key: str, result: object) -> None:
        if key == RECALL_KEY and self.recall_dialog is not None:
            self._words_found(result)
        elif key == MODEL_KEY and self.recall_dialog is not None:
            self._model_found(result)
        elif key == LOADS_KEY and self.dialog is not None:
            self.dialog.show_result(result)

    @Slot(str, str)
    def _on_client_latest_failed(self, key: str, message: str) -> None:
        if key in (RECALL_KEY, MODEL_KEY) and self.recall_dialog is not None:
            self.recall_dialog.show_failure(message)
        elif key == LOADS_KEY and self.dialog is not None:
            self.dialog.show_failure(message)

    @Slot(object)
    def _on_shown_workspace_changed(self, _workspace: object) -> None:
        if self._loads_shown():
            self._request()  # the dialog follows the workspace the Memory tab shows
        if self._recall_shown():
            self._again.start()

    @Slot(object)
    def _on_changes_published(self, batch: ChangeBatch) -> None:
        # Once the disk is quiet: a description may be fixed, a memory folder came or went.
        if (self._loads_shown() or self._recall_shown()) and asks_again(batch):
            self._again.start()

    @Slot()
    def _on_again_timeout(self) -> None:
        if self._loads_shown():
            self._request()
        if self._recall_shown() and self._asked is not None:
            self._ask(self._asked)

    def _loads_shown(self) -> bool:
        return self.dialog is not None and self.dialog.isVisible()

    def _recall_shown(self) -> bool:
        return self.recall_dialog is not None and self.recall_dialog.isVisible()

    @Slot(str)
    def _on_recall_dialog_recall_requested(self, prompt: str) -> None:
        self._ask(prompt, model=True)

    @Slot(bool)
    def _on_recall_dialog_model_wanted(self, checked: bool) -> None:
        if checked and self._asked is not None:
            self._ask(self._asked, model=True)  # the recall shown, to the model too

    @Slot(object)
    def _on_recall_dialog_place_requested(self, place: FilePlace) -> None:
        """Open a recall's row's file in the window, the dialog put away (its key brings
        it back at the same row)."""
        if self.recall_dialog is not None:
            self.recall_dialog.hide()
        if place.outside:
            self._opener.open(Path(place.key))
            return
        if place.virtual:
            try:
                path = parse_file_path(place.key)
            except PathError:
                self._context.status.show(f"{place.key} is not among the files Memtab shows")
                return
            self._shell.show_memory_tab()
            self._shell.reveal_file(self._context.shown.workspace_id, path, place.lines)
        else:
            self._on_dialog_file_requested(place.key)
        window = self._shell.as_widget()
        window.raise_()
        window.activateWindow()

    def cut_line(self) -> CutLine | None:
        """The cut drawn over the open file's text, when it is Claude Code's MEMORY.md."""
        return self.cut.cut_line()

    @Slot(str)
    def _on_dialog_outside_requested(self, path: str) -> None:
        self._opener.open(Path(path))

    @Slot(str)
    def _on_dialog_file_requested(self, name: str) -> None:
        try:
            ref = parse_file_ref(name)
        except (PathError, SourceError):
            self._context.status.show(f"{name} is not among the files Memtab shows")
            return
        self._shell.show_memory_tab()
        self._select_key(ref_key(ref))


def _with_pick(words: Recall, picked: Recall | None) -> Recall:
    """`words` with the model's pick of `picked` on each agent whose request is the same: a
    pick answering another request is not shown, and a changed file asks no model again."""
    if picked is None or picked.prompt != words.prompt:
        return words
    asked = {agent.agent: agent for agent in picked.agents}
    agents = []
    for agent in words.agents:
        earlier = asked.get(agent.agent)
        same = earlier is not None and earlier.model_pick is not None and earlier.sent == agent.sent
        agents.append(agent.replaced(model_pick=earlier.model_pick) if same and earlier else agent)
    return words.replaced(agents=tuple(agents))
