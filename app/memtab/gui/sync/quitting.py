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

import enum
from collections.abc import Callable

from PySide6.QtCore import QObject, Qt, Slot
from PySide6.QtWidgets import QMessageBox, QWidget

from memtab.gui.context import StatusNotices
from memtab.gui.sync.service import WindowSync
from memtab.gui.sync.status import why_not_synced
from memtab.gui.toolkit.dialog_layout import fit_to_title, give_mnemonics, small_dialog
from memtab.humanize import plural
from memtab.operations.sync.look import SyncLook
from memtab.sync.repository.layout import SyncPaths

_NAMED = 3  # files named in the question; more are counted
LOOKING_MS = 2000  # how long the status bar says it looks (a look takes a moment)


class UnsentChoice(enum.Enum):
    SYNC = "sync"
    QUIT = "quit"
    CANCEL = "cancel"


def unsent_question(look: SyncLook, failure: str | None = None) -> tuple[str, str]:
    """The question and its detail for the changes `look` counts as not sent (`failure`:
    why the sync just tried could not send them)."""
    waiting = look.to_send
    one = len(waiting) == 1
    names = ", ".join(path.rsplit("/", 1)[-1] for path in waiting[:_NAMED])
    if len(waiting) > _NAMED:
        names += f" and {len(waiting) - _NAMED} more"
    them = "it" if one else "them"
    why = f"The sync could not send {them}: {failure}\n\n" if failure else ""
    return (
        f"{plural(len(waiting), 'change')} not sent yet",
        f"{why}{names} changed here, and no sync has sent {them} yet. Sync now sends "
        f"{them} before Memtab quits; quit anyway, and the next sync sends what waits.",
    )


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
        self._then: Callable[[], object] | None = None
        self._waiting: str | None = None  # "look" or "sync": what the answer waits for
        self._failure: str | None = None
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
        first = self._then is None
        self._then = then
        if self._waiting == "sync":  # closed again while it syncs: quit without waiting
            self._waiting = None
            self._close()
        elif first:
            self._failure = None
            self._look()

    def _look(self) -> None:
        self._waiting = "look"
        self._status.show("Looking for changes sync has not sent…", LOOKING_MS)
        self._sync.look_again()  # after the sync that runs, if one does

    @Slot(object)
    def _on_sync_changed(self, look: SyncLook) -> None:
        if self._sync.busy:
            return
        if self._box is not None and not look.to_send:  # a sync sent it meanwhile
            box, self._box = self._box, None
            box.finished.disconnect()
            box.close()
            box.deleteLater()
            self._close()
            return
        if self._waiting != "look":
            return
        self._waiting = None
        if not look.configured or not look.to_send:
            self._close()
            return
        text, detail = unsent_question(look, self._failure)
        self._box = self.ask_box(self._parent_widget, text, detail, self._on_answered)

    @Slot(object)
    def _on_sync_finished(self, look: SyncLook | None) -> None:
        if self._waiting != "sync":
            return
        if look is not None and look.to_send == () and look.error is None:
            self._waiting = None
            self._close()
            return
        self._failure = _why_not_sent(look)
        self._look()  # ask again, with why

    def _on_answered(self, choice: UnsentChoice) -> None:
        self._box = None
        if choice is UnsentChoice.QUIT:
            self._close()
        elif choice is UnsentChoice.SYNC:
            self._waiting = "sync"
            self._status.show("Syncing before Memtab quits…")
            self._sync.sync_now()
        else:
            self._then = None

    def _close(self) -> None:
        then, self._then = self._then, None
        if then is not None:
            then()


def _why_not_sent(look: SyncLook | None) -> str:
    if look is None:
        return "the sync was stopped"
    return why_not_synced(look) or "it is still waiting"
