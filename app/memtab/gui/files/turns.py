"""Edit → Undo and Edit → Redo: take back the last file operation of the tree, or make
again the last one taken back (actions `files.undo`, `files.redo`).

The steps are `components.files.undo`'s, on the window's undo stack: applying one runs
on the file-operation worker (`WindowContext.file_ops`), records in history like any
change, and pushes the step that turns it around again. The tabs of files a step takes
away close first (asking about their drafts); the others follow what it writes. In a text
field with the focus (the editor's text, its description, a search box) Undo and Redo act
on its typing instead, as their keys do there.

Undo pressed while a file operation is still running (Delete, then Ctrl+Z at once, on a
busy machine or a big folder) — or an Inbox accept or reject (`FileOpTasks.decide`) — is
meant for that operation, whose step is not on the stack yet: it waits until the
operations asked for have ended, then takes back the newest.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Collection
from typing import Protocol

from PySide6.QtCore import QObject
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QWidget

from memtab.components.files import rules, undo
from memtab.components.files.steps import UndoStep
from memtab.file_protocol.file_ref import MemoryFileRef
from memtab.gui.actions import ActionRegistry, Focus
from memtab.gui.context import WindowContext
from memtab.gui.tasks.file_ops import OpFollowUp
from memtab.gui.toolkit.text.text_fields import field_can, focused_text_field

logger = logging.getLogger(__name__)


class TabsToClose(Protocol):
    """What undo and redo need of the editor (`editor.EditorPanel`): its open files."""

    @property
    def open_refs(self) -> list[MemoryFileRef]: ...

    def close_files_asking(
        self, refs: Collection[MemoryFileRef], then: Callable[[], object]
    ) -> None: ...


class UndoRedoActions(QObject):
    """Edit → Undo and Edit → Redo (see the module docstring)."""

    def __init__(
        self,
        context: WindowContext,
        actions: ActionRegistry,
        tree: QWidget,
        editor: TabsToClose,
    ) -> None:
        """Register the actions; their keys work while `tree` has the focus (in a text
        field the field's own keys do the same)."""
        super().__init__(tree)
        self._context = context
        self._editor = editor
        self.undo_stack = context.undo_stack
        self._waiting: bool | None = None
        """A turn asked for while file operations ran (True: a redo), made once they end."""
        self.undo_action = actions.add(
            "files.undo",
            "&Undo",
            self.undo_last,
            keys=["Ctrl+Z", QKeySequence.StandardKey.Undo],
            focus=Focus.WIDGET,
            on=tree,
            menu="edit",
            tip=rules.UNDO_UNAVAILABLE,
            enabled_when=lambda: self._can_turn(redo=False),
            text_when=lambda: self._turn_text(redo=False),
        )
        self.redo_action = actions.add(
            "files.redo",
            "&Redo",
            self.redo_last,
            keys=["Ctrl+Shift+Z", "Ctrl+Y", QKeySequence.StandardKey.Redo],
            focus=Focus.WIDGET,
            on=tree,
            menu="edit",
            tip=rules.REDO_UNAVAILABLE,
            enabled_when=lambda: self._can_turn(redo=True),
            text_when=lambda: self._turn_text(redo=True),
        )

    def undo_last(self) -> None:
        """Take the last file operation back (Edit → Undo; Ctrl+Z in the tree) — in a
        text field with the focus, its last edit."""
        self._turn(redo=False)

    def redo_last(self) -> None:
        """Make again the last file operation taken back (Edit → Redo; Ctrl+Shift+Z or
        Ctrl+Y in the tree) — in a text field with the focus, its last undone edit."""
        self._turn(redo=True)

    # --- what the menus ask ---------------------------------------------------------------

    def _can_turn(self, *, redo: bool) -> bool:
        field = focused_text_field()
        if field is not None:
            return field_can(field, redo=redo)
        stack = self.undo_stack
        step = stack.peek_redo() if redo else stack.peek()
        return step is not None or self._context.file_ops.busy

    def _turn_text(self, *, redo: bool) -> str:
        """ "Undo delete of notes.md", "Redo typing"… (the menus' text; the name stays)."""
        step = self.undo_stack.peek_redo() if redo else self.undo_stack.peek()
        text, tip = rules.turn_words(
            step.description if step is not None else None,
            redo=redo,
            typing=focused_text_field() is not None,
            busy=self._context.file_ops.busy,
        )
        action = self.redo_action if redo else self.undo_action
        action.setToolTip(tip)
        action.setStatusTip(tip)  # the menu's hover line: never "Nothing to undo" beside a step
        return text

    # --- turning a step -------------------------------------------------------------------

    def _turn(self, *, redo: bool) -> None:
        field = focused_text_field()
        if field is not None:
            if redo:
                field.redo()
            else:
                field.undo()
            return
        self._turn_files(redo=redo)

    def _turn_files(self, *, redo: bool) -> None:
        file_ops = self._context.file_ops
        if file_ops.busy:
            if self._waiting is None:
                file_ops.ended.connect(self._ops_ended)
            self._waiting = redo  # pressed again while waiting: still one turn, the last asked
            verb = "Redo" if redo else "Undo"
            self._context.status.show(f"{verb} once the file operation in progress has ended…")
            return
        stack = self.undo_stack
        step = stack.peek_redo() if redo else stack.peek()
        if step is None:
            self._context.status.show("Nothing to redo" if redo else "Nothing to undo")
            return
        # The tabs of files it takes away close (asking about their drafts first); the
        # others follow what it writes: moved back (`follow_moves`), or changed on disk.
        going = [ref for ref in self._editor.open_refs if step.relocated(ref) is None]
        self._editor.close_files_asking(going, functools.partial(self._apply, step, redo=redo))

    def _ops_ended(self, *_result: object) -> None:
        file_ops = self._context.file_ops
        if file_ops.busy or self._waiting is None:
            return
        redo, self._waiting = self._waiting, None
        file_ops.ended.disconnect(self._ops_ended)
        self._turn_files(redo=redo)  # a file's turn, wherever the focus went meanwhile

    def _apply(self, step: UndoStep, *, redo: bool) -> None:
        stack = self.undo_stack
        taken = stack.take_redo(step) if redo else stack.take(step)
        if not taken:  # a worker may have pushed a newer one meanwhile
            return
        for ref in step.written:
            self._context.own_writes.note(ref.key)
        turn = undo.redo_step if redo else undo.undo_step
        apply = functools.partial(turn, self._context.home, step, stack=stack)
        without_copy = functools.partial(apply, allow_unkept=True)
        self._context.file_ops.run(apply, OpFollowUp(open_created=True, without_copy=without_copy))
