"""File → Add a note to Codex memory…: the way Codex means its memory to be added to.

Codex rewrites its raw memories and rollout summaries from its own records (the editor says
so on each of them, read-only); its consolidation keeps a hand edit of MEMORY.md and
memory_summary.md, but a note in `memories/extensions/ad_hoc/notes/` is what it asks for:
its next consolidation folds it in and tags what it took `[ad-hoc note]`
(`sources.copy.add_codex_note`, docs/formats.md §17.3). The action asks for the text,
writes the note on the window's file-operation worker, then the tree shows and opens it.
Enabled while the shown scan found Codex's `memories/` folder.
"""

from __future__ import annotations

import functools

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QDialog, QLabel, QPlainTextEdit, QWidget

from memtab.components.files.ops import OpResult
from memtab.file_protocol.file_ref import SourceError
from memtab.gui.context import WindowContext
from memtab.gui.tasks.file_ops import OpFollowUp
from memtab.gui.toolkit.dialog_layout import lay_out_prose_dialog
from memtab.gui.toolkit.style import mute
from memtab.sources.copy import add_codex_note, codex_memories
from memtab.sources.layouts import CODEX_NOTES_DIR
from memtab.sources.model import Source
from memtab.store.home import Home

ACTION_ID = "files.codex_note"


def add_note(home: Home, source: Source, text: str) -> OpResult:
    """The operation (on the worker): write the note, or say why not."""
    try:
        file = add_codex_note(home, source, text)
    except (SourceError, OSError) as error:
        return OpResult.failed("Adding a note to Codex memory failed", error)
    return OpResult(
        f"Added a note to Codex memory: {file.relative}",
        created=file.ref,
        touched=(str(file.physical),),
    )


class CodexNoteDialog(QDialog):
    """Asks for the note's text."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Add a note to Codex memory — Memtab")
        about = QLabel(
            "Codex takes what you want it to remember from notes in "
            f"{CODEX_NOTES_DIR}/, at its next memory consolidation, and marks what it took "
            "[ad-hoc note].",
            self,
        )
        about.setWordWrap(True)
        mute(about)
        self.text_edit = QPlainTextEdit(self)
        self.text_edit.setAccessibleName("Note for Codex")
        self.text_edit.setPlaceholderText("What Codex should remember…")
        lay_out_prose_dialog(self, about, self.text_edit, "&Add note", height=220)

    @property
    def text(self) -> str:
        return self.text_edit.toPlainText()


class CodexNoteAction(QObject):
    """Registers and carries out File → Add a note to Codex memory…"""

    def __init__(self, context: WindowContext, parent: QWidget) -> None:
        super().__init__(parent)
        self._context = context
        self._parent = parent
        self.action = context.actions.add(
            ACTION_ID,
            "Add a note to Codex memory…",
            self.add_note,
            menu="file",
            tip=f"Write a note in Codex's {CODEX_NOTES_DIR}/: its next consolidation reads it",
            enabled_when=lambda: self.codex_source() is not None,
        )

    def codex_source(self) -> Source | None:
        """Codex's `memories/` folder, as the shown scan found it."""
        scan = self._context.shown.scan
        sources = scan.sources if scan is not None else None
        return codex_memories(sources.discovery) if sources is not None else None

    def add_note(self) -> None:
        """Ask for the text, then write the note off the GUI thread and open it."""
        source = self.codex_source()
        if source is None:
            self._context.status.show("Codex's memories folder was not found")
            return
        text = self.ask_text()
        if text is None or not text.strip():
            return
        operation = functools.partial(add_note, self._context.home, source, text)
        self._context.file_ops.run(operation, OpFollowUp(open_created=True))

    def ask_text(self) -> str | None:
        """The note's text, or None when the user cancels (a seam for tests)."""
        dialog = CodexNoteDialog(self._parent)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        return dialog.text
