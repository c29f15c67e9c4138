"""The Inbox: what agents proposed for the shown workspace (docs/formats.md §10.5), to accept
or reject, read through the window's file channel and followed by the watcher's batches.
Its widgets (`inbox_body`) are built only when something first waits.
"""

from __future__ import annotations

import builtins
import functools
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, Qt, Signal, Slot
from PySide6.QtGui import QKeyEvent, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QFrame,
    QLabel,
    QListWidget,
    QPushButton,
    QTextBrowser,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from memtab.components.activity.change_batch import ChangeBatch
from memtab.components.tree.sources_scan import SourcesScan
from memtab.components.writer.inbox_view import (
    EDIT_TIP,
    REJECT_TIP,
    InboxPresenter,
    agent_queues,
    count_text,
    inbox_places,
    queues_touched,
)
from memtab.components.writer.jobs import Pending, load_pending
from memtab.gui.actions import Focus
from memtab.gui.context import WindowContext
from memtab.gui.toolkit.keyboard_return import KeyboardReturn
from memtab.gui.toolkit.text.text_fields import is_redo_key
from memtab.gui.toolkit.widgets import chain_tab_order, hbox, named, tab_stops, vbox
from memtab.store.home import PathPlace
from memtab.store.sidecars.registry import Workspace
from memtab.writer.inbox.inbox import InboxItem

if TYPE_CHECKING:  # lazy: the list, details and buttons load when something first waits
    from memtab.gui.writer.inbox_body import InboxBody, ProposalReview, TargetBox


LOAD_KEY = "inbox"
_LIST_KEYS = ("inbox.edit", "inbox.reject")  # the list's, declared before it is made


