"""File → Settings: which model consolidates and writes memories, how the writer runs and
other agents' memory, saved to `settings.json` (0600, unknown keys kept) and published on
the window's context. A key belongs to the provider and host it was typed for
(docs/formats.md §12.3).
"""

from __future__ import annotations

import functools
import os
from collections.abc import Mapping, Sequence
from typing import Any

from PySide6.QtCore import QEvent, QObject, QSize, Qt, Signal, Slot
from PySide6.QtGui import QCloseEvent, QKeySequence, QPalette, QResizeEvent, QShortcut
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QFrame,
    QGridLayout,
    QGroupBox,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QTabWidget,
    QToolButton,
    QVBoxLayout,
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
from memtab.components.settings.jobs import local_servers, looked_for, probe_connection
from memtab.components.settings.model_form import (
    CANCEL_TEST_LABEL,
    FIND_LABEL,
    FIND_TIP,
    FINDING_LABEL,
    NOT_SAVED_KEY_HOST,
    TEST_CANCELLED,
    TEST_LABEL,
    ModelForm,
    before_search,
    key_question,
    local_server_used,
    override_note,
    search_failed,
    searched,
    searching,
    server_row,
)
from memtab.consolidation.review.review_setting import (
    ConsolidationSettings,
    load_review_mode,
    save_review_mode,
)
from memtab.file_protocol.file_ref import AGENT_TITLES, OTHER_AGENTS, Agent
from memtab.fs.config.declared import Setting, declared_settings
from memtab.fs.config.settings_file import SettingsFileError, load_settings_file, settings_path
from memtab.fs.records import Record, RecordError
from memtab.gui.settings.agent_server import AgentServerBox
from memtab.gui.tasks.jobs import JobClient, JobService, Lane
from memtab.gui.toolkit import dialog_layout
from memtab.gui.toolkit.dialog_layout import (
    button_box,
    fit_to_screen,
    message_box,
)
from memtab.gui.toolkit.screen_room import room_on
from memtab.gui.toolkit.style import Accent, accent_text, mute
from memtab.gui.toolkit.widgets import ElidedLabel, W, WrappedLabel, hbox, named, vbox
from memtab.llm.endpoints import DEFAULT_BASE_URLS
from memtab.llm.local_servers import KNOWN_SERVERS, LocalServer, ServerKind
from memtab.llm.probe import ProbeResult
from memtab.llm.saved_keys import SavedKeys
from memtab.llm.settings import DEFAULT_MODELS, ProviderName, save_provider_settings
from memtab.llm.settings_model import ProviderSection, provider_section, read_provider_section
from memtab.llm.types import ProviderError
from memtab.sources.config import (
    AgentSettings,
    load_home_overrides,
    load_sources_settings,
    save_agent_settings,
)
from memtab.store.home import Home
from memtab.writer.config import WriterSettings

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
        vbox(hbox((self.status, 1), self.find_button), self._rows, on=self)

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

    @Slot(str, object)
    def _on_client_latest_finished(self, _key: str, servers: object) -> None:
        assert isinstance(servers, list)
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
        self._searched()

    def _searched(self) -> None:
        self.find_button.setEnabled(True)
        self.find_button.setText(FIND_LABEL)
        self.searched.emit()

    def _on_use_clicked(
        self, server: LocalServer, models: QComboBox, _checked: bool = False
    ) -> None:
        self.use_requested.emit(server, models.currentText())

    @Slot(str, str)
    def _on_client_latest_failed(self, _key: str, message: str) -> None:
        self.status.setText(search_failed(message))
        self._searched()


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
        self._env = env
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
            looked = mute(QLabel(LOOKING if home is not None else "", self), wrap=True)
            grid.addWidget(check, 2 * row, 0)
            grid.addWidget(path, 2 * row, 1)
            grid.addWidget(looked, 2 * row + 1, 1)
            self.enabled[agent], self.paths[agent], self.looked[agent] = check, path, looked
        isolated = home is not None and load_home_overrides(home).isolated
        self.note = mute(
            QLabel(sources_note(self._stored.problems, isolated=isolated), self), wrap=True
        )
        self.note.setVisible(bool(self.note.text()))
        grid.addWidget(self.note, 2 * len(OTHER_AGENTS), 0, 1, 2)
        if home is not None:
            self._client = jobs.client("sources-settings", Lane.JOBS, parent=self)
            self._client.latest_finished.connect(self._on_client_latest_finished)
            self._client.latest_failed.connect(self._on_client_latest_failed)
            job = functools.partial(looked_for, home, dict(env))
            self._client.submit_latest(DISCOVERY_KEY, job)

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

    @Slot(str, object)
    def _on_client_latest_finished(self, key: str, looked: object) -> None:
        assert isinstance(looked, list)
        for agent in OTHER_AGENTS:
            self.looked[agent].setText(looked_for_text(agent, looked))

    @Slot(str, str)
    def _on_client_latest_failed(self, key: str, message: str) -> None:
        for agent in OTHER_AGENTS:
            self.looked[agent].setText(look_failed(message))


