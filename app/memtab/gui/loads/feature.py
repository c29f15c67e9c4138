"""View → What each agent loads: the dialog, filled off the GUI thread (`operations.loads`:
`memtab.loads` reads the disk — the agents' settings, their files, the workspace's scopes).

The loads are those of the workspace the Memory tab shows; Refresh asks again, and a
newer request supersedes one still running. Activating a row opens its file in the
Memory tab (a mux file by its virtual path, another agent's by its file id); a file no
source holds (an `@`-import from the project's docs) opens in the external editor. The
cut of the open `MEMORY.md` and its actions in the editor are `cut_actions`'.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, Slot

from memtab.components.tree.nodes import ref_key
from memtab.file_protocol.file_ref import SourceError, parse_file_ref
from memtab.gui.context import WindowContext, WindowShell
from memtab.gui.loads.cut_actions import CutEditor, IndexCutActions
from memtab.gui.loads.cut_line import CutLine
from memtab.gui.tasks.jobs import JobClient, Lane
from memtab.gui.toolkit.external_editor import ExternalOpener
from memtab.operations.loads import ContextLoader, agent_loads
from memtab.sources.config import SourceContext
from memtab.store.paths import PathError

if TYPE_CHECKING:  # lazy: the dialog loads when View → What each agent loads… first opens it
    from memtab.gui.loads.dialog import LoadsDialog

LOADS_KEY = "loads"
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
        self.cut = IndexCutActions(context, editor, self)
        self._opener = ExternalOpener(self)  # files no source holds: on disk, as they are
        self._opener.failed.connect(context.status.show)
        context.shown.workspace_changed.connect(self._on_shown_workspace_changed)
        self.action = context.actions.add(
            "loads.show",
            "What each agent &loads…",
            self.show,
            keys=["Ctrl+Shift+L"],
            menu="view",
            tip="What Claude Code, Codex and xum read at a session's start, and where each "
            "stops reading",
        )

    @property
    def busy(self) -> bool:
        return self._client is not None and self._client.is_busy()

    def show(self) -> None:
        """Show the dialog and read what each agent loads, for the shown workspace."""
        if self.dialog is None:
            # lazy: the dialog's module and its rows' rules, imported by no window that
            # never opens it
            from memtab.gui.loads.dialog import LoadsDialog

            self.dialog = LoadsDialog(self._shell.as_widget())
            self.dialog.refresh_requested.connect(self._on_dialog_refresh_requested)
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
            agent_loads, self._context.home, self._context.shown.workspace_id, self._load_context
        )
        self._jobs().submit_latest(LOADS_KEY, job)

    def _jobs(self) -> JobClient:
        if self._client is None:
            self._client = self._context.jobs.client("loads", Lane.JOBS, parent=self)
            self._client.latest_finished.connect(self._on_client_latest_finished)
            self._client.latest_failed.connect(self._on_client_latest_failed)
        return self._client

    def shutdown(self) -> None:
        self._opener.stop()
        if self._client is not None:
            self._client.shutdown()

    @Slot(str, object)
    def _on_client_latest_finished(self, _key: str, result: object) -> None:
        if self.dialog is not None:
            self.dialog.show_result(result)

    @Slot(str, str)
    def _on_client_latest_failed(self, _key: str, message: str) -> None:
        if self.dialog is not None:
            self.dialog.show_failure(message)

    @Slot()
    def _on_dialog_refresh_requested(self) -> None:
        self._request()

    @Slot(object)
    def _on_shown_workspace_changed(self, _workspace: object) -> None:
        if self.dialog is not None and self.dialog.isVisible():
            self._request()  # the dialog follows the workspace the Memory tab shows

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
