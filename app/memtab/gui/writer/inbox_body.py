"""The Inbox's widgets and decisions: the "Accept into:" chooser, the proposed memories, the
selected one's details and evidence, Accept / Edit… / Reject, each an ordered file operation
Edit → Undo takes back. Built by `InboxPanel` when something first waits.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Protocol, cast

from PySide6.QtCore import QEvent, QItemSelectionModel, QObject, Qt, SignalInstance, Slot
from PySide6.QtGui import QFocusEvent, QKeyEvent, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from memtab.components.rich_text import escape_html
from memtab.components.tree.scan import HomeScan
from memtab.components.writer.inbox_view import (
    ACCEPT_TIP,
    EDIT_TIP,
    LIST_ROWS,
    MOVED_UNCHANGED,
    REJECT_TIP,
    InboxPresenter,
    details_html,
    list_heights,
    origin_text,
    review_heading,
    row_text,
    row_tooltip,
    where_text,
)
from memtab.components.writer.jobs import (
    Decided,
    Reviewed,
    WithEvidence,
    accept,
    load_evidence,
    load_review,
    load_targets,
    reject,
)
from memtab.file_protocol.file_ref import SourceError, is_virtual_path, parse_file_id
from memtab.gui.context import WindowContext
from memtab.gui.toolkit.clock import call_soon
from memtab.gui.toolkit.dialog_layout import lay_out_prose_dialog
from memtab.gui.toolkit.style import Accent, accent_text, mute
from memtab.gui.toolkit.text.diff_view import DiffView
from memtab.gui.toolkit.widgets import WrappedLabel, hbox, named, vbox
from memtab.writer.inbox.inbox import InboxItem

MIN_CHARS = 8  # the shortest the chooser gets: it never widens the panel over the tree
_MEMORIES = "/memories/"
NOTHING_SELECTED = "select one"  # what the disabled chooser says while nothing is selected


def short_path(path: str) -> str:
    """`/memories/project/notes.md` as `project/notes.md`; another agent's file by its
    agent's name (`gemini:user:GEMINI.md` as `Gemini CLI · GEMINI.md`)."""
    if is_virtual_path(path):
        return path.removeprefix(_MEMORIES)
    try:
        return parse_file_id(path).shown
    except SourceError:
        return path


class TargetBox(QWidget):
    """ "Accept into: [project/notes.md (proposed) ▾]" (see the module docstring)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.label = QLabel("Accept &into:", self)
        self.combo = named(QComboBox(self), "inboxTarget", accessible="Accept into")
        self.combo.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.combo.setMinimumContentsLength(MIN_CHARS)
        self.combo.setPlaceholderText(NOTHING_SELECTED)  # an empty box read as broken
        self.label.setBuddy(self.combo)
        hbox(self.label, (self.combo, 1), on=self, margins=0, spacing=4)
        self._choices: tuple[str, ...] = ()
        self._items: tuple[InboxItem, ...] = ()
        self._shown_for: frozenset[str] = frozenset()  # the items' ids
        self.show_for([])

    def set_choices(self, choices: Sequence[str]) -> None:
        """The files the user may choose (`writer.inbox.targets.target_choices`, listed
        off the GUI thread: they may come after the items were selected)."""
        if tuple(choices) != self._choices:
            self._choices = tuple(choices)
            self.show_for(self._items)

    def show_for(self, items: Sequence[InboxItem]) -> None:
        """Propose the file of the selected `items` (none: a disabled, empty chooser); the
        user's choice stays while the same items are selected (the Inbox read again)."""
        self._items = tuple(items)
        ids = frozenset(item.id for item in items)
        kept = self.chosen if ids == self._shown_for else None
        self._shown_for = ids
        self.combo.clear()
        paths = list(dict.fromkeys(item.memory_path for item in items))
        if not items:
            self.combo.setEnabled(False)
            self.combo.setToolTip("Select a proposed memory to choose where it goes")
            return
        movable = all(item.retargetable for item in items)
        proposed = " (proposed)" if movable else ""
        first = short_path(paths[0]) if len(paths) == 1 else "Where each belongs"
        self.combo.addItem(first + proposed, None)
        reasons = sorted({item.target_reason for item in items if item.target_reason})
        if movable:
            for path in self._choices:
                if paths != [path]:  # the proposal is the first entry already
                    self.combo.addItem(short_path(path), path)
        self.combo.setEnabled(movable)
        self.combo.setCurrentIndex(0)
        if kept is not None:
            self.choose(kept)
        tip = "; ".join(reasons) if movable else "An agent's change writes the file it names"
        self.combo.setToolTip(tip[:1].upper() + tip[1:])

    @property
    def chosen(self) -> str | None:
        """The file the user chose, or None: where each belongs, as proposed."""
        data = self.combo.currentData()
        return data if isinstance(data, str) else None

    def choose(self, path: str) -> None:
        """Choose `path` (a test's seam, and the keyboard's)."""
        index = self.combo.findData(path)
        if index >= 0:
            self.combo.setCurrentIndex(index)