class InboxPanel(QFrame):
    """The Inbox of the shown workspace (see the module docstring)."""

    status_message = Signal(str)  # what an accept or reject did (or why it failed)
    count_changed = Signal(int)  # how many proposed memories wait for review
    # an agent's proposal is accepted as it is: the file it changes (a virtual path) is about to be
    # the agent's change (its history actor)
    agent_accepting = Signal(str, str)
    reviewing_changed = Signal(bool)  # an agent's proposal's review shows (or went)

    def __init__(self, context: WindowContext, parent: QWidget | None = None) -> None:
        """A hidden panel; `set_workspace` fills it."""
        super().__init__(parent)
        self.setObjectName("inboxPanel")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self._context = context
        self.home = context.home
        self._state: InboxPresenter[InboxItem] = InboxPresenter()
        self._watched: frozenset[PathPlace] = frozenset()  # what a change of reloads
        self._loading: int | None = None  # the latest read asked for
        self._body: InboxBody | None = None
        self._roomy = False  # below the editor (`set_roomy`)
        self.reviewing = False
        # Made with the panel: the tab's focus chain has the Inbox's place from the start
        # (its body's stops follow the toggle's when built).
        self.toggle = named(QToolButton(self), "inboxToggle")
        self.toggle.setCheckable(True)
        self.toggle.setChecked(True)
        self.toggle.setAutoRaise(True)
        self.toggle.setArrowType(Qt.ArrowType.DownArrow)
        self.toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.toggle.setToolTip(
            "Memories agents proposed for this workspace — mux's harvest at compaction and "
            "Memtab's offline writer: accept them into the notes file, edit them first, or "
            "reject them."
        )
        self.toggle.toggled.connect(self._on_toggle_toggled)
        self._header = hbox(self.toggle, spacing=8)
        vbox(self._header, on=self, margins=(6, 4, 6, 6), spacing=4)
        self.hide()
        self.way_back = KeyboardReturn(self)  # Escape in the Inbox: back where it came from
        self._declare_keys()
        # A file operation may change what waits (Edit → Undo of a decision, a harvest
        # file deleted from the tree): read again once it ends, sooner than the watcher.
        context.file_ops.op_finished.connect(self.reload)
        context.changes.published.connect(self._on_changes_published)

    def _declare_keys(self) -> None:
        """The list's keys: F2 edits, Del rejects what is selected; Enter accepts it (the
        list's own key, `InboxBody.eventFilter`). The buttons' letters work anywhere in the
        window: Alt+A accepts, Alt+D edits, Alt+R rejects."""
        edit_id, reject_id = _LIST_KEYS
        for action_id, text, pressed, key, tip in (
            (edit_id, "Edit proposal, then accept", self._on_edit_key_pressed, "F2", EDIT_TIP),
            (reject_id, "Reject proposals", self._on_reject_key_pressed, "Del", REJECT_TIP),
        ):
            self._context.actions.add(
                action_id, text, pressed, keys=[key], focus=Focus.WIDGET, on=None, tip=tip
            )

    @property
    def body(self) -> InboxBody:
        """The list, details and buttons (built when first asked)."""
        if self._body is None:
            # lazy: kept only once something waits (settled RSS at 3,000 files ~0.15 MiB
            # lower without it, docs/performance.md) — most windows never show the Inbox
            from memtab.gui.writer.inbox_body import InboxBody

            body = InboxBody(self._context, self._state, self, self)
            self._header.addWidget(body.target, 1)
            layout = self.layout()
            assert isinstance(layout, QVBoxLayout)
            layout.addWidget(body, 1)
            body.setVisible(self.toggle.isChecked())
            body.target.setVisible(self.toggle.isChecked())
            chain_tab_order([self.toggle, *tab_stops(body.target), *tab_stops(body)])
            body.set_roomy(self._roomy)
            for action_id in _LIST_KEYS:
                self._context.actions.bind(action_id, body.list)
            self._body = body
        return self._body

    @property
    def target(self) -> TargetBox:
        return self.body.target

    @property
    def list(self) -> QListWidget:
        return self.body.list

    @property
    def details(self) -> QTextBrowser:
        return self.body.details

    @property
    def review(self) -> ProposalReview:
        """What an agent's proposal would write, under the details."""
        return self.body.review

    @property
    def accept_button(self) -> QPushButton:
        return self.body.accept_button

    @property
    def edit_button(self) -> QPushButton:
        return self.body.edit_button

    @property
    def reject_button(self) -> QPushButton:
        return self.body.reject_button

    @property
    def error_label(self) -> QLabel:
        return self.body.error_label

    @property
    def items(self) -> tuple[InboxItem, ...]:
        """The proposed memories shown: harvest candidates, then suggestions."""
        return self._state.items

    @property
    def busy(self) -> bool:
        """Whether a read of the inbox, an accept or a reject is still to come back."""
        return self._loading is not None or self._state.has_decisions

    def set_workspace(self, workspace: Workspace | None) -> None:
        """Show the inbox of `workspace` (none for no workspace)."""
        self._state.workspace = workspace
        self._watched = inbox_places(workspace)
        self._show(())
        self.reload()

    @Slot()
    def reload(self) -> None:
        """Read the inbox again (off the GUI thread, after the writes asked before)."""
        if self._loading is not None:
            self._context.files.cancel(self._loading)
        self._loading = self._context.files.read(
            LOAD_KEY,
            functools.partial(load_pending, self.home, self._state.workspace),
            self._loaded,
            self._load_failed,
        )

    def sources_found(self, sources: SourcesScan) -> None:
        """Other agents' memory was listed (again) as `sources` says, the watcher following
        it already: read again if a review queue came or went with its folder
        (`agent_queues`), or its folder's notes changed (`queues_touched`)."""
        found = sources.discovery.sources
        came_or_went = self._state.queues_found(agent_queues(found))
        touched = sources.changes.changed | sources.changes.deleted
        if came_or_went or queues_touched(found, touched):
            self.reload()

    @Slot(object)
    def _on_changes_published(self, batch: ChangeBatch) -> None:
        # `everything`: the home appeared or went, or a storm was reported as the home.
        if batch.everything or not self._watched.isdisjoint(batch.places):
            self.reload()

    def reveal(self) -> None:
        """Open the list and put the keyboard in it (from "Suggested N notes — review")."""
        self.toggle.setChecked(True)
        self.body.reveal()

    def set_roomy(self, roomy: bool) -> None:
        """Below the editor (`roomy`: `gui.memory_tab.controller`) the review takes the
        room the Inbox is given; over the tree its diff is at most a few lines high."""
        self._roomy = roomy
        if self._body is not None:
            self._body.set_roomy(roomy)

    def event(self, event: QEvent) -> bool:
        """What it shows changed (rows, details, the review): say whether a review shows."""
        if event.type() == QEvent.Type.LayoutRequest:
            reviewing = self._body is not None and self._body.reviewing
            if reviewing != self.reviewing:
                self.reviewing = reviewing
                self.reviewing_changed.emit(reviewing)
        return super().event(event)

    def take_keyboard(self, came_from: QWidget | None = None) -> bool:
        """The Inbox's key: open the list and put the keyboard in it, its first row
        selected, remembering where the keyboard was (`came_from`, else where it is: Escape
        goes back); False when nothing waits."""
        if not self.items:
            return False
        self.toggle.setChecked(True)
        self.way_back.take(self.body.list, came_from=came_from)
        self.body.reveal()
        return True

    def accept_selected(self, text: str | None = None) -> None:
        """Accept the selected items (`text`: the edited text of the one selected)."""
        if self._body is not None:  # else nothing is selected
            self._body.accept_selected(text)

    def reject_selected(self) -> None:
        if self._body is not None:
            self._body.reject_selected()

    def edit_selected(self) -> None:
        """Edit the selected item in a dialog (`exec_dialog`), then accept it."""
        if self._body is not None:
            self._body.edit_selected()

    def exec_dialog(self, dialog: QDialog) -> int:
        """Run a modal dialog (a seam for tests)."""
        return dialog.exec()

    def selected_ids(self) -> builtins.list[str]:  # `list` here is the widget
        return [] if self._body is None else self._body.selected_ids()

    def _on_edit_key_pressed(self) -> None:
        if self._body is not None:  # else nothing was listed: the key does nothing
            self._body.edit_pressed()

    def _on_reject_key_pressed(self) -> None:
        if self._body is not None:
            self._body.reject_pressed()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Edit → Undo and Redo's keys (Ctrl+Z, Ctrl+Shift+Z…) with the focus in the Inbox
        (its list or buttons: no text of its own) take back the last decision, as in the
        tree."""
        redo = is_redo_key(event) or event.matches(QKeySequence.StandardKey.Redo)
        action_id = "files.redo" if redo else "files.undo"
        if (redo or event.matches(QKeySequence.StandardKey.Undo)) and (
            action_id in self._context.actions
        ):
            self._context.actions.action(action_id).trigger()
            return
        super().keyPressEvent(event)

    def _loaded(self, result: Pending) -> None:
        self._loading = None
        if self._state.is_current(result.workspace_id):
            self._show(result.items)

    def _load_failed(self, message: str) -> None:
        self._loading = None
        self.body.show_error(f"Could not read the inbox: {message}")

    def _show(self, items: tuple[InboxItem, ...]) -> None:
        count = len(items)
        body = self.body if count else self._body
        if body is None:
            self._state.items = items
        else:
            body.fill(items, keep_height=self.isVisible() and count > 0)
        self.toggle.setText(count_text(count))
        focused = QApplication.focusWidget()
        if not count and focused is not None and self.isAncestorOf(focused):
            # The last one decided: the keyboard goes back to the tree it lies over (before
            # the Inbox in the focus chain), not on to whatever follows a hidden panel.
            self.toggle.setFocus(Qt.FocusReason.OtherFocusReason)
            self.focusNextPrevChild(False)
        self.setVisible(count > 0)
        if body is not None:
            body.show_selection()
        self.count_changed.emit(count)

    @Slot(bool)
    def _on_toggle_toggled(self, expanded: bool) -> None:
        self.toggle.setArrowType(Qt.ArrowType.DownArrow if expanded else Qt.ArrowType.RightArrow)
        if self._body is not None:
            self._body.setVisible(expanded)
            self._body.target.setVisible(expanded)
