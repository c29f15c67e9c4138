"""What each agent loads and recalls for a prompt: the dialogs, filled off the GUI thread
(`operations.loads`) for the shown workspace and asked again as the disk changes. *Ask the
model too* sends Claude Code's selection request to the configured model on the user's ask only."""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, QTimer, Slot

from memtab.components.activity.change_batch import ChangeBatch
from memtab.components.loads import FilePlace, asks_again
from memtab.components.tree.nodes import ref_key
from memtab.file_protocol.file_ref import SourceError, parse_file_ref
from memtab.gui.context import WindowContext, WindowShell
from memtab.gui.loads.cut_actions import CutEditor, IndexCutActions
from memtab.gui.loads.cut_line import CutLine
from memtab.gui.tasks.jobs import JobClient, Lane
from memtab.gui.toolkit.external_editor import ExternalOpener
from memtab.loads.kept import KeptHeads
from memtab.loads.recall.records import Recall
from memtab.operations.loads import ContextLoader, agent_loads, agent_recall, model_recall
from memtab.sources.config import SourceContext
from memtab.store.paths import PathError, parse_file_path

if TYPE_CHECKING:  # lazy: the dialogs load when View → What each agent loads… (recalls…)
    # first opens them
    from memtab.gui.loads.dialog import LoadsDialog
    from memtab.gui.loads.recall_dialog import RecallDialog

LOADS_KEY = "loads"
RECALL_KEY = "recall"
MODEL_KEY = "recall-model"
RECALL_KEYS = ["Ctrl+Shift+Y"]
AGAIN_AFTER_MS = 600
"""How long the disk stays quiet before a recall shown is asked again."""
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
        self._again = QTimer(self)
        self._again.setSingleShot(True)
        self._again.setInterval(AGAIN_AFTER_MS)
        self._again.timeout.connect(self._on_again_timeout)
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

    @Slot()
    def _on_dialog_refresh_requested(self) -> None:
        self._request()

    @Slot(object)
    def _on_shown_workspace_changed(self, _workspace: object) -> None:
        if self.dialog is not None and self.dialog.isVisible():
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
