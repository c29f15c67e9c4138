"""Memory every agent can trust, in the window: `TrustFeature` finds the home's duplicates,
contradictions and leaks (`components.trust.jobs.WindowTrust`) on the runs lane as the home
changes, and shows them in the room (what needs you) and the Trust panel; an action that
writes is reviewed first (`review.ChangesReview`), a candidate only compared or put to the
user's model."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Protocol

from PySide6.QtCore import QObject, Qt, SignalInstance, Slot
from PySide6.QtWidgets import QApplication, QWidget

from memtab.check.records import CheckReport
from memtab.components.activity.badges import Badge
from memtab.components.activity.change_batch import ChangeBatch
from memtab.components.check.check import rechecks
from memtab.components.files.ops import OpResult, ref_on_disk
from memtab.components.jobs import plain
from memtab.components.tree.nodes import file_key, ref_key
from memtab.components.trust import jobs as trust_jobs
from memtab.components.trust.changes import keep, move_target
from memtab.components.trust.compare import Comparable, Compared, Judged, finding_key, with_verdicts
from memtab.components.trust.jobs import NotRead, WindowTrust
from memtab.components.trust.review import Proposal, Reviewed
from memtab.components.trust.room import (
    ChangedFile,
    RoomFacts,
    Target,
    agent_name,
    room_sections,
)
from memtab.components.window.settings_news import SettingsChange, SettingsSection
from memtab.file_protocol.file_ref import SourceError, parse_file_ref
from memtab.gui.context import WindowContext, WindowShell
from memtab.gui.tasks.jobs import JobClient, Lane
from memtab.gui.toolkit.clock import qtimer
from memtab.gui.toolkit.keyboard_return import KeyboardReturn, holds_keyboard
from memtab.gui.trust.compare import SideBySideDialog
from memtab.gui.trust.panel import TrustPanel
from memtab.gui.trust.review import ChangesReview
from memtab.gui.trust.room_view import RoomView
from memtab.store.paths import PathError
from memtab.trust.duplicates.records import DuplicateGroup
from memtab.trust.leaks.records import Leak
from memtab.trust.report import TrustReport

FIND_KEY = "trust"
MODEL_KEY = "trust-model"  # which model Ask the model asks, read again as settings change
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
        self._model_read = False  # whether which model to ask was read (it is, with a look)
        self.report: TrustReport | None = None
        """What the last look found, with what the user's model said of its candidates."""
        self._looked: TrustReport | None = None  # the last look's report as found
        self._judged: dict[tuple[str, ...], Judged] = {}  # the model's verdicts, by candidate
        self.model = ""  # the user's model, that Ask the model asks ("": none is set)
        self.status = "Not looked at yet."
        self._facts = RoomFacts()
        self._inbox: int | None = None
        self._check_report: CheckReport | None = None
        self._panel: TrustPanel | None = None
        self.review: ChangesReview | None = None  # the review open (Combine into…, Move)
        self.side_by_side: SideBySideDialog | None = None  # Compare's last
        self._came_from: tuple[str, ...] | None = None  # the row a dialog was opened from
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
        context.settings.published.connect(self._on_settings_published)
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
            panel.compare_requested.connect(self._on_compare_requested)
            panel.move_requested.connect(self._on_move_requested)
            panel.ask_requested.connect(self._on_ask_requested)
            panel.set_model(self.model)
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
        if not self._model_read:
            self._read_model()

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

    def _show(self, looked: TrustReport) -> None:
        self._looked = looked
        report = with_verdicts(looked, self._judged)
        self.report = report
        found = len(report.duplicates) + len(report.contradictions) + len(report.leaks)
        status = f"{found} to look at in {report.files_read} memory files"
        if report.kept:
            status += f" ({report.kept} groups kept as they are)"
        suspected = len(report.duplicate_candidates) + len(report.contradiction_candidates)
        if suspected:
            status += f"; {suspected} more the words only suspect, not counted"
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
        """Combine into…: what it would write is read and reviewed first (`ChangesReview`)."""
        self._came_from = finding_key(group)
        self._context.status.show("Reading the files to combine…")
        self._jobs().submit(
            functools.partial(trust_jobs.propose_combine, self._context.home, group)
        )

    def _review(self, proposal: Proposal) -> None:
        """Show what an action would write; written once the user accepts."""
        dialog = ChangesReview(proposal, self._shell.as_widget())
        dialog.accepted_review.connect(self._on_review_accepted)
        dialog.finished.connect(self._on_review_finished)
        self._context.status.show(f"{proposal.title}: nothing changes until you accept it")
        dialog.open()
        self.review = dialog

    @Slot(int)
    def _on_review_finished(self, _result: int) -> None:
        """The review closed, accepted or not: it is let go, the keyboard back on its row."""
        dialog, self.review = self.review, None
        if dialog is not None:
            dialog.deleteLater()
        self._back_to_row()

    def _back_to_row(self) -> None:
        """The keyboard back in the panel on the row a dialog came from (or the first)."""
        if self._panel is None or not self.dock.isVisible():
            return
        if not self._panel.select_found(self._came_from):
            self._panel.select_first()
        self._panel.window().activateWindow()
        self._panel.tree.setFocus(Qt.FocusReason.OtherFocusReason)

    @Slot(object, object)
    def _on_review_accepted(self, reviewed: Reviewed, text: str | None) -> None:
        stack = self._context.undo_stack
        job = functools.partial(trust_jobs.write, self._context.home, stack, reviewed, text)
        self._run(job, [change.place.path for change in reviewed.files if change.changes])

    @Slot(object)
    def _on_keep_requested(self, group: DuplicateGroup) -> None:
        home, stack = self._context.home, self._context.undo_stack
        self._run(plain(keep, stack, home, group), ())

    @Slot(object)
    def _on_move_requested(self, leak: Leak) -> None:
        if move_target(leak) is None:
            return
        self._came_from = finding_key(leak)
        self._context.status.show("Reading the file to move…")
        self._jobs().submit(functools.partial(trust_jobs.propose_move, self._context.home, leak))

    @Slot(bool)
    def _on_undo_requested(self, redo: bool) -> None:
        self._context.actions.action("files.redo" if redo else "files.undo").trigger()

    @Slot(object)
    def _on_compare_requested(self, found: Comparable) -> None:
        self._came_from = finding_key(found)
        self._jobs().submit(functools.partial(trust_jobs.read_compared, self._context.home, found))

    @Slot(object)
    def _on_ask_requested(self, found: Comparable) -> None:
        """Ask the user's model about a candidate (`trust.judging`, off the GUI thread)."""
        if not self.model:
            return
        self._context.status.show(f"Asking {self.model}…")
        self._jobs().submit(functools.partial(trust_jobs.ask_model, self._context.home, found))

    def _read_model(self) -> None:
        self._model_read = True
        self._jobs().submit_latest(MODEL_KEY, trust_jobs.configured_model)

    @Slot(int, object)
    def _on_client_finished(self, _job_id: int, result: object) -> None:
        if isinstance(result, OpResult):
            self._context.status.show(
                result.message if result.ok else f"{result.message}: {result.error}"
            )
            self.find_now()  # what changed is looked at again at once
        elif isinstance(result, Compared):
            self._show_compared(result)
        elif isinstance(result, Proposal):
            self._review(result)
        elif isinstance(result, Judged):
            self._on_judged(result)

    def _on_judged(self, judged: Judged) -> None:
        """What the model said: a candidate it confirms becomes a finding it judged, one it
        dismisses stays apart with its reason."""
        key = finding_key(judged.found)
        if judged.confirmed is not None and key is not None:
            self._judged[key] = judged
        self._context.status.show(judged.said())
        if self._looked is not None:
            self._show(self._looked)

    @Slot(int, str)
    def _on_client_failed(self, _job_id: int, message: str) -> None:
        self._context.status.show(f"Could not do it: {message}")

    def _show_compared(self, read: Compared) -> None:
        dialog = SideBySideDialog(read, self._shell.as_widget())
        dialog.open_requested.connect(self.open_target)
        dialog.finished.connect(self._on_compare_finished)
        dialog.setModal(True)
        dialog.show()
        self.side_by_side = dialog

    @Slot(int)
    def _on_compare_finished(self, result: int) -> None:
        if result != 1:  # no side opened: the keyboard back where it came from
            self._back_to_row()

    @Slot(str, object)
    def _on_client_latest_finished(self, key: str, result: object) -> None:
        if key == MODEL_KEY and isinstance(result, str):
            self.model = result
            if self._panel is not None:
                self._panel.set_model(result)
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

    @Slot(object)
    def _on_settings_published(self, change: SettingsChange) -> None:
        if change.touches(SettingsSection.MODEL) and self._model_read:
            self._read_model()  # Ask the model asks the model set now

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
