"""Settings → Other agents → Memtab for your agents: which agents have Memtab's MCP server
(`memtab mcp`, docs/formats.md §22.6) in their configuration, read on a worker thread
(Claude Code's ~/.claude.json may be megabytes), and the command that connects the others."""

from __future__ import annotations

import functools
from collections.abc import Mapping

from PySide6.QtCore import Qt, Slot
from PySide6.QtWidgets import QGroupBox, QLabel, QVBoxLayout, QWidget

from memtab.agent_server.install import AGENTS, registrations
from memtab.gui.tasks.runner import TaskContext, TaskRunner
from memtab.gui.toolkit.style import mute
from memtab.store.home import Home

LOOK_KEY = "agent-server-registrations"


def _look(home: Home, env: Mapping[str, str], _context: TaskContext) -> list[tuple[str, bool]]:
    return registrations(home, env)


class AgentServerBox(QGroupBox):
    """One line per agent: connected to Memtab's MCP server, or how to connect it."""

    def __init__(self, home: Home, env: Mapping[str, str], parent: QWidget | None = None):
        super().__init__("Memtab for your agents (MCP)", parent)
        self.setObjectName("agentServerSettings")
        layout = QVBoxLayout(self)
        intro = QLabel(
            "Agents that connect to `memtab mcp` list, search and read this memory; their "
            "changes wait in the Inbox for you.",
            self,
        )
        intro.setWordWrap(True)
        mute(intro)
        layout.addWidget(intro)
        self.lines: list[QLabel] = []
        for _ in AGENTS:
            line = QLabel("Looking…", self)
            line.setWordWrap(True)
            line.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            layout.addWidget(line)
            self.lines.append(line)
        self._runner = TaskRunner("agent-server-settings", parent=self)
        self._runner.latest_finished.connect(self._on_runner_latest_finished)
        self._runner.latest_failed.connect(self._on_runner_latest_failed)
        self._runner.submit_latest(LOOK_KEY, functools.partial(_look, home, dict(env)))

    def shutdown(self) -> None:
        """Stop the worker (the dialog closes)."""
        self._runner.shutdown(timeout_ms=2000)

    @Slot(str, object)
    def _on_runner_latest_finished(self, key: str, found: object) -> None:
        assert isinstance(found, list)
        for label, (text, _connected) in zip(self.lines, found, strict=True):
            label.setText(text)

    @Slot(str, str)
    def _on_runner_latest_failed(self, key: str, message: str) -> None:
        for label in self.lines:
            label.setText(f"Could not look: {message}")
