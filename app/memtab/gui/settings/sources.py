"""Settings → Other agents' memory: on/off and path per agent, and where Memtab looked.

One row per agent (Claude Code, Codex, loki-mode): a check box turns it on or off, a path
overrides where its memory is looked for (empty: the agent's own variable, else its
default directory), and a line under it says where Memtab looked and what it found.
That line comes from a discovery run off the GUI thread when the box is shown (it stats
directories, which a network home may make slow); it describes the saved settings.

Saving goes through `sources.config.save_agent_settings` (settings.json, under a lock,
keeping the other agents' entries): the same settings `memtab sources --enable/--path`
writes. A home with its own sources (the demo's `memtab/sources.json`) ignores them, and
the box says so.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Mapping

from PySide6.QtCore import Slot
from PySide6.QtWidgets import (
    QCheckBox,
    QGridLayout,
    QGroupBox,
    QLabel,
    QLineEdit,
    QWidget,
)

from memtab.components.settings.agents_view import (
    LOOKING,
    changed_agents,
    chosen_settings,
    default_text,
    look_failed,
    looked_for_text,
    path_tip,
    sources_note,
)
from memtab.components.settings.jobs import looked_for
from memtab.file_protocol.file_ref import AGENT_TITLES, OTHER_AGENTS, Agent
from memtab.gui.tasks.jobs import JobClient, JobService, Lane
from memtab.gui.toolkit.style import mute
from memtab.sources.config import (
    AgentSettings,
    load_home_overrides,
    load_sources_settings,
    save_agent_settings,
)
from memtab.store.home import Home

logger = logging.getLogger(__name__)

DISCOVERY_KEY = "discover-sources"


class SourcesSettingsBox(QGroupBox):
    """The settings of other agents' memory (see the module docstring)."""

    def __init__(
        self,
        home: Home | None,
        env: Mapping[str, str],
        jobs: JobService,
        parent: QWidget | None = None,
    ) -> None:
        """The stored settings; where discovery looks runs on `jobs`' jobs lane."""
        super().__init__("Other agents' memory", parent)
        self.setObjectName("sourcesSettings")
        self._home = home
        self._env = env
        self._jobs = jobs
        self._stored = load_sources_settings(env)
        self._client: JobClient | None = None
        self.enabled: dict[Agent, QCheckBox] = {}
        self.paths: dict[Agent, QLineEdit] = {}
        self.looked: dict[Agent, QLabel] = {}
        grid = QGridLayout(self)
        grid.setColumnStretch(1, 1)
        for row, agent in enumerate(OTHER_AGENTS):
            settings = self._stored.agent(agent)
            check = QCheckBox(AGENT_TITLES[agent], self)
            check.setChecked(settings.enabled)
            path = QLineEdit(settings.path or "", self)
            path.setAccessibleName(f"{AGENT_TITLES[agent]} directory")
            path.setPlaceholderText(default_text(agent))
            path.setToolTip(path_tip(agent))
            check.toggled.connect(path.setEnabled)
            path.setEnabled(settings.enabled)
            looked = QLabel(LOOKING if home is not None else "", self)
            looked.setWordWrap(True)
            mute(looked)
            grid.addWidget(check, 2 * row, 0)
            grid.addWidget(path, 2 * row, 1)
            grid.addWidget(looked, 2 * row + 1, 1)
            self.enabled[agent], self.paths[agent], self.looked[agent] = check, path, looked
        self.note = QLabel(self)
        self.note.setWordWrap(True)
        mute(self.note)
        self.note.hide()
        grid.addWidget(self.note, 2 * len(OTHER_AGENTS), 0, 1, 2)
        isolated = home is not None and load_home_overrides(home).isolated
        if home is not None:
            self._look()
        note = sources_note(self._stored.problems, isolated=isolated)
        if note:
            self.note.setText(note)
            self.note.show()

    def chosen(self, agent: Agent) -> AgentSettings:
        """What the form says for `agent` (a path made absolute, `~` expanded)."""
        return chosen_settings(self.enabled[agent].isChecked(), self.paths[agent].text())

    def save(self) -> bool:
        """Store the agents whose settings changed; True when anything was."""
        chosen = {agent: self.chosen(agent) for agent in OTHER_AGENTS}
        changed = changed_agents(self._stored, chosen)
        for agent, settings in changed:
            save_agent_settings(agent, settings, env=self._env)
        return bool(changed)

    def shutdown(self) -> None:
        """Drop a discovery under way (the dialog closes)."""
        if self._client is not None:
            self._client.shutdown(timeout_ms=2000)
            self._client.deleteLater()
            self._client = None

    def _look(self) -> None:
        assert self._home is not None
        self._client = self._jobs.client("sources-settings", Lane.JOBS, parent=self)
        self._client.latest_finished.connect(self._on_client_latest_finished)
        self._client.latest_failed.connect(self._on_client_latest_failed)
        self._client.submit_latest(
            DISCOVERY_KEY, functools.partial(looked_for, self._home, dict(self._env))
        )

    @Slot(str, object)
    def _on_client_latest_finished(self, key: str, looked: object) -> None:
        assert isinstance(looked, list)
        for agent in OTHER_AGENTS:
            self.looked[agent].setText(looked_for_text(agent, looked))

    @Slot(str, str)
    def _on_client_latest_failed(self, key: str, message: str) -> None:
        for agent in OTHER_AGENTS:
            self.looked[agent].setText(look_failed(message))
