"""Settings → Model → Local model servers: finds Ollama, LM Studio, llama.cpp or vLLM on
this machine's loopback ports off the GUI thread, and *Use* fills the form with one.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Sequence

from PySide6.QtCore import Signal, Slot
from PySide6.QtWidgets import (
    QComboBox,
    QGridLayout,
    QGroupBox,
    QLabel,
    QPushButton,
    QWidget,
)

from memtab.components.settings.jobs import local_servers
from memtab.components.settings.model_form import (
    FIND_LABEL,
    FIND_TIP,
    FINDING_LABEL,
    before_search,
    search_failed,
    searched,
    searching,
    server_row,
)
from memtab.gui.tasks.jobs import JobClient, JobService, Lane
from memtab.gui.toolkit.style import mute
from memtab.gui.toolkit.widgets import WrappedLabel, hbox, named, vbox
from memtab.llm.local_servers import KNOWN_SERVERS, LocalServer, ServerKind

logger = logging.getLogger(__name__)

FIND_KEY = "local-servers"


class LocalServersBox(QGroupBox):
    """The local model servers found, each with its models and a Use button."""

    use_requested = Signal(object, str)  # use this `LocalServer` with this model
    searched = Signal()  # a search ended (its servers, or why it failed, are shown)

    def __init__(
        self,
        jobs: JobService,
        kinds: Sequence[ServerKind] = KNOWN_SERVERS,
        parent: QWidget | None = None,
    ) -> None:
        """An empty box; `search()` (or its button) looks for `kinds` on this machine (on
        `jobs`' jobs lane: it returns within about a timeout, 0.6 s)."""
        super().__init__("Local model servers", parent)
        self._jobs = jobs
        self._kinds = tuple(kinds)
        self._servers: list[LocalServer] = []
        self._client: JobClient | None = None
        self.find_button = named(QPushButton(FIND_LABEL, self), tip=FIND_TIP)
        self.find_button.clicked.connect(self.search)
        self.status = named(WrappedLabel(before_search(self._kinds), self), "localServersStatus")
        mute(self.status)
        self._rows = QGridLayout()
        self._rows.setContentsMargins(0, 0, 0, 0)
        self._rows.setColumnStretch(1, 1)
        self._row_widgets: list[QWidget] = []
        top = hbox((self.status, 1), self.find_button)
        vbox(top, self._rows, on=self)

    @property
    def servers(self) -> list[LocalServer]:
        return list(self._servers)

    @property
    def busy(self) -> bool:
        return self._client is not None and self._client.is_busy(FIND_KEY)

    @Slot()
    def search(self) -> None:
        """Look for the servers (off the GUI thread); the list follows when it ends."""
        if self._client is None:
            self._client = self._jobs.client("local-servers", Lane.JOBS, parent=self)
            self._client.latest_finished.connect(self._on_client_latest_finished)
            self._client.latest_failed.connect(self._on_client_latest_failed)
        self.find_button.setEnabled(False)
        self.find_button.setText(FINDING_LABEL)
        self.status.setText(searching(self._kinds))
        self._client.submit_latest(FIND_KEY, functools.partial(local_servers, self._kinds))

    def shutdown(self) -> None:
        """Stop a search under way (the dialog closes; a search ends within ~50 ms)."""
        client, self._client = self._client, None
        if client is not None:
            client.shutdown(timeout_ms=2000)

    def _show(self, servers: list[LocalServer]) -> None:
        self._servers = servers
        for widget in self._row_widgets:
            self._rows.removeWidget(widget)
            widget.deleteLater()
        self._row_widgets = []
        self.status.setText(searched(self._kinds, servers))
        for row, server in enumerate(servers):
            view = server_row(server)
            name = named(QLabel(view.name, self), tip=view.name_tip)
            models = named(QComboBox(self), accessible=view.models_name)
            models.addItems(list(view.models))
            models.setEnabled(view.usable)
            use = named(QPushButton("Use", self), accessible=view.use_name, tip=view.use_tip)
            use.setEnabled(view.usable)
            use.clicked.connect(functools.partial(self._on_use_clicked, server, models))
            for column, widget in enumerate((name, models, use)):
                self._rows.addWidget(widget, row, column)
                self._row_widgets.append(widget)

    def _searched(self) -> None:
        self.find_button.setEnabled(True)
        self.find_button.setText(FIND_LABEL)
        self.searched.emit()

    def _on_use_clicked(
        self, server: LocalServer, models: QComboBox, _checked: bool = False
    ) -> None:
        self.use_requested.emit(server, models.currentText())

    @Slot(str, object)
    def _on_client_latest_finished(self, _key: str, result: object) -> None:
        assert isinstance(result, list)
        self._show(result)
        self._searched()

    @Slot(str, str)
    def _on_client_latest_failed(self, _key: str, message: str) -> None:
        self.status.setText(search_failed(message))
        self._searched()
