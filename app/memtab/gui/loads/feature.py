"""View → What each agent loads: the dialog, filled on a worker (`memtab.loads` reads the
disk: the agents' settings, their files, the workspace's scopes).

The loads are those of the workspace the Memory tab shows; Refresh asks again, and a
newer request supersedes one still running. Activating a row opens its file in the
Memory tab (a mux file by its virtual path, another agent's by its file id).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Slot

from memtab.components.tree.nodes import ref_key
from memtab.gui.context import WindowContext, WindowShell
from memtab.gui.line_margin import MarginEditor
from memtab.gui.loads.cut_line import CutLine
from memtab.gui.tasks.runner import TaskContext, TaskRunner
from memtab.sources.claude_index import INDEX_NAME
from memtab.sources.config import SourceContext
from memtab.sources.file_ref import MemoryFileRef, SourceError, parse_file_ref
from memtab.store.home import Home
from memtab.store.paths import PathError

if TYPE_CHECKING:  # pydantic's records: imported once asked (test_settled_window)
    from memtab.gui.loads.dialog import LoadsDialog

LOADS_KEY = "loads"
ContextLoader = Callable[[Home], SourceContext]
SelectKey = Callable[[str], None]


def loads_job(
    home: Home, workspace_id: str | None, load_context: ContextLoader, _ctx: TaskContext
) -> object:
    # Lazy: the loads' records are pydantic, which a settled window never imports.
    from memtab.loads.engine import compute_loads

    return compute_loads(home, workspace_id=workspace_id, context=load_context(home))


def is_claude_index(ref: MemoryFileRef) -> bool:
    """Whether Claude Code reads this file only to its cut: an auto memory's (or a
    subagent's) `MEMORY.md`."""
    return ref.agent == "claude-code" and ref.name == INDEX_NAME


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
            from memtab.gui.loads.dialog import LoadsDialog  # its records are pydantic

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
        shown = file is not None and is_claude_index(file.ref)
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
                "them. Move them up, or into a topic file it links to."
            )
        self._baseline = past

    @Slot(str)
    def _on_dialog_file_requested(self, name: str) -> None:
        try:
            ref = parse_file_ref(name)
        except (PathError, SourceError):
            self._context.status.show(f"{name} is not among the files Memtab shows")
            return
        self._shell.show_memory_tab()
        self._select_key(ref_key(ref))