REVIEW_LINES = 12
"""The diff's height at most over the tree, in lines; more scroll."""
_NO_MAX_HEIGHT = 16_777_215  # Qt's QWIDGETSIZE_MAX


class ProposalReview(QWidget):
    """The review of one agent's proposal (see the module docstring); hidden until shown."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("proposalReview")
        self.heading = named(WrappedLabel("", self), "proposalReviewHeading")
        self.heading.setTextFormat(Qt.TextFormat.RichText)
        self.diff = named(DiffView(self), accessible="What the proposal would write")
        self.diff.setTabChangesFocus(True)  # a review, not a text: Tab goes on to the buttons
        self.diff.wraps_lines = True  # whole lines, however narrow the column
        self.diff.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self._frame = 2 * self.diff.frameWidth()
        self._line = self.diff.fontMetrics().lineSpacing()
        self.diff.setMinimumHeight(3 * self._line + self._frame)
        self._error = accent_text(self.palette(), Accent.ERROR).name()
        vbox(self.heading, self.diff, on=self, margins=0, spacing=2)
        self.set_roomy(False)
        self._origin = ""
        self.shown_id: str | None = None
        """The proposal whose review is shown (or is being read)."""
        self.hide()

    def set_roomy(self, roomy: bool) -> None:
        """Below the editor (`roomy`) the diff takes the room it is given; over the tree,
        at most REVIEW_LINES lines (more scroll)."""
        most = _NO_MAX_HEIGHT if roomy else REVIEW_LINES * self._line + self._frame
        self.diff.setMaximumHeight(most)
        layout = self.layout()
        if isinstance(layout, QVBoxLayout):
            layout.setStretchFactor(self.diff, 1 if roomy else 0)

    def show_reading(self, item_id: str, origin: str) -> None:
        """The proposal `item_id`'s review is on its way (`origin`: who proposed it)."""
        self.shown_id = item_id
        self._origin = origin
        self._say("Reading what it would write…")
        self.diff.show_computing()
        self.show()

    def show_review(self, reviewed: Reviewed) -> None:
        """Show what the proposal would write (or why it cannot be read)."""
        self.shown_id = reviewed.item_id
        preview = reviewed.preview
        if reviewed.heading is not None:  # a Gemini patch: its own words over its diff
            self._say(reviewed.heading, error=reviewed.refused)
        elif preview is None:
            self._say(f"Cannot show what it would write: {reviewed.problem}", error=True)
            self.diff.setPlainText("")
        else:
            self._say(review_heading(preview, reviewed.diff), error=preview.problem is not None)
        if reviewed.diff is not None and (reviewed.heading is not None or preview is not None):
            self.diff.set_diff(reviewed.diff, identical=MOVED_UNCHANGED)
        self.show()

    def clear(self) -> None:
        """Nothing to review (no agent's proposal selected alone)."""
        self.shown_id = None
        self.hide()

    def _say(self, text: str, *, error: bool = False) -> None:
        said = escape_html(text)
        if error:
            said = f'<span style="color: {self._error}">{said}</span>'
        self.heading.setText(f"<b>{escape_html(self._origin)}</b><br>{said}")


