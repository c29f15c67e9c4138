"""Settings → Other agents → Memtab for your agents: which agents have `memtab mcp`
registered (docs/formats.md §22.6), with Install (asking first) and Remove, run on the job
service; whether their sessions get a warm server (§22.8)."""

from __future__ import annotations

import functools
from collections.abc import Mapping

from PySide6.QtCore import Qt, Slot
from PySide6.QtWidgets import (
    QGridLayout,
    QGroupBox,
    QLabel,
    QMessageBox,
    QPushButton,
    QWidget,
)

from memtab.agent_server.agents import AGENTS
from memtab.agent_server.install import install_on_home, planned_changes
from memtab.agent_server.uninstall import uninstall_agent
from memtab.components.jobs import plain
from memtab.components.settings.agents_view import (
    LOOKING,
    SERVER_INTRO,
    InstallQuestion,
    change_failed,
    changed,
    changing,
    install_question,
    look_failed,
    server_row,
    server_tip,
)
from memtab.components.settings.jobs import AgentServerLook, agent_server_registrations
from memtab.gui.tasks.jobs import JobService, Lane
from memtab.gui.toolkit.dialog_layout import message_box
from memtab.gui.toolkit.style import Accent, accent_text, mute
from memtab.gui.toolkit.widgets import named, vbox
from memtab.store.home import Home

LOOK_KEY = "agent-server-registrations"
CHANGE_KEY = "agent-server-change"


class AgentServerBox(QGroupBox):
    """One line per agent: registered (and where its changes go), or not, with the button
    that changes that; below, whether their sessions get a warm server and what the last
    change did."""

    def __init__(
        self, home: Home, env: Mapping[str, str], jobs: JobService, parent: QWidget | None = None
    ):
        super().__init__("Memtab for your agents (MCP)", parent)
        self.setObjectName("agentServerSettings")
        self._home = home
        self._env = dict(env)
        intro = mute(QLabel(SERVER_INTRO, self), wrap=True)
        self.refusal = QLabel("", self)  # a demo home's: why it changes no agent's files
        self.refusal.setObjectName("agentServerRefusal")
        self.refusal.setWordWrap(True)
        self.refusal.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        palette = self.refusal.palette()
        palette.setColor(self.refusal.foregroundRole(), accent_text(palette, Accent.WARNING))
        self.refusal.setPalette(palette)
        self.refusal.hide()
        grid = QGridLayout()
        grid.setVerticalSpacing(2)  # four agents' rows, and an outcome, fit 768 px unscrolled
        self.lines: list[QLabel] = []
        self.buttons: list[QPushButton] = []
        self._registered: list[bool] = [False] * len(AGENTS)
        for row, agent in enumerate(AGENTS):
            line = QLabel(LOOKING, self)
            line.setWordWrap(True)
            line.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            button = QPushButton("Install", self)
            button.setObjectName(f"agentServer-{agent}")
            button.setToolTip(server_tip(agent, False))
            button.hide()
            button.clicked.connect(functools.partial(self._on_button_clicked, row))
            grid.addWidget(line, row, 0)
            grid.addWidget(button, row, 1, Qt.AlignmentFlag.AlignTop)
            self.lines.append(line)
            self.buttons.append(button)
        grid.setColumnStretch(0, 1)
        self.warm_line = mute(named(QLabel(LOOKING, self), "agentServerWarm"), wrap=True)
        self.warm_line.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.result = named(QLabel("", self), "agentServerResult")
        self.result.setWordWrap(True)
        self.result.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.result.hide()
        vbox(intro, self.refusal, grid, self.warm_line, self.result, on=self)
        self._runner = jobs.client("agent-server-settings", Lane.JOBS, parent=self)
        self._runner.latest_finished.connect(self._on_runner_latest_finished)
        self._runner.latest_failed.connect(self._on_runner_latest_failed)
        self._look()

    def shutdown(self) -> None:
        """Drop the look or change under way (the dialog closes; a change already running
        is waited for, briefly)."""
        self._runner.shutdown(timeout_ms=2000)

    def _look(self) -> None:
        self._runner.submit_latest(
            LOOK_KEY, functools.partial(agent_server_registrations, self._home, self._env)
        )

    def _on_button_clicked(self, row: int, _checked: bool = False) -> None:
        agent, registered = AGENTS[row], self._registered[row]
        if not registered:
            changes = planned_changes(agent, self._home, self._env)
            if not confirm_install(self, install_question(agent, str(self._home.root), changes)):
                return  # nothing changed
        change = uninstall_agent if registered else install_on_home
        for button in self.buttons:
            button.setEnabled(False)
        self.result.setText(changing(agent, registered))
        self.result.show()
        self._runner.submit_latest(CHANGE_KEY, plain(change, agent, self._home, self._env))

    @Slot(str, object)
    def _on_runner_latest_finished(self, key: str, found: object) -> None:
        if key == CHANGE_KEY:
            assert isinstance(found, list)
            self.result.setText(changed(found))
            self._look()
            return
        assert isinstance(found, AgentServerLook)
        self.warm_line.setText(found.warm)
        self.refusal.setText(found.refusal or "")
        self.refusal.setVisible(found.refusal is not None)
        for row, registration in enumerate(found.registrations):
            shown = server_row(registration, demo=found.refusal is not None)
            self.lines[row].setText(shown.text)
            self._registered[row] = shown.registered
            button = self.buttons[row]
            button.setText(shown.button)
            button.setToolTip(shown.tip)
            button.setVisible(shown.offered)
            button.setEnabled(True)

    @Slot(str, str)
    def _on_runner_latest_failed(self, key: str, message: str) -> None:
        if key == CHANGE_KEY:
            self.result.setText(change_failed(message))
            self._look()
            return
        for label in [*self.lines, self.warm_line]:
            label.setText(look_failed(message))


def confirm_install(parent: QWidget, question: InstallQuestion) -> bool:
    """Ask before Install changes an agent's files; True to go ahead (Enter installs,
    Escape cancels)."""
    box, (confirm, _) = message_box(
        parent,
        QMessageBox.Icon.Question,
        question.title,
        question.text,
        question.informative,
        [(question.confirm, QMessageBox.ButtonRole.AcceptRole), QMessageBox.StandardButton.Cancel],
        default=0,
    )
    box.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    for label in box.findChildren(QLabel):  # long paths and commands never widen it
        label.setWordWrap(True)
    box.exec()
    return box.clickedButton() is confirm
