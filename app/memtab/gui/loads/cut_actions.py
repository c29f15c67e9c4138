"""Claude Code's cut of the open `MEMORY.md` in the editor (docs/formats.md §17.6): the cut
drawn over its text (`CutLine`), Go to Claude Code's cut, and Move lines past Claude Code's
cut into a topic file (the command palette's; a file operation: one Undo step, in history).
The editor's bars and the tree's row offer them by id (`components.loads`)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection
from typing import Protocol

from PySide6.QtCore import QObject, Slot
from PySide6.QtGui import QTextCursor

from memtab.components.editor.text_buffer import changed_span, utf16_offset
from memtab.components.files.undo import MovedPastCut, move_lines_past_cut
from memtab.components.loads import (
    GO_TO_CUT,
    GO_TO_ONLY,
    MOVE_PAST_CUT,
    PendingMove,
    cut_line,
    is_cut_file,
    move_refused,
)
from memtab.file_protocol.file_ref import MemoryFileRef
from memtab.gui.context import WindowContext
from memtab.gui.loads.cut_line import CutLine
from memtab.gui.tasks.file_ops import OpFollowUp
from memtab.gui.toolkit.text.line_margin import MarginEditor
from memtab.gui.toolkit.text.line_numbers import go_to
from memtab.store.scopes.memory import MemoryStore

SHOW_EDITOR = "memory.show_editor"
"""The Memory tab's action that shows the editor (one pane at a time) and focuses it."""


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
        editor.file_opened.connect(self._on_editor_file_opened)
        editor.file_closed.connect(self._on_editor_file_closed)

    def cut_line(self) -> CutLine | None:
        """The cut drawn over the open file's text, when it is Claude Code's MEMORY.md."""
        line = self._editor.text_edit.findChild(CutLine)
        return line if isinstance(line, CutLine) and line.shown else None

    # -- Go to the cut ------------------------------------------------------------------------

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

    # -- Move the lines past the cut ----------------------------------------------------------

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

    # -- the cut over the text ----------------------------------------------------------------

    @Slot(object)
    def _on_editor_file_opened(self, _ref: object) -> None:
        self._follow_editor()

    @Slot()
    def _on_editor_file_closed(self) -> None:
        self._follow_editor()

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