EVIDENCE_KEY = "inbox-evidence"
TARGETS_KEY = "inbox-targets"
REVIEW_KEY = "inbox-review"
_ID_ROLE = Qt.ItemDataRole.UserRole + 1
_ENTER = (Qt.Key.Key_Return, Qt.Key.Key_Enter)


def _click_if_enabled(button: QPushButton) -> None:
    if button.isEnabled():  # nothing selected, or a decision under way: the key does nothing
        button.click()


class InboxHost(Protocol):
    """What the widgets ask of their panel (`InboxPanel`)."""

    @property
    def status_message(self) -> SignalInstance: ...
    @property
    def agent_accepting(self) -> SignalInstance: ...
    def reload(self) -> None: ...
    def exec_dialog(self, dialog: QDialog) -> int: ...


class EditProposalDialog(QDialog):
    """Edit a proposed memory's text before accepting it."""

    def __init__(
        self, item: InboxItem, parent: QWidget | None = None, *, to: str | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Edit, then accept — Memtab")
        where = mute(QLabel(where_text(item, to), self))
        self.text_edit = named(QPlainTextEdit(item.text, self), accessible="Proposed memory")
        lay_out_prose_dialog(self, where, self.text_edit, "&Accept", height=200)

    @property
    def text(self) -> str:
        return self.text_edit.toPlainText()


class InboxBody(QWidget):
    """The list, the details and the buttons under the Inbox's title, and the "Accept
    into:" chooser beside it (`target`: placed in the title's row by the panel)."""

    def __init__(
        self,
        context: WindowContext,
        state: InboxPresenter[InboxItem],
        host: InboxHost,
        parent: QWidget,
    ) -> None:
        super().__init__(parent)
        self._context = context
        self.home = context.home
        self._state = state
        self._host = host
        self._evidence: int | None = None
        self._reading_review: int | None = None
        self._targets_of: HomeScan | None = None  # the scan the choices were listed from
        self._roomy = False
        self._build(parent)
        context.shown.scan_applied.connect(self._on_shown_scan_applied)

    def _build(self, parent: QWidget) -> None:
        # Beside the title, in a row the panel has anyway: no height of its own over the
        # tree; before the list in the focus chain, as on screen.
        self.target = TargetBox(parent)
        self.list = named(QListWidget(self), "inboxList", accessible="Inbox")
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.list.setWordWrap(True)
        # Rows wrap at the list's width and never scroll sideways: QListView wraps in its
        # height less an as-needed scroll bar's, which a list fitted to one row does not
        # have — its row did not wrap, and the bar took the whole list (0 px: an Inbox of
        # one proposal could not be selected).
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setAlternatingRowColors(True)
        self.list.itemSelectionChanged.connect(self.show_selection)
        self.list.itemDoubleClicked.connect(self.edit_selected)
        self._fitting = False  # a fit of the list's height is scheduled
        self.list.installEventFilter(self)
        self.details = QTextBrowser(self)
        self.details.setObjectName("inboxDetails")
        self.details.setAccessibleName("Where the proposed memory came from")
        self.details.setOpenLinks(False)
        self.details.setMaximumHeight(150)
        lines = self.details.fontMetrics().lineSpacing()
        self.details.setMinimumHeight(2 * lines + 2 * self.details.frameWidth())  # scrolls
        self.details.hide()
        self._proposal_review: ProposalReview | None = None  # built with the first review
        self.accept_button = named(QPushButton("&Accept", self), tip=ACCEPT_TIP)
        self.edit_button = named(QPushButton("E&dit…", self), tip=EDIT_TIP)
        self.reject_button = named(QPushButton("&Reject", self), tip=REJECT_TIP)
        self.accept_button.clicked.connect(self._on_accept_button_clicked)
        self.edit_button.clicked.connect(self.edit_selected)
        self.reject_button.clicked.connect(self.reject_selected)
        self.error_label = QLabel(self)
        self.error_label.setWordWrap(True)
        self.error_label.setStyleSheet(f"color: {accent_text(self.palette(), Accent.ERROR).name()}")
        self.error_label.hide()
        body = vbox(self.list, self.details, on=self, margins=0, spacing=4)
        # Below the editor (a splitter's room) the buttons stay at the bottom, where the
        # last click was, whatever shows above them; over the tree it adds nothing.
        body.addStretch(0)
        body.addLayout(hbox(self.accept_button, self.edit_button, self.reject_button, 1, spacing=4))
        body.addWidget(self.error_label)
        self._update_buttons()

    @property
    def review(self) -> ProposalReview:
        """What an agent's proposal would write, under the details (built when first asked)."""
        if self._proposal_review is None:
            # Its widgets are built once an agent's proposal shows (settled RSS 96.33 → 96.19
            # MiB without them, docs/performance.md).
            review = ProposalReview(self)
            layout = self.layout()
            assert isinstance(layout, QVBoxLayout)
            layout.insertWidget(layout.indexOf(self.details) + 1, review, 1 if self._roomy else 0)
            review.set_roomy(self._roomy)
            QWidget.setTabOrder(self.details, review.diff)  # as on screen, before the buttons
            QWidget.setTabOrder(review.diff, self.accept_button)
            self._proposal_review = review
        return self._proposal_review

    @property
    def reviewing(self) -> bool:
        """Whether an agent's proposal's review shows."""
        review = self._proposal_review
        return review is not None and not review.isHidden()

    def set_roomy(self, roomy: bool) -> None:
        """Below the editor the list keeps its rows and the review takes the room left
        (see `InboxPanel.set_roomy`)."""
        self._roomy = roomy
        self._fit_list()
        review = self._proposal_review
        if review is not None:
            review.set_roomy(roomy)
            layout = self.layout()
            if isinstance(layout, QVBoxLayout):
                layout.setStretchFactor(review, 1 if roomy else 0)

    def reveal(self) -> None:
        """Put the keyboard in the list, on its first row if none is selected."""
        self.list.setFocus(Qt.FocusReason.OtherFocusReason)
        if self.list.count() and not self.list.selectedItems():  # it had the focus already
            self.list.setCurrentRow(0)

    def edit_pressed(self) -> None:
        """F2 on the list: Edit… what is selected."""
        _click_if_enabled(self.edit_button)

    def reject_pressed(self) -> None:
        """Del on the list: Reject what is selected."""
        _click_if_enabled(self.reject_button)

    def fill(self, items: tuple[InboxItem, ...], *, keep_height: bool) -> None:
        """List `items` (what was selected stays selected; once what was decided has gone,
        the item after it is) and fit the list to them."""
        selected = set(self.selected_ids())
        self._state.items = items
        if selected and not selected & {entry.id for entry in items}:
            follow = self._state.selection_after_decision()
            selected = {follow} if follow is not None else set()
        self.list.blockSignals(True)
        self.list.clear()
        for entry in items:
            row = QListWidgetItem(row_text(entry))
            row.setData(_ID_ROLE, entry.id)
            row.setToolTip(row_tooltip(entry))
            self.list.addItem(row)
            if entry.id in selected:
                row.setSelected(True)
                if len(selected) == 1:  # the arrows go on from there
                    self.list.setCurrentItem(row, QItemSelectionModel.SelectionFlag.NoUpdate)
        self.list.blockSignals(False)
        self._list_targets()
        self._fit_list(keep_height=keep_height)

    def show_selection(self) -> None:
        """The details and the buttons of what is selected now."""
        self._show_details()
        self._update_buttons()

    def accept_selected(self, text: str | None = None) -> None:
        """Accept the selected items (`text`: the edited text of the one selected)."""
        if ids := self.selected_ids():
            to = self.target.chosen
            for write in self._state.accepting(ids, text, to):
                if write.agent is not None:  # as the agent proposed it
                    self._host.agent_accepting.emit(write.path, write.agent)
                else:  # the user's own: no "agent edited" badge
                    self._context.own_writes.note(write.path)
            stack, workspace = self._context.undo_stack, self._state.workspace
            self._decide(functools.partial(accept, self.home, workspace, ids, text, to, stack))

    def reject_selected(self) -> None:
        if ids := self.selected_ids():
            stack = self._context.undo_stack
            self._decide(functools.partial(reject, self.home, self._state.workspace, ids, stack))

    def edit_selected(self) -> None:
        """Edit the selected item in a dialog, then accept it."""
        ids = self.selected_ids()
        chosen = self._state.chosen(ids)
        if len(chosen) != 1 or not self._state.buttons(ids).edit:
            return
        dialog = EditProposalDialog(chosen[0], self, to=self.target.chosen)
        if self._host.exec_dialog(dialog):
            self.accept_selected(dialog.text)

    def selected_ids(self) -> list[str]:
        return [
            str(item.data(_ID_ROLE))
            for item in (self.list.item(row) for row in range(self.list.count()))
            if item is not None and item.isSelected()
        ]

    def show_error(self, message: str) -> None:
        """An error under the buttons (until the next decision)."""
        self.error_label.setText(message)
        self.error_label.show()

    def _decide(self, job: functools.partial[Decided]) -> None:
        self.error_label.hide()
        token = object()
        self._state.deciding(token, self.selected_ids())

        def done(result: Decided) -> None:
            self._state.decided(token, failed=result.error)
            self._decided(result)

        def failed(message: str) -> None:
            self._state.decided(token, failed=True)
            self.show_error(message)
            self._update_buttons()

        self._context.file_ops.decide(job, done, failed)  # Undo pressed meanwhile waits
        buttons = (self.accept_button, self.edit_button, self.reject_button)
        if any(button.hasFocus() for button in buttons):  # about to be disabled: the
            self.list.setFocus(Qt.FocusReason.OtherFocusReason)  # keys stay in the Inbox
        self._update_buttons()

    def _decided(self, result: Decided) -> None:
        if result.error:
            self.show_error(result.message)
        self._host.status_message.emit(result.message)
        self._update_buttons()
        self._host.reload()  # the watcher would too; this is sooner

    def _evidence_read(self, result: WithEvidence) -> None:
        self._evidence = None
        if self._state.is_current(result.workspace_id) and self.selected_ids() == [result.item.id]:
            self.details.setHtml(details_html(result.item))

    def _cancel_evidence(self) -> None:
        if self._evidence is not None:
            self._context.files.cancel(self._evidence)
            self._evidence = None

    @Slot(object)
    def _on_shown_scan_applied(self, _scan: object) -> None:
        self._list_targets()
        review = self._proposal_review
        if review is not None and review.shown_id is not None:  # its file may have changed:
            self._show_details()  # review it anew

    def _list_targets(self) -> None:
        """The files to accept into, listed again from each new scan of the shown
        workspace while something waits (off the GUI thread)."""
        scan = self._context.shown.scan
        shown = scan.workspace.id if scan is not None and scan.workspace is not None else None
        if (
            scan is None
            or scan is self._targets_of
            or not self._state.items
            or not self._state.is_current(shown)
        ):
            return
        self._targets_of = scan
        job = functools.partial(load_targets, scan)
        self._context.files.listing(TARGETS_KEY, job, self.target.set_choices)

    def _fit_list(self, *, keep_height: bool = False) -> None:
        """As tall as its first rows (at most LIST_ROWS and LIST_LINES lines; more scroll),
        giving way down to LIST_LEAST_LINES when short of room; `keep_height`: it does not
        shrink while items are decided, so its buttons stay under the pointer."""
        self._fitting = False
        self.list.doItemsLayout()  # rows wrapped at the width the list has now
        least, most = list_heights(
            [
                self.list.visualRect(self.list.model().index(row, 0)).height()
                for row in range(min(self.list.count(), LIST_ROWS))
            ],
            self.list.fontMetrics().lineSpacing(),
            2 * self.list.frameWidth(),
            held=self.list.maximumHeight() if keep_height else 0,
            # Hidden, its rows are wrapped at a width it will not have: its first row
            # whole waits for the width it is shown at (its resize fits it again).
            first_whole=self.list.isVisible(),
        )
        # Below the editor the review gives way (its diff scrolls), never the list's rows.
        self.list.setMinimumHeight(most if self._roomy else least)
        self.list.setMaximumHeight(most)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """The list got wider or narrower: its rows wrap anew, so fit it again (once this
        turn's events are handled). Enter accepts what is selected. The keyboard came to
        it (Tab, not a click): the row it stands on is selected — Qt only marks it
        current, and with one row ↓ selects nothing, so Enter had nothing to accept."""
        if watched is not self.list:
            return False
        if event.type() == QEvent.Type.Resize and not self._fitting:
            resize = cast(QResizeEvent, event)
            if resize.oldSize().width() != resize.size().width():
                self._fitting = True
                call_soon(self, self._fit_list)
        elif event.type() == QEvent.Type.KeyPress:
            key = cast(QKeyEvent, event)
            if key.key() in _ENTER and not key.modifiers() & ~Qt.KeyboardModifier.KeypadModifier:
                _click_if_enabled(self.accept_button)
                return True
        elif event.type() == QEvent.Type.FocusIn:
            clicked = cast(QFocusEvent, event).reason() == Qt.FocusReason.MouseFocusReason
            if not clicked and self.list.count() and not self.list.selectedItems():
                self.list.setCurrentRow(max(self.list.currentRow(), 0))
        return False

    def _show_details(self) -> None:
        """The details of the one item selected: its evidence, or an agent's proposal's
        review — what it would write, diffed against the file now — each read off the
        GUI thread."""
        ids = self.selected_ids()
        self._cancel_evidence()
        self.target.show_for(self._state.chosen(ids))
        plan = self._state.details(ids)
        self._review(plan.review)  # who proposed it is said there: no details of their own
        one, workspace = plan.one, self._state.workspace
        if not plan.provenance or one is None:
            self.details.hide()
            return
        self.details.setHtml(details_html(one))
        self.details.show()
        if plan.read_evidence and workspace is not None:
            self._evidence = self._context.files.listing(
                EVIDENCE_KEY,
                functools.partial(load_evidence, self.home, workspace.id, one),
                self._evidence_read,
            )

    def _review(self, item: InboxItem | None) -> None:
        """Read what the agent's proposal `item` would write (None: no review)."""
        if item is None:
            if self._reading_review is not None:  # a patch's review stops where it is
                self._context.files.cancel(self._reading_review)
                self._reading_review = None
            if self._proposal_review is not None:
                self._proposal_review.clear()
            return
        if self.review.shown_id != item.id:
            self.review.show_reading(item.id, origin_text(item))
        job = functools.partial(load_review, self.home, self._state.workspace, item)
        self._reading_review = self._context.files.listing(REVIEW_KEY, job, self._reviewed)

    def _reviewed(self, result: Reviewed) -> None:
        self._reading_review = None
        if self.selected_ids() == [result.item_id]:
            self.review.show_review(result)

    def _update_buttons(self) -> None:
        buttons = self._state.buttons(self.selected_ids())
        self.accept_button.setEnabled(buttons.accept)
        self.reject_button.setEnabled(buttons.reject)
        self.edit_button.setEnabled(buttons.edit)

    @Slot()
    def _on_accept_button_clicked(self) -> None:
        self.accept_selected()
