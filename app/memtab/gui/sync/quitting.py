"""Quitting with changes sync has not sent: the window syncs first, or asks.

A change waits up to `service.DEBOUNCE_MS` before it is sent, and a conflict resolved in
the window waits for the next sync: quitting then left it on this machine alone, with no
word. The window asks this before it closes (`WindowContext.before_closing`, after the
editor's unsaved changes): where sync is set up, it reads where sync stands (a look: no
network, after the sync that runs), closes at once when nothing waits, and otherwise asks

    1 change not sent yet — Sync now / Quit anyway / Cancel

without blocking (a window-modal box; a sync that sends it meanwhile closes the question,
and the window). Sync now syncs, then closes — or, when the sync
could not send it (offline, a failure), asks again saying why; closing the window again
while it syncs quits without waiting. What waits is never lost: it stays in the scopes,
and the next sync sends it.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Qt, Slot
from PySide6.QtWidgets import QMessageBox, QWidget

from memtab.components.sync.status import (
    QuitQuestion,
    QuitStep,
    SyncLook,
    UnsentChoice,
    unsent_question,
)
from memtab.gui.context import StatusNotices
from memtab.gui.sync.service import WindowSync
from memtab.gui.toolkit.dialog_layout import fit_to_title, give_mnemonics, small_dialog
from memtab.sync.repository.layout import SyncPaths

LOOKING_MS = 2000  # how long the status bar says it looks (a look takes a moment)


def ask_unsent(
    parent: QWidget, text: str, detail: str, answer: Callable[[UnsentChoice], None]
) -> QMessageBox:
    """Ask Sync now / Quit anyway / Cancel; `answer` is called once with the choice
    (closing the box is Cancel). Returns the open box."""
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Warning)
    box.setWindowTitle("Changes not sent")
    box.setWindowModality(Qt.WindowModality.WindowModal)
    small_dialog(box)
    box.setText(text)
    box.setInformativeText(detail)
    sync = box.addButton("&Sync now", QMessageBox.ButtonRole.AcceptRole)
    quit_anyway = box.addButton("&Quit anyway", QMessageBox.ButtonRole.DestructiveRole)
    cancel = box.addButton(QMessageBox.StandardButton.Cancel)
    give_mnemonics(box)
    box.setDefaultButton(sync)
    box.setEscapeButton(cancel)
    fit_to_title(box)

    def finished(_result: int) -> None:
        clicked = box.clickedButton()
        box.deleteLater()
        if clicked is sync:
            answer(UnsentChoice.SYNC)
        else:
            answer(UnsentChoice.QUIT if clicked is quit_anyway else UnsentChoice.CANCEL)

    box.finished.connect(finished)
    box.open()
    return box


class UnsentAtQuit(QObject):
    """The window's question about changes sync has not sent (see the module docstring):
    a `ClosingQuestion`."""

    def __init__(
        self, sync: WindowSync, status: StatusNotices, parent_widget: QWidget, parent: QObject
    ) -> None:
        super().__init__(parent)
        self._sync = sync
        self._status = status
        self._parent_widget = parent_widget
        self._question = QuitQuestion()
        self._box: QMessageBox | None = None  # the question, while it is open
        self.ask_box = ask_unsent
        """Opens the question (a seam for tests, which answer it)."""
        sync.changed.connect(self._on_sync_changed)
        sync.finished.connect(self._on_sync_finished)

    def needs_asking(self) -> bool:
        """Where sync is set up — or may be, closed before the first look said (its
        set-up's file is there: a stat, as the UI's decisions may make)."""
        if self._sync.looked:
            return self._sync.configured
        return SyncPaths(self._sync.home).config.exists()

    def ask(self, then: Callable[[], object]) -> None:
        """Look where sync stands (after the sync that runs); close, or ask."""
        self._do(self._question.ask(then))

    def _do(self, step: QuitStep) -> None:
        if step is QuitStep.LOOK:
            self._status.show("Looking for changes sync has not sent…", LOOKING_MS)
            self._sync.look_again()  # after the sync that runs, if one does
        elif step is QuitStep.SYNC:
            self._status.show("Syncing before Memtab quits…")
            self._sync.sync_now()
        elif step is QuitStep.CLOSE:
            self._close()

    @Slot(object)
    def _on_sync_changed(self, look: SyncLook) -> None:
        action = self._question.sync_changed(look, busy=self._sync.busy)
        if action.step is QuitStep.DISMISS_AND_CLOSE and self._box is not None:
            box, self._box = self._box, None
            box.finished.disconnect()
            box.close()
            box.deleteLater()
            self._close()
        elif action.step is QuitStep.ASK:
            self._box = self.ask_box(
                self._parent_widget, action.text, action.detail, self._on_answered
            )
        else:
            self._do(action.step)

    @Slot(object)
    def _on_sync_finished(self, look: SyncLook | None) -> None:
        self._do(self._question.sync_finished(look))

    def _on_answered(self, choice: UnsentChoice) -> None:
        self._box = None
        self._do(self._question.answered(choice))

    def _close(self) -> None:
        then = self._question.take_then()
        if then is not None:
            then()


__all__ = ["UnsentAtQuit", "UnsentChoice", "ask_unsent", "unsent_question"]
