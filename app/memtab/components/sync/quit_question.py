"""Quitting with changes sync has not sent, without Qt: what the window does at each turn."""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass

from memtab.components.sync.look import SyncLook
from memtab.components.sync.status_line import why_not_synced
from memtab.humanize import plural

_NAMED = 3  # files named in the question; more are counted


class UnsentChoice(enum.Enum):
    SYNC = "sync"
    QUIT = "quit"
    CANCEL = "cancel"


class QuitStep(enum.Enum):
    """What the window does next."""

    NOTHING = "nothing"
    LOOK = "look"  # look where sync stands, saying so in the status bar
    ASK = "ask"  # open the question (its text and detail)
    CLOSE = "close"  # close the window
    DISMISS_AND_CLOSE = "dismiss and close"  # close the open question, then the window
    SYNC = "sync"  # sync now, saying so in the status bar


@dataclass(frozen=True)
class QuitAction:
    step: QuitStep
    text: str = ""
    detail: str = ""


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


def why_not_sent(look: SyncLook | None) -> str:
    """Why the sync Sync now ran did not send what waits."""
    if look is None:
        return "the sync was stopped"
    return why_not_synced(look) or "it is still waiting"


class QuitQuestion:
    """The question's state: what closing waits for (a look or a sync), why the last sync
    did not send, whether the question is open, and what closes the window at the end."""

    def __init__(self) -> None:
        self._then: Callable[[], object] | None = None
        self._waiting: QuitStep | None = None  # LOOK or SYNC: what the answer waits for
        self._failure: str | None = None
        self.asking = False
        """Whether the question is open."""

    def ask(self, then: Callable[[], object]) -> QuitStep:
        """The window closes; `then` closes it once nothing waits."""
        first = self._then is None
        self._then = then
        if self._waiting is QuitStep.SYNC:  # closed again while it syncs: quit at once
            self._waiting = None
            return QuitStep.CLOSE
        if first:
            self._failure = None
            self._waiting = QuitStep.LOOK
            return QuitStep.LOOK
        return QuitStep.NOTHING

    def sync_changed(self, look: SyncLook, *, busy: bool) -> QuitAction:
        """Sync says where it stands (`busy`: a sync runs, its look is not the last)."""
        if busy:
            return QuitAction(QuitStep.NOTHING)
        if self.asking and not look.to_send:  # a sync sent it meanwhile
            self.asking = False
            return QuitAction(QuitStep.DISMISS_AND_CLOSE)
        if self._waiting is not QuitStep.LOOK:
            return QuitAction(QuitStep.NOTHING)
        self._waiting = None
        if not look.configured or not look.to_send:
            return QuitAction(QuitStep.CLOSE)
        self.asking = True
        text, detail = unsent_question(look, self._failure)
        return QuitAction(QuitStep.ASK, text, detail)

    def sync_finished(self, look: SyncLook | None) -> QuitStep:
        """A sync ended (`look`: where it left things; None: it was stopped)."""
        if self._waiting is not QuitStep.SYNC:
            return QuitStep.NOTHING
        if look is not None and look.to_send == () and look.error is None:
            self._waiting = None
            return QuitStep.CLOSE
        self._failure = why_not_sent(look)
        self._waiting = QuitStep.LOOK
        return QuitStep.LOOK  # ask again, with why

    def answered(self, choice: UnsentChoice) -> QuitStep:
        """The question's answer."""
        self.asking = False
        if choice is UnsentChoice.QUIT:
            return QuitStep.CLOSE
        if choice is UnsentChoice.SYNC:
            self._waiting = QuitStep.SYNC
            return QuitStep.SYNC
        self._then = None
        return QuitStep.NOTHING

    def take_then(self) -> Callable[[], object] | None:
        """What closes the window (once)."""
        then, self._then = self._then, None
        return then
