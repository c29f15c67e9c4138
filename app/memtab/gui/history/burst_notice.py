"""The burst notice: "Claude Code removed 23 files at 15:27 — Review…" over the tree.

The bar is the Memory tab's news bar (a `MessageBar` the window composes), shown by
`BurstNotices` as `components.history.burst_news` says: the newest burst not seen yet,
once; a mass change (the guard's, `memtab.watch.guard`) with Restore all beside Review…,
which asks the window to put the whole event back as one undoable step
(`restore_all_requested`) and then says what it did (`restored`) — "Edit → Undo takes it
back" only while it does: once that step is taken back (Edit → Undo, whichever way), the
line goes (checked as each file operation ends). The bursts it is told
come from the history hub's worker (`deleted.news_read`), whenever history changes and
when the window opens; which were shown is kept in the UI
state (saved at once, on the window's file channel). Review… asks for Recently deleted at
that burst (`review_requested`); dismissing it shows nothing until the next burst, and
it goes by itself once what it named was put back.
"""

from __future__ import annotations

import logging
from typing import Protocol

from PySide6.QtCore import QObject, Signal, SignalInstance, Slot

from memtab.components.editor.session import BarKind
from memtab.components.files.steps import UndoStep
from memtab.components.history.burst_news import RESTORE_ALL, REVIEW, BurstNews, NewsRead
from memtab.gui.context import WindowContext

logger = logging.getLogger(__name__)


class NoticeBar(Protocol):
    """What the notice needs of its bar (`gui.editor.tab.bar.MessageBar`)."""

    @property
    def action_triggered(self) -> SignalInstance:
        """Signal(str): the id of the action clicked."""
        ...

    @property
    def dismissed(self) -> SignalInstance:
        """Signal(): closed by the user."""
        ...

    def show_message(
        self,
        kind: BarKind,
        text: str,
        actions: list[tuple[str, str]] | tuple[tuple[str, str], ...] = (),
        *,
        default: str | None = None,
    ) -> None: ...

    def clear(self) -> None: ...

    def isHidden(self) -> bool: ...


class BurstNotices(QObject):
    """Shows bursts as news in the bar (see the module docstring).

    Signals:
        review_requested(str): Review… was clicked: the burst's id.
        restore_all_requested(object): a mass change's Restore all was clicked: its
            `ChangeEvent`.
    """

    review_requested = Signal(str)
    restore_all_requested = Signal(object)

    def __init__(self, context: WindowContext, bar: NoticeBar, parent: QObject) -> None:
        super().__init__(parent)
        self._context = context
        self._bar = bar
        state = context.ui_state
        self.news = BurstNews(state.bursts_seen_for(context.home.root) if state else ())
        self._undone_by: UndoStep | None = None
        """The step the restore line shown offers to undo (None: no such line)."""
        bar.action_triggered.connect(self._on_bar_action_triggered)
        bar.dismissed.connect(self._on_bar_dismissed)
        context.file_ops.ended.connect(self._on_file_ops_ended)

    @property
    def text(self) -> str:
        """What the notice says now ("" when it shows nothing)."""
        notice = self.news.notice
        return notice.text if notice is not None and not self._bar.isHidden() else ""

    def take(self, read: NewsRead) -> None:
        """The bursts Recently deleted lists now (and the mass changes among them): show
        the newest not seen yet."""
        if not self.news.take(read.bursts, read.mass):
            return
        notice = self.news.notice
        self._undone_by = None
        if notice is None:  # what it named was put back
            self._bar.clear()
            return
        kind = BarKind.WARNING if notice.event is not None else BarKind.INFO
        self._bar.show_message(kind, notice.text, notice.actions, default=REVIEW)
        state = self._context.ui_state
        if state is not None:
            state.set_bursts_seen(self._context.home.root, self.news.seen)
            self._context.save_ui_state()

    def restored(self, text: str, undone_by: UndoStep | None = None) -> None:
        """What Restore all did, in words (the window's restore has ended); `undone_by`:
        the step the line offers Edit → Undo of — the line goes once it is taken back."""
        self._bar.show_message(BarKind.INFO, text)
        self._undone_by = undone_by

    @Slot()
    def _on_file_ops_ended(self) -> None:
        step = self._undone_by
        if step is not None and not self._context.undo_stack.holds(step):
            self._undone_by = None
            self._bar.clear()  # it offered an undo already taken

    @Slot(str)
    def _on_bar_action_triggered(self, action_id: str) -> None:
        notice = self.news.notice
        if notice is None or action_id not in (REVIEW, RESTORE_ALL):
            return
        self.news.dismissed()
        self._undone_by = None
        self._bar.clear()
        if action_id == RESTORE_ALL and notice.event is not None:
            self._bar.show_message(BarKind.INFO, f"Restoring what {notice.event.words()}…")
            self.restore_all_requested.emit(notice.event)
        else:
            self.review_requested.emit(notice.burst_id)

    @Slot()
    def _on_bar_dismissed(self) -> None:
        self._undone_by = None
        self.news.dismissed()
