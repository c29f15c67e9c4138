"""File → Sync…: set sync up (remote, scopes, a test, the first sync with its progress), then
change it or stop it. Everything that reads the disk or the remote runs off the GUI thread
(`components.sync.setup`); it fits beside a terminal (683 px).
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from PySide6.QtCore import QSize, Slot
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QGroupBox,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from memtab.components.jobs import JobFunction
from memtab.components.sync.setup import (
    CANCELLED,
    INTRO,
    PLACEHOLDER,
    SAVED,
    SETTING_UP,
    STOPPING,
    STOPPING_SYNC,
    Refused,
    ScopeChoice,
    SetupState,
    check_connection,
    checked_at_first,
    connecting_text,
    current_text,
    first_sync_text,
    primary_label,
    problem_text,
    read_setup,
    scope_choices,
    set_up,
    setup_controls,
    stop_syncing,
    target_of,
)
from memtab.components.sync.status import SyncLook
from memtab.fs.clock import now_ms
from memtab.gui.context import WindowContext
from memtab.gui.sync.service import WindowSync
from memtab.gui.tasks.jobs import JobClient, Lane
from memtab.gui.toolkit.dialog_layout import fit_to_screen
from memtab.gui.toolkit.widgets import WrappedLabel, chain_tab_order, hbox, named, vbox
from memtab.sync.repository.layout import DEFAULT_TARGET, SyncedScope


class SyncSetupDialog(QDialog):
    """File → Sync… (see the module docstring)."""

    def __init__(
        self, context: WindowContext, sync: WindowSync, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("syncSetupDialog")
        self.setWindowTitle("Sync")
        self._context = context
        self._sync = sync
        # Reads on the jobs lane; the remote (seconds, a timeout) on the runs lane.
        self._reads = self._client(Lane.JOBS)
        self._remote = self._client(Lane.RUNS)
        self._job: tuple[int, Callable[[object], None]] | None = None
        self._syncing = False  # the first sync, on the window's sync, is ours to follow
        self.state: SetupState | None = None
        self.choices: list[ScopeChoice] = []
        self.boxes: list[QCheckBox] = []

        self.intro = WrappedLabel(INTRO, self)
        self.current = named(WrappedLabel("", self), "syncSetupCurrent")
        self.remote = named(QLineEdit(self), "syncRemote", accessible="Remote")
        self.remote.setPlaceholderText(PLACEHOLDER)
        self.remote.setClearButtonEnabled(True)
        self.remote.textChanged.connect(self._enable)
        self.test = QPushButton("&Test connection", self)
        self.test.setAutoDefault(False)
        self.test.setToolTip("Ask the remote for its branches with your credentials (no change)")
        self.test.clicked.connect(self.test_connection)
        remote_label = QLabel("&Remote", self)
        remote_label.setBuddy(self.remote)
        self.scopes = QGroupBox("What syncs", self)
        self._scopes_layout = QVBoxLayout(self.scopes)
        self.progress = QProgressBar(self)
        self.progress.setRange(0, 0)  # busy: a sync's steps have no known length
        self.progress.setTextVisible(False)
        self.progress.setMaximumHeight(8)
        self.progress.hide()
        self.message = named(WrappedLabel("", self), "syncSetupMessage")

        self.primary = QPushButton("&Start first sync", self)
        self.primary.setDefault(True)
        self.primary.clicked.connect(self.apply)
        self.stop = QPushButton("Stop s&yncing", self)
        self.stop.setAutoDefault(False)
        self.stop.setToolTip("This machine stops syncing; the repository keeps what it holds")
        self.stop.clicked.connect(self.stop_syncing)
        self.cancel = QPushButton("Cancel", self)
        self.cancel.setAutoDefault(False)
        self.cancel.clicked.connect(self.cancel_running)
        self.close_button = QPushButton("Close", self)
        self.close_button.setAutoDefault(False)
        self.close_button.clicked.connect(self.close)
        buttons = hbox(self.stop, 1, self.primary, self.cancel, self.close_button)
        vbox(
            self.intro,
            self.current,
            hbox(remote_label, (self.remote, 1), self.test),
            self.scopes,
            self.progress,
            self.message,
            1,
            buttons,
            on=self,
        )
        sync.progress.connect(self._on_sync_progress)
        sync.finished.connect(self._on_sync_finished)
        fit_to_screen(self, QSize(600, 0))
        self._show_state()

    @property
    def busy(self) -> bool:
        """Whether it reads, tests, sets up, or follows the first sync."""
        return self._job is not None or self._syncing

    def reload(self) -> None:
        """Read the set-up (on the worker), then show it."""
        self._run(
            self._reads, functools.partial(read_setup, self._context.home), self._on_state_read
        )

    def test_connection(self) -> None:
        """Ask the remote for its branches (on the worker); say what it holds or why not."""
        remote = self.remote.text().strip()
        self._say(connecting_text(remote), busy=True)
        home, git = self._context.home, self._sync.git_program
        self._run(
            self._remote, functools.partial(check_connection, home, remote, git), self._on_tested
        )

    def apply(self) -> None:
        """Start first sync (set up, then sync), or save a change of the remote or scopes."""
        remote = self.remote.text().strip()
        scopes = self.chosen_scopes()
        target = target_of(self.state)
        name = target.name if target is not None else DEFAULT_TARGET
        self._say(connecting_text(remote), busy=True)
        job = functools.partial(
            set_up, self._context.home, remote, scopes, self._sync.git_program, name
        )
        self._run(self._remote, job, functools.partial(self._on_set_up, target is None))

    def stop_syncing(self) -> None:
        """Stop syncing the target shown (its repository stays)."""
        target = target_of(self.state)
        if target is None:
            return
        job = functools.partial(
            stop_syncing, self._context.home, target.name, self._sync.git_program
        )
        self._say(STOPPING, busy=True)
        self._run(self._reads, job, self._on_stopped)

    def cancel_running(self) -> None:
        """Cancel what runs: the test, the set-up, or the first sync."""
        if self._job is not None:
            if not self._reads.cancel(self._job[0]):
                self._remote.cancel(self._job[0])
        elif self._syncing:
            self._say(STOPPING_SYNC, busy=True)
            self._sync.cancel()

    def chosen_scopes(self) -> tuple[SyncedScope, ...]:
        return tuple(
            c.scope for c, box in zip(self.choices, self.boxes, strict=True) if box.isChecked()
        )

    def shutdown(self) -> None:
        self._reads.shutdown()
        self._remote.shutdown()

    def _show_state(self) -> None:
        state = self.state
        target = target_of(state)
        self.choices = scope_choices(self._context.shown.workspace, target)
        for box in self.boxes:
            box.deleteLater()
        self.boxes = []
        for choice in self.choices:
            box = named(QCheckBox(choice.label, self.scopes), tip=choice.detail)
            box.setChecked(checked_at_first(choice, target))
            box.toggled.connect(self._enable)
            self._scopes_layout.addWidget(box)
            self.boxes.append(box)
        # Made now, after the buttons: Tab goes through them where they are, not last.
        chain_tab_order([self.test, *self.boxes, self.stop, self.primary])
        if target is not None:
            self.remote.setText(target.remote)
        self.current.setText(current_text(state, now_ms()))
        self.current.setVisible(bool(self.current.text()))
        self.primary.setText(primary_label(target))
        self._enable()

    def _enable(self) -> None:
        controls = setup_controls(
            self.state, self.remote.text(), self.chosen_scopes(), busy=self.busy
        )
        self.remote.setEnabled(controls.remote)
        self.scopes.setEnabled(controls.scopes)
        self.test.setEnabled(controls.test)
        self.primary.setEnabled(controls.primary)
        self.stop.setVisible(controls.stop_shown)
        self.stop.setEnabled(controls.stop)
        self.cancel.setVisible(controls.cancel_shown)
        self.progress.setVisible(controls.progress_shown)

    def _say(self, text: str, *, busy: bool = False) -> None:
        self.message.setText(text)
        if busy:
            self.progress.show()
            self.cancel.show()

    def _client(self, lane: Lane) -> JobClient:
        client = self._context.jobs.client("sync-setup", lane, parent=self)
        client.job_finished.connect(self._on_client_job_finished)
        client.job_failed.connect(self._on_client_job_failed)
        client.job_cancelled.connect(self._on_client_job_cancelled)
        return client

    def _run(self, client: JobClient, job: JobFunction, then: Callable[[object], None]) -> None:
        self._job = (client.submit(job), then)
        self._enable()

    @Slot(int, object)
    def _on_client_job_finished(self, job_id: int, result: object) -> None:
        if self._job is None or self._job[0] != job_id:
            return
        then = self._job[1]
        self._job = None
        if isinstance(result, Refused):
            self._say(f"{result.message}.")
        else:
            then(result)
        self._enable()

    @Slot(int, str)
    def _on_client_job_failed(self, job_id: int, message: str) -> None:
        if self._job is None or self._job[0] != job_id:
            return
        self._job = None
        self._say(f"Failed: {message}")
        self._enable()

    @Slot(int)
    def _on_client_job_cancelled(self, job_id: int) -> None:
        if self._job is None or self._job[0] != job_id:
            return
        self._job = None
        self._say(CANCELLED)
        self._enable()
        self.reload()

    def _on_state_read(self, result: object) -> None:
        if isinstance(result, SetupState):
            self.state = result
            self._show_state()
            self.remote.setFocus()  # (disabled while it was read: typing goes here now)
            if (problem := problem_text(result)) is not None:
                self._say(problem)

    def _on_tested(self, result: object) -> None:
        self._say(f"✓ {result}.")

    def _on_set_up(self, first: bool, _target: object) -> None:
        self._sync.look_again()
        self._syncing = self._syncing or first
        self._say(SETTING_UP if first else SAVED, busy=first)
        self._sync.sync_now()
        if not first:
            self.reload()

    def _on_stopped(self, result: object) -> None:
        self._say(f"{result}.")
        self._sync.look_again()
        self.reload()

    @Slot(str)
    def _on_sync_progress(self, line: str) -> None:
        if self._syncing:
            self.message.setText(f"{line}…")

    @Slot(object)
    def _on_sync_finished(self, look: object) -> None:
        if not self._syncing or self._sync.syncing:  # not ours, or ours is still to come
            return
        self._syncing = False
        self._say(first_sync_text(look if isinstance(look, SyncLook) else None))
        self._enable()
        self.reload()