DIALOG_ROWS = 150
"""px: what a settings dialog holds besides its page — the tabs, the notes under them, the
file it is stored in and the buttons (measured 100 at 1366×768, the notes 2 lines more)."""
MIN_HEIGHT = 160


class ScrollingPage(QScrollArea):
    """`widgets` one above the other, scrolling vertically (see the module docstring)."""

    def __init__(self, widgets: Sequence[QWidget], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setWidgetResizable(False)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self._content = QWidget(self)
        self._column = QVBoxLayout(self._content)
        for widget in widgets:
            self._column.addWidget(widget)
        self._column.addStretch(1)
        self.setWidget(self._content)
        self._content.installEventFilter(self)

    def _extra_width(self) -> int:
        bar = self.verticalScrollBar().sizeHint().width()
        margins = self.contentsMargins()
        return bar + margins.left() + margins.right()

    def _content_height(self, width: int) -> int:
        column = self._column
        if column.hasHeightForWidth():
            return column.heightForWidth(width)
        return column.sizeHint().height()

    def max_height(self) -> int:
        """The most height the page asks for: what its screen leaves a dialog's page."""
        room = room_on(dialog_layout.available_geometry(self)).height()
        return max(room - DIALOG_ROWS, MIN_HEIGHT)

    def sizeHint(self) -> QSize:
        """The content's width (and room for the scroll bar), its height up to what the
        screen leaves it (`max_height`)."""
        width = self._content.sizeHint().width()
        height = self._content_height(width)
        return QSize(width + self._extra_width(), min(height, self.max_height()))

    def minimumSizeHint(self) -> QSize:
        """The content's least width (it never scrolls sideways), a few lines of height."""
        return QSize(self._content.minimumSizeHint().width() + self._extra_width(), MIN_HEIGHT)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_content()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """The content's layout changed (a text, a row shown): fit it again, the window
        grown to show it where the screen has room."""
        if watched is self._content and event.type() == QEvent.Type.LayoutRequest:
            self._fit_content()
            self._grow_window()
        return False

    def _grow_window(self) -> None:
        """The shown page's content outgrew it (an install's outcome, a longer line): its
        window grows by that much, as far as its screen allows; it never shrinks."""
        window = self.window()
        if window is self or not self.isVisible():
            return
        needed = self._content_height(self.viewport().width()) - self.viewport().height()
        if needed <= 0:
            return
        room = room_on(dialog_layout.available_geometry(window)).height()
        height = min(window.height() + needed, room)
        if height > window.height():
            window.resize(window.width(), height)

    def _fit_content(self) -> None:
        """As wide as the viewport, as tall as that width makes the content (at least the
        viewport's height, so its stretch takes the rest)."""
        width = self.viewport().width()
        height = max(self._content_height(width), self.viewport().height())
        if self._content.size() != QSize(width, height):
            self._content.resize(width, height)


class SectionBox(QGroupBox):
    """A settings section's controls, made from its declaration (`fs/config/declared.py`) in its
    order (`Setting.row`), the flags last: a check box for a flag, a list for choices, a spin box
    for a number (its least but one: `unset`), a line for a text; its help their tooltip."""

    def __init__(self, title: str, section: type[Record], parent: QWidget | None = None) -> None:
        super().__init__(title, parent)
        self._section = section
        self.controls: dict[str, QWidget] = {}
        self.form = QFormLayout(self)
        by_row = sorted(declared_settings(section), key=lambda p: (p[0].type is bool, p[1].row))
        for field, setting in by_row:  # made in rows' order: Tab's too
            control = self.controls[field.name] = _control(field.type, setting, self)
            named(control, accessible=setting.accessible, tip=setting.help)
            self.form.addRow("" if isinstance(control, QCheckBox) else setting.label, control)

    def control(self, name: str, kind: type[W]) -> W:
        """The control of field `name`, a `kind`."""
        control = self.controls[name]
        assert isinstance(control, kind)
        return control

    def load(self, values: Record) -> None:
        """Show `values`: a choice in any case (one not listed, or none: the first), no text as
        blank."""
        for name, control in self.controls.items():
            value: Any = getattr(values, name)
            if isinstance(control, QCheckBox):
                control.setChecked(value)
            elif isinstance(control, QComboBox):
                control.setCurrentIndex(max(control.findData(str(value).strip().lower()), 0))
            elif isinstance(control, QSpinBox | QDoubleSpinBox):
                value = control.minimum() if value is None else value
                control.setValue(value)
            elif isinstance(control, QLineEdit):
                control.setText(value or "")

    def control_of(self, refused: RecordError) -> QWidget:
        """The control of the setting `refused` (from `settings()`) names."""
        fields: dict[object, str] = {s.name: f.name for f, s in declared_settings(self._section)}
        return self.controls[fields[refused.where[0]]]

    def settings(self) -> Any:
        """The section the controls say (RecordError when one is refused)."""
        values: dict[str, Any] = {}
        for name, control in self.controls.items():
            if isinstance(control, QCheckBox):
                values[name] = control.isChecked()
            elif isinstance(control, QComboBox):
                values[name] = control.currentData()
            elif isinstance(control, QSpinBox | QDoubleSpinBox):
                unset = control.specialValueText() and control.value() == control.minimum()
                values[name] = None if unset else control.value()
            elif isinstance(control, QLineEdit):
                values[name] = control.text().strip()
        return self._section(**values)


def _control(kind: Any, setting: Setting, parent: QWidget) -> QWidget:
    """The control a setting of type `kind` is shown in (see `SectionBox`)."""
    if kind is bool:
        return QCheckBox(setting.label, parent)
    if setting.choices:
        choices = QComboBox(parent)
        for value, words in setting.choices.items():
            choices.addItem(words, value)
        return choices
    if setting.within is None:
        return QLineEdit(parent)
    least, most = setting.within
    number = QSpinBox(parent) if kind is int else QDoubleSpinBox(parent)
    if isinstance(number, QDoubleSpinBox):
        number.setDecimals(0)
    number.setRange(int(least - bool(setting.unset)), int(most))
    number.setSpecialValueText(setting.unset)
    number.setSuffix(f" {setting.unit}" if setting.unit else "")
    return number


def confirm_key_host(parent: QWidget, typed_for: str, host: str, action: str) -> bool:
    """Ask before a key typed for origin `typed_for` goes to origin `host` (`action`:
    "Send" or "Save"); True to go ahead."""
    question = key_question(typed_for, host, action)
    box, (confirm, _) = message_box(
        parent,
        QMessageBox.Icon.Warning,
        "Use the key for another host?",
        question.text,
        question.informative,
        [(question.confirm, QMessageBox.ButtonRole.AcceptRole), QMessageBox.StandardButton.Cancel],
    )
    box.exec()
    return box.clickedButton() is confirm


WRITER_PAGE = 1  # the pages' order: Model, Memory writer, Other agents
PROBE_KEY = "connection-test"


class SettingsDialog(QDialog):
    """The settings form; `accept()` saves, and stays open with the reason if it cannot."""

    def __init__(
        self,
        parent: QWidget | None = None,
        env: Mapping[str, str] | None = None,
        *,
        jobs: JobService,
        home: Home | None = None,
        local_server_kinds: Sequence[ServerKind] = KNOWN_SERVERS,
    ):
        """`jobs`: the window's job service (a connection test, the looks, on its lanes);
        `home`: the window's, for where other agents' memory was looked for;
        `local_server_kinds`: the local model servers *Find local servers* asks for."""
        super().__init__(parent)
        self._jobs = jobs
        self._home = home
        self._local_server_kinds = local_server_kinds
        self.setWindowTitle("Memtab settings")
        self.setObjectName("settingsDialog")
        self._env = os.environ if env is None else env
        # Its keys filled once in _load: no disk reads while the form is used.
        self._form = ModelForm(self._env)
        self._switching = False  # the key field is being filled for another provider
        self._probes: JobClient | None = None  # made with the first test
        self._build()
        self._load()
        # Opened at its size hint, each page as tall as the screen leaves it (`ScrollingPage`):
        # a window's first show holds it to 2/3 of the screen, which cut Other agents.
        fit_to_screen(self, QSize(0, 0))

    def _build(self) -> None:
        self.model_box = model_box = SectionBox(
            "Model for consolidation and the memory writer", ProviderSection, self
        )
        self.provider = model_box.control("provider", QComboBox)
        self.provider.currentIndexChanged.connect(self._on_provider_current_index_changed)
        self.model = model_box.control("model", QLineEdit)
        self.base_url = model_box.control("base_url", QLineEdit)
        self.base_url.textChanged.connect(self._on_key_inputs_changed)
        self.api_key = named(QLineEdit(self), accessible="API key")
        self.api_key.setEchoMode(QLineEdit.EchoMode.Password)
        self.api_key.textChanged.connect(self._on_api_key_text_changed)
        self.forget_key = QToolButton(self)
        self.forget_key.setText("&Forget")
        self.forget_key.setAutoRaise(True)
        self.forget_key.setToolTip("Remove the key saved for this provider and host on Save")
        self.forget_key.clicked.connect(self._on_forget_key_clicked)
        key_row = hbox((self.api_key, 1), self.forget_key)
        self.key_note = mute(named(WrappedLabel("", self), "keyNote"))
        # Room for the longest note: a shown dialog does not grow when the text does.
        self.key_note.setMinimumHeight(self.key_note.fontMetrics().lineSpacing() * 4)
        self.test_button = named(QPushButton(TEST_LABEL, self), "testConnection")
        self.test_button.setToolTip(
            "Send one small request with the values above (saved or not) and say how it went"
        )
        self.test_button.clicked.connect(self._on_test_button_clicked)
        # Its own row, wrapping across the form's width: a long error is read whole.
        self.test_result = named(WrappedLabel("", self), "testResult")
        self.test_result.setTextFormat(Qt.TextFormat.PlainText)
        self.test_result.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        test_row = hbox(self.test_button, 1)

        [(_, review)] = ConsolidationSettings.declared()
        self.review_first = named(QCheckBox(review.label, self), tip=review.help)

        key_label = QLabel("API &key:", self)
        key_label.setBuddy(self.api_key)
        model_box.form.addRow(key_label, key_row)
        # One field-column widget for the texts under the key: a form sizes a wrapped text
        # in a row of its own as if at its narrowest (a word a line), leaving gaps.
        below = QWidget(model_box)
        vbox(self.key_note, test_row, self.test_result, self.review_first, on=below, margins=0)
        model_box.form.addRow("", below)
        self.local_servers = LocalServersBox(self._jobs, self._local_server_kinds, self)
        self.local_servers.use_requested.connect(self._on_local_servers_use_requested)

        self.writer = SectionBox("Background memory writer", WriterSettings, self)

        self.override_note = WrappedLabel("", self)
        self.error = named(WrappedLabel("", self), "settingsError")
        self.error.setStyleSheet("color: #c0392b;")
        self.error.hide()
        self.location = mute(ElidedLabel(f"Stored in {settings_path(self._env)}", self))

        buttons = button_box(
            self, QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
        )

        self.sources_box = SourcesSettingsBox(self._home, self._env, self._jobs, self)
        agents_page: list[QWidget] = [self.sources_box]
        self.agent_server_box: AgentServerBox | None = None
        if self._home is not None:
            self.agent_server_box = AgentServerBox(self._home, self._env, self._jobs, self)
            agents_page.append(self.agent_server_box)

        # Three pages, each scrolling: the dialog fits a 768-px screen whatever the texts.
        self.pages = named(QTabWidget(self), "settingsPages")
        self.pages.addTab(ScrollingPage([model_box, self.local_servers], self), "Model")
        self.pages.addTab(ScrollingPage([self.writer], self), "Memory writer")
        self.pages.addTab(ScrollingPage(agents_page, self), "Other agents")
        # Before the focused control: a list or a number would take the keys for its value.
        for key, step in (("Ctrl+PgDown", 1), ("Ctrl+PgUp", -1)):
            QShortcut(QKeySequence(key), self).activated.connect(
                functools.partial(self._turn, step)
            )
        vbox((self.pages, 1), self.override_note, self.error, self.location, buttons, on=self)

    def _turn(self, step: int) -> None:
        self.pages.setCurrentIndex((self.pages.currentIndex() + step) % self.pages.count())

    def _load(self) -> None:
        path = settings_path(self._env)
        problems: list[str] = []
        try:
            stored = load_settings_file(path)
        except SettingsFileError as error:
            stored = {}
            problems.append(f"{error}. Saving will not overwrite it until it is fixed.")
        try:
            section = read_provider_section(stored, path)
        except SettingsFileError as error:
            section = ProviderSection()
            problems.append(f"{error}. Saving replaces it with the values below.")
        self._form.load({name: SavedKeys.of(section).origins(name) for name in DEFAULT_MODELS})
        # Said even when a value elsewhere is refused: a save keeps these keys either way.
        problems.extend(SavedKeys.of(provider_section(stored)).problems("the settings file"))
        self._on_provider_current_index_changed()  # shown: the fields are its own
        self.model_box.load(section)
        self.writer.load(WriterSettings.parsed(stored.get(WriterSettings.SECTION)))
        self.review_first.setChecked(load_review_mode(self._env) == "review-first")
        overrides = override_note(self._env)
        self.override_note.setVisible(bool(overrides))
        self.override_note.setText(overrides)
        self._show_error(" ".join(problems))

    @property
    def chosen_provider(self) -> ProviderName:
        name: ProviderName = self.provider.currentData()
        return name

    @Slot()
    def _on_provider_current_index_changed(self) -> None:
        provider = self.chosen_provider
        offline = provider == "offline"
        for field in (self.model, self.base_url, self.api_key):
            field.setEnabled(not offline)
        self.test_button.setEnabled(not offline or self._testing())
        self.model.setPlaceholderText(DEFAULT_MODELS[provider])
        self.base_url.setPlaceholderText(DEFAULT_BASE_URLS.get(provider, ""))
        switch = self._form.switch(provider, self.model.text(), self.base_url.text())
        if switch is not None:
            if switch.left:
                self._forget_test_result()  # it was about the provider left
            self._switching = True
            try:
                self.model.setText(switch.model)
                self.base_url.setText(switch.base_url)
                self.api_key.setText(switch.key)
            finally:
                self._switching = False
        self._on_key_inputs_changed()

    @Slot(str)
    def _on_api_key_text_changed(self, text: str) -> None:
        """A key typed belongs to the chosen provider at the base URL's host now."""
        if not self._switching:
            self._form.keys.type(self.chosen_provider, self._origin(), text)
        self._on_key_inputs_changed()

    @Slot()
    def _on_forget_key_clicked(self) -> None:
        place = self._form.place(self.chosen_provider, self.base_url.text())
        if place is not None:
            self._form.keys.forget.add(place)
        self._on_key_inputs_changed()

    def _origin(self) -> str:
        """The origin requests go to with the form as it is ('' offline or unparsable)."""
        return self._form.origin(self.chosen_provider, self.base_url.text())

    @Slot()
    def _on_key_inputs_changed(self) -> None:
        view = self._form.key_view(self.chosen_provider, self.model.text(), self.base_url.text())
        self.forget_key.setVisible(view.forget_shown)
        self.api_key.setPlaceholderText(view.placeholder)
        self.key_note.setText(view.note)

    def _key_may_go_here(self, action: str) -> bool:
        """Whether the typed key may be used with the base URL as it is now: it was typed
        for this host, or the user says it may go there (then it belongs to it)."""
        here = self._origin()
        elsewhere = self._form.keys.elsewhere(self.chosen_provider, here)
        if elsewhere is None:
            return True
        if not here or not confirm_key_host(self, elsewhere.origin, here, action):
            return False
        self._form.keys.move(self.chosen_provider, here)
        self._on_key_inputs_changed()
        return True

    @Slot(object, str)
    def _on_local_servers_use_requested(self, server: LocalServer, model: str) -> None:
        """Fill the form with a local server: its OpenAI-compatible API, the model."""
        self.provider.setCurrentIndex(self.provider.findData("openai"))
        self.base_url.setText(server.base_url)
        self.model.setText(model)
        self._show_test_result(local_server_used(model, server.title), None)

    def _show_error(self, message: str) -> None:
        self.error.setText(message)
        self.error.setVisible(bool(message))

    def _testing(self) -> bool:
        return self._probes is not None and self._probes.is_busy(PROBE_KEY)

    @Slot()
    def _on_test_button_clicked(self) -> None:
        if self._probes is None:
            # The runs lane: a probe may wait for its timeout (30 s).
            self._probes = self._jobs.client("connection-test", Lane.RUNS, parent=self)
            self._probes.latest_finished.connect(self._on_probes_latest_finished)
            self._probes.latest_failed.connect(self._on_probes_latest_failed)
            self._probes.job_cancelled.connect(self._on_probes_job_cancelled)
            self._probes.idle.connect(self._on_probes_idle)
        elif self._probes.is_busy(PROBE_KEY):
            self._probes.cancel_latest(PROBE_KEY)
            return
        if not self._key_may_go_here("Send"):
            self._show_test_result(
                self._form.not_sent(self.chosen_provider, self.base_url.text()), None
            )
            return
        model, base_url = self.model.text(), self.base_url.text()
        preview = self._form.preview(self.chosen_provider, model, base_url)  # no disk read
        untested = self._form.untested(preview)
        if untested is not None:
            self._show_test_result(untested, None)
            return
        self._probes.submit_latest(
            PROBE_KEY,
            functools.partial(
                probe_connection,
                self.chosen_provider,
                model,
                base_url,
                self._form.typed_here(self.chosen_provider, base_url),  # for this host
                dict(self._env),
            ),
        )
        self.test_button.setText(CANCEL_TEST_LABEL)
        self._show_test_result(f"Testing {preview.describe()}…", None)

    @Slot(str, object)
    def _on_probes_latest_finished(self, key: str, result: object) -> None:
        assert isinstance(result, ProbeResult)
        self._show_test_result(result.summary, Accent.SUCCESS if result.ok else Accent.ERROR)
        self.test_result.setToolTip(result.detail or "")

    @Slot(str, str)
    def _on_probes_latest_failed(self, key: str, message: str) -> None:
        self._show_test_result(f"The test failed: {message}", Accent.ERROR)

    @Slot(int)
    def _on_probes_job_cancelled(self, job_id: int) -> None:
        self._show_test_result(TEST_CANCELLED, None)

    @Slot()
    def _on_probes_idle(self) -> None:
        """The test has ended (its outcome shown): its client is not kept around."""
        self._stop_testing()
        self.test_button.setText(TEST_LABEL)
        self.test_button.setEnabled(self.chosen_provider != "offline")

    def _forget_test_result(self) -> None:
        """Clear the last test's outcome (a test under way is cancelled: it tests a form
        that is no longer shown)."""
        if self._probes is not None and self._testing():
            self._probes.cancel_latest(PROBE_KEY)
        self._show_test_result("", None)
        self.test_result.setToolTip("")

    def _show_test_result(self, text: str, accent: Accent | None) -> None:
        self.test_result.setText(text)
        palette = self.test_result.palette()
        color = (
            accent_text(palette, accent)
            if accent is not None
            else self.palette().color(QPalette.ColorRole.WindowText)
        )
        palette.setColor(QPalette.ColorRole.WindowText, color)
        self.test_result.setPalette(palette)

    def _stop_testing(self) -> None:
        """Cancel a test under way and let its client go (a probe ends within ~50 ms of
        being cancelled, so this does not keep the GUI waiting)."""
        if self._probes is not None:
            self._probes.shutdown(timeout_ms=2000)
            self._probes.deleteLater()
            self._probes = None

    def done(self, result: int) -> None:
        """Closing the dialog (Save, Cancel, Esc) cancels a test under way."""
        self._stop_testing()
        self.local_servers.shutdown()
        self.sources_box.shutdown()
        if self.agent_server_box is not None:
            self.agent_server_box.shutdown()
        super().done(result)

    def closeEvent(self, event: QCloseEvent) -> None:
        self._stop_testing()
        super().closeEvent(event)

    def accept(self) -> None:
        """Validate and save; on a problem say why and stay open (nothing is written)."""
        try:  # the writer's values checked as its declaration checks them
            writer = self.writer.settings()
        except RecordError as refused:
            self._show_error(refused.reason)
            self.pages.setCurrentIndex(WRITER_PAGE)
            self.writer.control_of(refused).setFocus()
            return
        provider = self.chosen_provider
        url_problem = self._form.url_problem(provider, self.base_url.text())
        if url_problem:
            self._show_error(url_problem)
            self.base_url.setFocus()
            return
        if provider != "offline" and not self._key_may_go_here("Save"):
            self._show_error(NOT_SAVED_KEY_HOST)
            self.api_key.setFocus()
            return
        model = self._form.to_save(provider, self.model.text(), self.base_url.text())
        try:
            save_provider_settings(  # keys typed for other providers are saved for them
                model,
                env=self._env,
                other_keys=self._form.keys.others(provider),
                forget=frozenset(self._form.keys.forget),
            )
            writer.save(self._env)
            save_review_mode(
                "review-first" if self.review_first.isChecked() else "apply-directly",
                env=self._env,
            )
            self.sources_box.save()
        except (ProviderError, SettingsFileError, OSError) as error:
            message = error.message if isinstance(error, ProviderError) else str(error)
            self._show_error(f"Could not save the settings: {message}")
            return
        super().accept()
