"""View → What each agent loads: the dialog, filled on a worker (`memtab.loads` reads the
disk: the agents' settings, their files, the workspace's scopes).

The loads are those of the workspace the Memory tab shows; Refresh asks again, and a
newer request supersedes one still running. Activating a row opens its file in the
Memory tab (a mux file by its virtual path, another agent's by its file id).
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from PySide6.QtCore import QObject, Slot
from PySide6.QtGui import QTextCursor

from memtab.components.files.ops import OpResult
from memtab.components.files.topic import create_continued_topic
from memtab.components.tree.nodes import ref_key
from memtab.file_protocol.file_ref import SourceError, parse_file_ref
from memtab.gui.context import WindowContext, WindowShell
from memtab.gui.loads.cut_line import CutLine
from memtab.gui.loads.dialog import LoadsDialog
from memtab.gui.tasks.file_ops import OpFollowUp
from memtab.gui.tasks.runner import TaskContext, TaskRunner
from memtab.gui.text.line_margin import MarginEditor
from memtab.sources.claude.index import is_cut_index, move_past_cut
from memtab.sources.config import SourceContext
from memtab.store.home import Home
from memtab.store.paths import PathError
from memtab.store.scopes.memory import MemoryStore

LOADS_KEY = "loads"
ContextLoader = Callable[[Home], SourceContext]
SelectKey = Callable[[str], None]


def loads_job(
    home: Home, workspace_id: str | None, load_context: ContextLoader, _ctx: TaskContext
) -> object:
    # lazy: the loads' engine (~0.1 MiB, 7 modules) on the worker, when the dialog opens
    from memtab.loads.engine import compute_loads

    return compute_loads(home, workspace_id=workspace_id, context=load_context(home))


class LoadsFeature(QObject):
    """The action, its dialog and the worker that fills it (see the module doc)."""

    def __init__(
        self,
        context: WindowContext,
        shell: WindowShell,
        select_key: SelectKey,
        editor: MarginEditor,
        *,
        source_context: ContextLoader | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._context = context
        self._shell = shell
        self._select_key = select_key
        self._load_context: ContextLoader = source_context or SourceContext.load
        self._runner: TaskRunner | None = None
        self.dialog: LoadsDialog | None = None
        self._editor = editor
        self._baseline = 0  # lines past the cut when the file was opened
        self._moving: tuple[str, str] | None = None  # (the index's ref key, its text then)
        self.move_action = context.actions.add(
            "loads.move_past_cut",
            "Move lines past Claude Code's &cut into a topic file",
            self.move_past_cut,
            menu="edit",
            enabled_when=lambda: bool((line := self.cut_line()) and line.past_cut),
            tip="The lines of MEMORY.md Claude Code does not read go to MEMORY-continued.md "
            "beside it; a link to it takes the last line it reads",
        )
        self._following_ops = False
        context.shown.workspace_changed.connect(self._on_shown_workspace_changed)
        editor.file_opened.connect(self._on_editor_file_opened)
        editor.file_closed.connect(self._on_editor_file_closed)
        self.action = context.actions.add(
            "loads.show",
            "What each agent &loads…",
            self.show,
            menu="view",
            tip="What Claude Code, Codex and xum read at a session's start, and where each "
            "stops reading",
        )

    @property
    def busy(self) -> bool:
        return self._runner is not None and self._runner.is_busy()

    def show(self) -> None:
        """Show the dialog and read what each agent loads, for the shown workspace."""
        if self.dialog is None:
            self.dialog = LoadsDialog(self._shell.as_widget())
            self.dialog.refresh_requested.connect(self._on_dialog_refresh_requested)
            self.dialog.file_requested.connect(self._on_dialog_file_requested)
        self.dialog.show()
        self.dialog.raise_()
        self._request()

    def _request(self) -> None:
        assert self.dialog is not None
        self.dialog.show_busy()
        job = functools.partial(
            loads_job, self._context.home, self._context.shown.workspace_id, self._load_context
        )
        self._jobs().submit_latest(LOADS_KEY, job)

    def _jobs(self) -> TaskRunner:
        if self._runner is None:
            self._runner = TaskRunner("loads", parent=self)
            self._runner.latest_finished.connect(self._on_runner_latest_finished)
            self._runner.latest_failed.connect(self._on_runner_latest_failed)
        return self._runner

    def shutdown(self) -> None:
        if self._runner is not None:
            self._runner.shutdown()

    @Slot(str, object)
    def _on_runner_latest_finished(self, _key: str, result: object) -> None:
        if self.dialog is not None:
            self.dialog.show_result(result)

    @Slot(str, str)
    def _on_runner_latest_failed(self, _key: str, message: str) -> None:
        if self.dialog is not None:
            self.dialog.show_failure(message)

    @Slot()
    def _on_dialog_refresh_requested(self) -> None:
        self._request()

    @Slot(object)
    def _on_shown_workspace_changed(self, _workspace: object) -> None:
        if self.dialog is not None and self.dialog.isVisible():
            self._request()  # the dialog follows the workspace the Memory tab shows

    # -- the cut of Claude Code's MEMORY.md, in the editor ---------------------------------------

    def cut_line(self) -> CutLine | None:
        """The cut drawn over the open file's text, when it is Claude Code's MEMORY.md."""
        line = self._editor.text_edit.findChild(CutLine)
        return line if isinstance(line, CutLine) and line.shown else None

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
        shown = file is not None and is_cut_index(file.ref.agent, file.ref.name)
        if not shown:
            if isinstance(line, CutLine):
                line.follow(False)
            return
        if not isinstance(line, CutLine):
            line = CutLine(text_edit)
            line.cut_moved.connect(self._on_cut_line_cut_moved)
        self._baseline = -1  # the first count is the file's own
        line.follow(True)

    @Slot(int)
    def _on_cut_line_cut_moved(self, past: int) -> None:
        if self._baseline < 0:
            self._baseline = past
            return
        if past > self._baseline:
            self._context.status.show(
                f"{past} lines of MEMORY.md are now past Claude Code's cut: it does not read "
                "them. Move them up, or Edit → Move lines past Claude Code's cut into a topic file"
            )
        self._baseline = past

    def move_past_cut(self) -> None:
        """Move the lines Claude Code does not read into a new topic file (on the file
        operations' worker); once it is made, link to it from the index's last read line."""
        file = self._editor.current_file
        line = self.cut_line()
        scan = self._context.shown.scan
        listings = scan.sources.listings if scan is not None and scan.sources else ()
        source = next(
            (x.source for x in listings if file and x.source.id == file.ref.source_id), None
        )
        text = self._editor.text_edit.toPlainText()
        split = move_past_cut(text, "topic.md")
        if file is None or line is None or source is None or split is None:
            self._context.status.show("Nothing here is past Claude Code's cut")
            return
        self._moving = (file.ref.key, text)
        if not self._following_ops:  # the worker starts on first use
            self._following_ops = True
            self._context.file_ops.op_finished.connect(self._on_file_ops_op_finished)
        operation = functools.partial(
            create_continued_topic,
            self._context.undo_stack,
            MemoryStore.of(self._context.shown.view()),
            source,
            file.ref.path,
            split[1],
        )
        self._context.file_ops.run(operation, OpFollowUp())

    @Slot(object, object)
    def _on_file_ops_op_finished(self, result: object, _follow_up: object) -> None:
        moving, self._moving = self._moving, None
        if moving is None or not isinstance(result, OpResult) or result.created is None:
            return
        file = self._editor.current_file
        text_edit = self._editor.text_edit
        if result.error or file is None or file.ref.key != moving[0]:
            return
        if text_edit.toPlainText() != moving[1]:
            self._context.status.show(
                f"MEMORY.md changed meanwhile: its lines past the cut are also in "
                f"{result.created.name}; take them out of MEMORY.md yourself"
            )
            return
        split = move_past_cut(moving[1], result.created.name)
        if split is not None:
            cursor = QTextCursor(text_edit.document())  # one undoable edit
            cursor.select(QTextCursor.SelectionType.Document)
            cursor.insertText(split[0])

    @Slot(str)
    def _on_dialog_file_requested(self, name: str) -> None:
        try:
            ref = parse_file_ref(name)
        except (PathError, SourceError):
            self._context.status.show(f"{name} is not among the files Memtab shows")
            return
        self._shell.show_memory_tab()
        self._select_key(ref_key(ref))
