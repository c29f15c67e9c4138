"""Memory every agent can trust, in the window: `TrustFeature` finds the home's duplicates,
contradictions and leaks (`components.trust.jobs.WindowTrust`) on the runs lane as the home
changes, and shows them in the room (what needs you) and the Trust panel."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Protocol

from PySide6.QtCore import QObject, QSize, Qt, Signal, SignalInstance, Slot
from PySide6.QtGui import QColor, QFont, QFontDatabase, QPalette, QTextCursor, QTextFormat
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QInputDialog,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QStyle,
    QTextEdit,
    QWidget,
)

from memtab.check.records import CheckReport
from memtab.components.activity.badges import Badge
from memtab.components.activity.change_batch import ChangeBatch
from memtab.components.check.check import rechecks
from memtab.components.files.ops import OpResult, ref_on_disk
from memtab.components.jobs import plain
from memtab.components.tree.nodes import file_key, ref_key
from memtab.components.trust import jobs as trust_jobs
from memtab.components.trust.changes import (
    REVIEW_NOTE,
    CombineChoice,
    CombineProposal,
    combine_choices,
    file_name,
    keep,
    move_target,
    newest,
    side_labels,
)
from memtab.components.trust.jobs import NotRead, SideBySide, WindowTrust, propose_combine
from memtab.components.trust.room import (
    PANEL_OF,
    ChangedFile,
    RoomFacts,
    RoomSection,
    Target,
    agent_name,
    headline,
    place_target,
    room_sections,
)
from memtab.file_protocol.file_ref import SourceError, parse_file_ref
from memtab.gui.context import WindowContext, WindowShell
from memtab.gui.tasks.jobs import JobClient, Lane
from memtab.gui.toolkit.clock import qtimer
from memtab.gui.toolkit.dialog_layout import (
    fit_to_screen,
    fit_to_title,
    give_mnemonics,
    small_dialog,
    stack_when_narrow,
)
from memtab.gui.toolkit.keyboard_return import KeyboardReturn, holds_keyboard
from memtab.gui.toolkit.style import muted_text, set_style_sheet
from memtab.gui.toolkit.text.three_way import ThreeWayView
from memtab.gui.toolkit.widgets import WrappedLabel, hbox, named, vbox
from memtab.gui.trust.panel import TrustPanel
from memtab.humanize import relative_time
from memtab.store.paths import PathError
from memtab.trust.contradictions.records import ClaimedLine, Contradiction
from memtab.trust.duplicates.records import DuplicateGroup
from memtab.trust.leaks.records import Leak
from memtab.trust.memories import where_in_words
from memtab.trust.report import TrustReport


class CombineDialog(QDialog):
    """What Combine proposes; `combine_requested(object, str)`: the `CombineChoice` and the
    text to keep."""

    combine_requested = Signal(object, str)

    def __init__(self, proposal: CombineProposal, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("combineReview")
        self.setWindowTitle("Combine duplicates")
        self.proposal = proposal
        self.choices = proposal.choices()
        self.summary = WrappedLabel("", self)
        self.keep = named(QComboBox(self), accessible="Keep in")
        self.keep.addItems([choice.label for choice in self.choices])
        keep_label = QLabel("&Keep in:", self)
        keep_label.setBuddy(self.keep)
        self.view = ThreeWayView(self)
        self.buttons = QDialogButtonBox(self)
        self.combine_button = self.buttons.addButton("C&ombine", Role.AcceptRole)
        self.combine_button.setToolTip("Keep the text below there; the other files go")
        self.buttons.addButton("&Cancel", Role.RejectRole)
        give_mnemonics(self.buttons)
        self.buttons.accepted.connect(self._on_buttons_accepted)
        self.buttons.rejected.connect(self.reject)
        vbox(self.summary, hbox(keep_label, (self.keep, 1)), (self.view, 1), self.buttons, on=self)
        self.keep.currentIndexChanged.connect(self._on_keep_current_index_changed)
        self._show(self.choices[0])
        fit_to_screen(self, QSize(1000, 640), remember="combine")
        fit_to_title(self)
        self.keep.setFocus()

    @property
    def choice(self) -> CombineChoice:
        return self.choices[max(self.keep.currentIndex(), 0)]

    def text(self) -> str:
        return self.view.merged_text()

    def _show(self, choice: CombineChoice) -> None:
        texts = self.proposal.review(choice)
        self.view.set_texts(replace(texts, labels=side_labels(self.proposal, choice)))
        self.view.merged_title.setText("Text to keep (edit it if needed)")
        self.view.note.setText(REVIEW_NOTE)
        self.summary.setText(self.proposal.summary(choice))

    @Slot(int)
    def _on_keep_current_index_changed(self, index: int) -> None:
        if 0 <= index < len(self.choices):
            self._show(self.choices[index])

    @Slot()
    def _on_buttons_accepted(self) -> None:
        self.combine_requested.emit(self.choice, self.text())
        self.accept()


TARGET_ROLE = Qt.ItemDataRole.UserRole + 1
Role = QDialogButtonBox.ButtonRole


class RoomView(QWidget):
    """What needs the user, as one list; `open_requested(Target)`: an item chosen."""

    open_requested = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("needsYouRoom")
        self.headline = named(QLabel("Looking at the memory…", self), "needsYouHeadline")
        font = QFont(self.headline.font())
        font.setPointSizeF(font.pointSizeF() * 1.15)
        font.setBold(True)
        self.headline.setFont(font)
        self.headline.setWordWrap(True)
        self.list = named(QListWidget(self), "needsYouList", accessible="What needs you")
        self.list.setWordWrap(True)
        self.list.setUniformItemSizes(False)
        self.list.setFrameShape(QListWidget.Shape.NoFrame)
        self.list.viewport().setAutoFillBackground(False)
        set_style_sheet(self.list, "QListWidget { background: transparent; }")
        # Enter (and, where the style says so, a click) activates; else a click does too.
        self.list.itemActivated.connect(self._on_list_item_activated)
        hint = QStyle.StyleHint.SH_ItemView_ActivateItemOnSingleClick
        if not self.list.style().styleHint(hint, None, self.list):
            self.list.itemClicked.connect(self._on_list_item_activated)
        vbox(self.headline, (self.list, 1), on=self, margins=(24, 8, 24, 8))
        self.sections: tuple[RoomSection, ...] = ()

    def show_sections(self, sections: Sequence[RoomSection]) -> None:
        """Show `sections` in place of what was shown (the row the keys were on kept)."""
        self.sections = tuple(sections)
        self.headline.setText(headline(sections))
        keep = self.list.currentRow()
        self.list.clear()
        muted = muted_text(self.palette())
        for section in sections:
            if section.summary:
                counted = f"{section.title} — {section.summary}"
            else:
                counted = f"{section.title} · {section.count or 'nothing'}"
            title = QListWidgetItem(counted)
            font = QFont(title.font())
            font.setBold(True)
            title.setFont(font)
            panel = PANEL_OF[section.key]
            if panel and section.count:
                title.setData(TARGET_ROLE, Target(panel=panel))
                title.setToolTip(f"Enter: the {panel.title()} panel")
            else:
                title.setFlags(title.flags() & ~Qt.ItemFlag.ItemIsSelectable)
                if not section.count:
                    title.setForeground(muted)
            self.list.addItem(title)
            for item in section.items:
                row = QListWidgetItem("    " + item.text)
                row.setData(TARGET_ROLE, item.target)
                row.setToolTip(item.tip)
                self.list.addItem(row)
            if section.more:
                more = QListWidgetItem(f"    {section.more}")
                more.setData(TARGET_ROLE, Target(panel=panel) if panel else None)
                more.setForeground(muted)
                self.list.addItem(more)
        if 0 <= keep < self.list.count():
            self.list.setCurrentRow(keep)

    def select_first(self) -> None:
        """Put the list's current row on its first item that leads somewhere, unless it
        is on one."""
        current = self.list.currentItem()
        if current is not None and current.data(TARGET_ROLE) is not None:
            return
        for row in range(self.list.count()):
            if self.list.item(row).data(TARGET_ROLE) is not None:
                self.list.setCurrentRow(row)
                break

    @Slot(QListWidgetItem)
    def _on_list_item_activated(self, item: QListWidgetItem) -> None:
        target = item.data(TARGET_ROLE)
        if isinstance(target, Target):
            self.open_requested.emit(target)


STACK_BELOW = 700  # px: narrower than this, the two files are one above the other


class SideBySideDialog(QDialog):
    """Both files of a contradiction; `open_requested(Target)`: a side's Open."""

    open_requested = Signal(object)

    def __init__(self, read: SideBySide, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("sideBySide")
        found = read.contradiction
        self.setWindowTitle(f"Disagreeing: {found.about}")
        why = QLabel(found.why + (f"\n{read.problem}" if read.problem else ""), self)
        why.setWordWrap(True)
        self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.texts: list[QPlainTextEdit] = []
        self._targets: list[Target] = []
        sides = ((found.first, read.first, "first"), (found.second, read.second, "second"))
        for column, (side, text, name) in enumerate(sides):
            newer = found.newer == name
            pane = QWidget(self.splitter)
            title = QLabel(_title(side, newer=newer, undecided=found.newer is None), pane)
            title.setWordWrap(True)
            title.setTextFormat(Qt.TextFormat.PlainText)
            edit = QPlainTextEdit(pane)
            edit.setReadOnly(True)
            edit.setObjectName(f"side{column}")
            edit.setAccessibleName(f"{'Newer' if newer else 'Older'}: {side.place.path}")
            edit.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
            edit.setPlainText(text if text is not None else "(cannot be read)")
            button = QPushButton("&Open this one" if column == 0 else "O&pen this one", pane)
            button.clicked.connect(self._on_open_clicked)
            button.setProperty("side", column)
            vbox(title, (edit, 1), button, on=pane, margins=0)
            self.splitter.addWidget(pane)
            self.texts.append(edit)
            self._targets.append(place_target(side.place))
            _mark_line(edit, side.place.line)
        vbox(why, (self.splitter, 1), on=self)
        stack_when_narrow(self.splitter, STACK_BELOW)
        fit_to_screen(self, QSize(1000, 560), remember="side-by-side")

    @Slot()
    def _on_open_clicked(self) -> None:
        self.open_requested.emit(self._targets[int(self.sender().property("side"))])
        self.accept()


def _title(side: ClaimedLine, *, newer: bool, undecided: bool) -> str:
    place = side.place
    when = relative_time(side.written_at) if side.written_at else "at an unknown time"
    age = "" if undecided else ("Newer — " if newer else "Older — ")
    line = f":{place.line}" if place.line is not None else ""
    return f"{age}{place.path}{line} ({where_in_words(place)})\nsays {side.value}, written {when}"


def _mark_line(edit: QPlainTextEdit, line: int | None) -> None:
    if line is None:
        return
    block = edit.document().findBlockByNumber(line - 1)
    if not block.isValid():
        return
    color = QColor(edit.palette().color(QPalette.ColorRole.Highlight))
    color.setAlphaF(0.25)
    selection = QTextEdit.ExtraSelection()
    selection.cursor = QTextCursor(block)
    selection.format.setBackground(color)
    selection.format.setProperty(QTextFormat.Property.FullWidthSelection, True)
    edit.setExtraSelections([selection])
    edit.setTextCursor(QTextCursor(block))
    edit.centerCursor()


FIND_KEY = "trust"
RECOMPUTE_DELAY_MS = 1500  # how long the disk stays quiet before the memory is looked at again
# After the first scan shown, when the first look starts: the window's start (history's
# recording pass, the check) goes first, and a window closed sooner starts no child.
FIRST_LOOK_DELAY_MS = 3000
PANEL_FLAG = "trust-panel"


class RoomHost(Protocol):
    """Where the room is shown with no file open (the editor's `EmptyRoom`)."""

    def hold(self, room: QWidget) -> None: ...


class BadgeSource(Protocol):
    """The "agent edited" badges (`EditMarks`), by physical path."""

    @property
    def badges(self) -> Mapping[str, Badge]: ...


class InboxCount(Protocol):
    """The Inbox's count (`InboxPanel`)."""

    @property
    def count_changed(self) -> SignalInstance: ...


class CheckReports(Protocol):
    """The check's reports (`CheckFeature`)."""

    @property
    def reported(self) -> SignalInstance: ...
    def show_panel(self) -> None: ...


OpenKey = Callable[[str, tuple[int, ...]], None]  # open a tree row by key, lines (0-based) lit


class TrustFeature(QObject):
    """The room and the Trust panel (see the module docstring)."""

    def __init__(
        self,
        context: WindowContext,
        shell: WindowShell,
        room_host: RoomHost,
        *,
        open_key: OpenKey,
        badges: BadgeSource | None = None,
        inbox: InboxCount | None = None,
        check: CheckReports | None = None,
        show_room: Callable[[], None] | None = None,
        in_background: bool = True,
        parent: QObject | None = None,
    ) -> None:
        """`show_room`: show the room's pane (a narrow window shows one at a time); the memory
        is looked at once the window has started unless not `in_background`."""
        super().__init__(parent)
        self._context = context
        self._shell = shell
        self._open_key = open_key
        self._badges = badges
        self._check = check
        self._in_background = in_background
        self._show_room = show_room
        self._engine = WindowTrust(context.home)
        self._client: JobClient | None = None
        self._shut_down = False
        self._started = False
        self.report: TrustReport | None = None
        self.status = "Not looked at yet."
        self._facts = RoomFacts()
        self._inbox: int | None = None
        self._check_report: CheckReport | None = None
        self._panel: TrustPanel | None = None
        self.combine_review: CombineDialog | None = None  # Combine into…'s last review
        self.room = RoomView()
        self.room.open_requested.connect(self.open_target)
        self._room_way_back = KeyboardReturn(self.room)  # Alt+3 takes the keyboard, Escape back
        room_host.hold(self.room)
        self.dock = shell.add_dock("Trust", "trustDock", below=True)
        self._way_back = KeyboardReturn(self.dock)  # its key takes the keyboard, Escape back
        self.dock.visibilityChanged.connect(self._on_dock_visibility_changed)
        actions = context.actions
        self.panel_action = actions.add(
            "trust.panel",
            "Tr&ust: duplicates, contradictions, leaks",
            self.toggle_panel,
            keys=["Ctrl+Shift+T"],
            menu="view",
            tip="Memories that say one thing twice, disagree, or sit in the wrong place",
            checkable=True,
            checked_when=self.dock.isVisible,
        )
        self.dock.visibilityChanged.connect(self.panel_action.setChecked)
        self.room_action = actions.add(
            "trust.room",
            "What &needs you",
            self.focus_room,
            keys=["Alt+3"],
            menu="view",
            tip="What each agent changed, the Inbox, and what to look at (no file open)",
        )
        self._recompute = qtimer(self, self.find_now, RECOMPUTE_DELAY_MS)
        self._refresh_soon = qtimer(self, self._refresh_room, 0)
        self._first_look = qtimer(self, self._on_first_look_timeout, FIRST_LOOK_DELAY_MS)
        context.shown.scan_applied.connect(self._on_shown_scan_applied)
        context.changes.published.connect(self._on_changes_published)
        if inbox is not None:
            inbox.count_changed.connect(self._on_inbox_count_changed)
        if check is not None:
            check.reported.connect(self._on_check_reported)
        state = context.ui_state
        if state is not None and state.flag(PANEL_FLAG):
            self.dock.show()

    @property
    def panel(self) -> TrustPanel:
        """The Trust panel, built now if it was not."""
        if self._panel is None:
            # The panel's widgets are built when it first shows.
            panel = TrustPanel()
            panel.set_status(self.status)
            if self.report is not None:
                panel.set_report(self.report)
            panel.open_requested.connect(self.open_target)
            panel.combine_requested.connect(self._on_combine_requested)
            panel.keep_requested.connect(self._on_keep_requested)
            panel.side_by_side_requested.connect(self._on_side_by_side_requested)
            panel.move_requested.connect(self._on_move_requested)
            panel.undo_requested.connect(self._on_undo_requested)
            self.dock.setWidget(panel)
            self._panel = panel
        return self._panel

    @property
    def first_look_pending(self) -> bool:
        """Whether the first look waits for the window's start to be over."""
        return self._first_look.isActive()

    @property
    def busy(self) -> bool:
        """Whether a look or an action runs (tests wait for it to end)."""
        return self._client is not None and self._client.is_busy()

    def find_now(self) -> None:
        """Look at the home's memory (on the lane; a newer look supersedes)."""
        if self._shut_down:
            return
        self._started = True
        self._recompute.stop()
        self._first_look.stop()
        self._set_status("Looking…")
        self._jobs().submit_latest(FIND_KEY, self._engine.find)

    def toggle_panel(self) -> None:
        """View → Trust: show the panel with the keyboard in it, or, pressed with the keyboard
        in it, close it and give the keyboard back (a toggle, as Check's)."""
        if self.dock.isVisible() and holds_keyboard(self.dock):
            self._way_back.give_back_if_held()
            self.dock.hide()
        else:
            self.open_panel()
        self.panel_action.setChecked(self.dock.isVisible())

    def open_panel(self) -> None:
        """Show the panel with the keyboard in its list (Escape gives it back:
        `toolkit.keyboard_return`)."""
        self.dock.show()
        self.dock.raise_()
        panel = self.panel
        self._way_back.take(panel.tree)  # where the keyboard was is remembered first
        panel.select_first()
        if not self._started:
            self.find_now()

    def focus_room(self) -> None:
        """Put the keyboard in the room (it shows while no file is open; in a narrow
        window, its pane is shown first); Escape gives it back."""
        came_from = QApplication.focusWidget()
        if not self.room.isVisible() and self._show_room is not None:
            self._show_room()
        if not self._started:
            self.find_now()
        if self.room.isVisible():
            self._room_way_back.take(self.room.list, came_from=came_from)
            self.room.select_first()
        else:
            self._context.status.show(
                "What needs you shows when no file is open; Ctrl+Shift+T: the Trust panel"
            )

    def choose(self, title: str, label: str, items: list[str]) -> int | None:
        """Ask which of `items` (a seam for tests); None when cancelled."""
        ask = QInputDialog(self._shell.as_widget())
        small_dialog(ask)
        ask.setWindowTitle(title)
        ask.setLabelText(label)
        ask.setComboBoxItems(items)
        ask.setComboBoxEditable(False)
        ask.setOkButtonText("C&ombine")
        ask.setCancelButtonText("&Cancel")
        answered = ask.exec() == QDialog.DialogCode.Accepted
        chosen = ask.textValue()
        ask.deleteLater()
        return items.index(chosen) if answered and chosen in items else None

    def save_ui_state(self) -> None:
        if self._context.ui_state is not None:
            self._context.ui_state.set_flag(PANEL_FLAG, self.dock.isVisible())

    def shutdown(self) -> None:
        self._shut_down = True
        self._recompute.stop()
        self._first_look.stop()
        self._refresh_soon.stop()
        if self._client is not None:
            self._client.shutdown()

    def _set_status(self, text: str) -> None:
        self.status = text
        if self._panel is not None:
            self._panel.set_status(text)
        if self.report is None:
            self._refresh_room()

    def _show(self, report: TrustReport) -> None:
        self.report = report
        found = len(report.duplicates) + len(report.contradictions) + len(report.leaks)
        status = f"{found} to look at in {report.files_read} memory files"
        if report.kept:
            status += f" ({report.kept} groups kept as they are)"
        if report.problems:
            status += "\n" + "\n".join(f"Not read: {p}" for p in report.problems)
        self._set_status(status)
        if self._panel is not None:
            self._panel.set_report(report)
        self._refresh_room()

    @Slot()
    def _refresh_room(self) -> None:
        badges = self._badges.badges.items() if self._badges is not None else None
        report = self._check_report
        self._facts = RoomFacts(
            changed=None
            if badges is None
            else [ChangedFile(agent_name(b.label), path, b.at_ms) for path, b in badges],
            inbox=self._inbox,
            findings=report.findings if report is not None else None,
            trust=self.report,
            trust_status="" if self.report is not None else self.status,
            check_status="" if self._check_report is not None else "Not checked yet.",
        )
        self.room.show_sections(room_sections(self._facts))

    def open_target(self, target: Target) -> None:
        """Open what `target` leads to: a file at its line, a badged file, a panel."""
        if target.panel:
            self._open_panel_named(target.panel)
        elif target.physical:
            self._open_physical(target.physical)
        elif target.path:
            self._open_path(target)

    def _open_panel_named(self, panel: str) -> None:
        if panel == "trust":
            self.open_panel()
        elif panel == "check" and self._check is not None:
            self._check.show_panel()
        elif panel == "inbox":
            self._shell.show_suggestions(self._context.shown.workspace_id)

    def _open_path(self, target: Target) -> None:
        lines = (target.line - 1,) if target.line is not None else ()
        try:
            ref = parse_file_ref(target.path)
        except (PathError, SourceError):
            self._context.status.show(f"{target.path} is not a memory file Memtab shows")
            return
        path = ref.virtual_path
        if path is None:
            self._open_key(ref_key(ref), lines)
            return
        workspace = target.workspace
        if workspace is None and target.project is not None and self.report is not None:
            shown = self._context.shown.workspace
            if shown is not None and shown.project_path == target.project:
                workspace = shown.id
            else:
                workspace = self.report.workspaces.get(target.project)
        self._shell.reveal_file(workspace or self._context.shown.workspace_id, path, lines)

    def _open_physical(self, physical: str) -> None:
        scan = self._context.shown.scan
        if scan is None:
            return
        for scope in scan.scopes:
            for entry in scope.listing.files:
                if scope.physical(entry.path) == physical:
                    self._open_key(file_key(entry.path), ())
                    return
        ref = ref_on_disk(scan, Path(physical))
        if ref is not None:
            self._open_key(ref_key(ref), ())
        else:
            self._context.status.show(f"{physical} is not in the workspace shown")

    def _run(self, job: Callable[..., OpResult], places: Sequence[str]) -> None:
        """Run an action on the lane, the files it writes noted as the window's own (no
        "agent edited" badge on them)."""
        for path in places:
            self._context.own_writes.note(path)
        self._jobs().submit(job)

    def _jobs(self) -> JobClient:
        if self._client is None:
            self._client = self._context.jobs.client("trust", Lane.RUNS, parent=self)
            self._client.latest_finished.connect(self._on_client_latest_finished)
            self._client.latest_failed.connect(self._on_client_latest_failed)
            self._client.job_finished.connect(self._on_client_finished)
            self._client.job_failed.connect(self._on_client_failed)
        return self._client

    @Slot(object)
    def _on_combine_requested(self, group: DuplicateGroup) -> None:
        home = self._context.home
        if group.kind != "rule":  # whole files: their combined text is reviewed first
            self._context.status.show("Reading the files to combine…")
            self._jobs().submit(functools.partial(propose_combine, home, group))
            return
        choices = combine_choices(group)
        index = self.choose(
            "Combine into…",
            "Keep the rule where? It is taken out of the others (Edit → Undo brings it back).",
            [c.label for c in choices],
        )
        if index is None:
            return
        job = functools.partial(
            trust_jobs.combine_lines, home, self._context.undo_stack, group, choices[index]
        )
        self._run(job, [m.path for m in group.members])

    def _review_combine(self, proposal: CombineProposal) -> None:
        """Show what Combine proposes (`CombineDialog`); combined once the user accepts."""
        dialog = CombineDialog(proposal, self._shell.as_widget())
        dialog.combine_requested.connect(functools.partial(self._on_combine_accepted, proposal))
        dialog.finished.connect(self._on_combine_review_finished)
        self._context.status.show("Combine: nothing changes until you accept the text to keep")
        dialog.open()
        self.combine_review = dialog

    @Slot(int)
    def _on_combine_review_finished(self, _result: int) -> None:
        """The review closed, combined or not: it is let go (none kept once deleted)."""
        dialog, self.combine_review = self.combine_review, None
        if dialog is not None:
            dialog.deleteLater()

    def _on_combine_accepted(
        self, proposal: CombineProposal, choice: CombineChoice, text: str
    ) -> None:
        places = [m.place.path for m in proposal.members]
        if choice.member is None:
            name = file_name(proposal.members[newest(proposal.group.members)].place.path)
            places.append(f"/memories/global/{name}")
        stack = self._context.undo_stack
        job = functools.partial(
            trust_jobs.combine_files, self._context.home, stack, proposal, choice, text
        )
        self._run(job, places)

    @Slot(object)
    def _on_keep_requested(self, group: DuplicateGroup) -> None:
        home, stack = self._context.home, self._context.undo_stack
        self._run(plain(keep, stack, home, group), ())

    @Slot(object)
    def _on_move_requested(self, leak: Leak) -> None:
        if move_target(leak) is None:
            return
        home, stack = self._context.home, self._context.undo_stack
        places = [leak.place.path]
        if leak.kind != "secret" and leak.place.path.startswith("/memories/"):
            places.append(f"/memories/project/{leak.place.path.split('/', 3)[-1]}")
        self._run(functools.partial(trust_jobs.move, home, stack, leak), places)

    @Slot(bool)
    def _on_undo_requested(self, redo: bool) -> None:
        self._context.actions.action("files.redo" if redo else "files.undo").trigger()

    @Slot(object)
    def _on_side_by_side_requested(self, found: Contradiction) -> None:
        self._jobs().submit(
            functools.partial(trust_jobs.read_side_by_side, self._context.home, found)
        )

    @Slot(int, object)
    def _on_client_finished(self, _job_id: int, result: object) -> None:
        if isinstance(result, OpResult):
            self._context.status.show(
                result.message if result.ok else f"{result.message}: {result.error}"
            )
            self.find_now()  # what changed is looked at again at once
        elif isinstance(result, SideBySide):
            self._show_side_by_side(result)
        elif isinstance(result, CombineProposal):
            self._review_combine(result)

    @Slot(int, str)
    def _on_client_failed(self, _job_id: int, message: str) -> None:
        self._context.status.show(f"Could not do it: {message}")

    def _show_side_by_side(self, read: SideBySide) -> None:
        dialog = SideBySideDialog(read, self._shell.as_widget())
        dialog.open_requested.connect(self.open_target)
        dialog.setModal(True)
        dialog.show()
        self.side_by_side = dialog

    @Slot(str, object)
    def _on_client_latest_finished(self, key: str, result: object) -> None:
        if key != FIND_KEY:
            return
        if isinstance(result, NotRead):
            self._set_status(f"Could not read the memory: {result.message}")
        elif isinstance(result, TrustReport):
            self._show(result)  # None: cancelled (a newer look, the window closing)

    @Slot(str, str)
    def _on_client_latest_failed(self, key: str, message: str) -> None:
        if key == FIND_KEY:
            self._set_status(f"Could not read the memory: {message}")

    @Slot(object)
    def _on_shown_scan_applied(self, _scan: object) -> None:
        if not self._started and self._in_background and not self._first_look.isActive():
            self._first_look.start()
        self._refresh_soon.start()  # the badges are counted in with the scan

    @Slot(object)
    def _on_changes_published(self, batch: ChangeBatch) -> None:
        if self._started and rechecks(batch):
            self._recompute.start()

    @Slot(int)
    def _on_inbox_count_changed(self, count: int) -> None:
        self._inbox = count
        self._refresh_soon.start()

    @Slot(object)
    def _on_check_reported(self, report: object) -> None:
        if isinstance(report, CheckReport):
            self._check_report = report
            self._refresh_soon.start()

    @Slot(bool)
    def _on_dock_visibility_changed(self, visible: bool) -> None:
        if visible:
            _ = self.panel
        else:
            self._way_back.give_back_if_held()

    @Slot()
    def _on_first_look_timeout(self) -> None:
        if not self._started:
            self.find_now()
