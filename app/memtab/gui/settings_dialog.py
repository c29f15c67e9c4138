"""Edit → Settings: which model consolidates and writes memories, and how the writer runs.

Everything is stored in Memtab's `settings.json` (mode 0600, unknown keys kept), the same
file the CLI reads; the consolidator and the writer re-read it for every run, so a change
applies from the next run on. Environment variables still win over the file, and the
dialog says so when they are set. Under the key field it says which key requests will
carry and why (never the key): `$ANTHROPIC_API_KEY`/`$OPENAI_API_KEY` only reach their
official API, so a custom base URL needs a key typed here or `$MEMTAB_API_KEY`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from PySide6.QtCore import Slot
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QLabel,
    QLineEdit,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from memtab.gui.style import mute
from memtab.llm.endpoints import base_url_problem
from memtab.llm.settings import (
    DEFAULT_BASE_URLS,
    DEFAULT_MODELS,
    MEMTAB_KEY_VAR,
    ProviderName,
    ProviderSettings,
    load_settings_file,
    save_provider_settings,
    settings_path,
    with_key,
)
from memtab.llm.types import ProviderError
from memtab.writer.config import (
    MAX_TIMEOUT_S,
    MIN_TIMEOUT_S,
    OfflineNotes,
    WriterMode,
    WriterSettings,
    memory_path_problem,
    parse_writer_settings,
    save_writer_settings,
)

PROVIDER_CHOICES: tuple[tuple[ProviderName, str], ...] = (
    ("offline", "Offline — Memtab's built-in rules, no model"),
    ("anthropic", "Anthropic (Claude)"),
    ("openai", "OpenAI-compatible (OpenAI, Ollama, llama.cpp, vLLM, LM Studio, OpenRouter)"),
)
WRITER_MODES: tuple[tuple[WriterMode, str], ...] = (
    (WriterMode.AUTO, "Automatic — step aside where mux runs its own writer"),
    (WriterMode.ALWAYS, "Always — also on workspaces mux writes"),
    (WriterMode.OFF, "Off — only `memtab write` runs it"),
)
_OVERRIDE_VARIABLES = ("MEMTAB_PROVIDER", "MEMTAB_MODEL", "MEMTAB_BASE_URL", MEMTAB_KEY_VAR)
_STORAGE_NOTE = (
    "A key typed here is stored in the settings file (readable only by you) and never "
    "written to logs, dumps or the journal."
)


class SettingsDialog(QDialog):
    """The settings form; `accept()` saves, and stays open with the reason if it cannot."""

    def __init__(self, parent: QWidget | None = None, env: Mapping[str, str] | None = None):
        super().__init__(parent)
        self.setWindowTitle("Memtab settings")
        self.setObjectName("settingsDialog")
        self._env = os.environ if env is None else env
        self._stored_provider: str | None = None
        self._stored_key = False  # read once in _load: no disk reads while the form is used
        self._offline_notes = OfflineNotes.SUGGEST
        self._build()
        self._load()

    # -- building ------------------------------------------------------------------------

    def _build(self) -> None:
        self.provider = QComboBox(self)
        self.provider.setAccessibleName("Model provider")
        for name, label in PROVIDER_CHOICES:
            self.provider.addItem(label, name)
        self.provider.currentIndexChanged.connect(self._on_provider_current_index_changed)
        self.model = QLineEdit(self)
        self.model.setAccessibleName("Model")
        self.base_url = QLineEdit(self)
        self.base_url.setAccessibleName("Base URL")
        self.base_url.textChanged.connect(self._on_key_inputs_changed)
        self.api_key = QLineEdit(self)
        self.api_key.setAccessibleName("API key")
        self.api_key.setEchoMode(QLineEdit.EchoMode.Password)
        self.api_key.textChanged.connect(self._on_key_inputs_changed)
        self.key_note = QLabel(self)
        self.key_note.setObjectName("keyNote")
        self.key_note.setWordWrap(True)
        mute(self.key_note)

        model_box = QGroupBox("Model for consolidation and the memory writer", self)
        model_form = QFormLayout(model_box)
        model_form.addRow("&Provider:", self.provider)
        model_form.addRow("&Model:", self.model)
        model_form.addRow("&Base URL:", self.base_url)
        model_form.addRow("API &key:", self.api_key)
        model_form.addRow("", self.key_note)

        self.writer_mode = QComboBox(self)
        self.writer_mode.setAccessibleName("Writer mode")
        for mode, label in WRITER_MODES:
            self.writer_mode.addItem(label, mode.value)
        self.writer_timeout = QDoubleSpinBox(self)
        self.writer_timeout.setAccessibleName("Writer timeout")
        self.writer_timeout.setRange(MIN_TIMEOUT_S, MAX_TIMEOUT_S)
        self.writer_timeout.setDecimals(0)
        self.writer_timeout.setSuffix(" s")
        self.memory_path = QLineEdit(self)
        self.memory_path.setAccessibleName("Writer memory file")
        self.dump_successful = QCheckBox("Also keep trace dumps of successful runs", self)
        self.max_dumps = QSpinBox(self)
        self.max_dumps.setAccessibleName("Trace dumps kept per workspace")
        self.max_dumps.setRange(1, 10_000)

        writer_box = QGroupBox("Background memory writer", self)
        writer_form = QFormLayout(writer_box)
        writer_form.addRow("&Runs:", self.writer_mode)
        writer_form.addRow("&Timeout per run:", self.writer_timeout)
        writer_form.addRow("Memory &file:", self.memory_path)
        writer_form.addRow("Trace dumps &kept:", self.max_dumps)
        writer_form.addRow("", self.dump_successful)

        self.override_note = QLabel(self)
        self.override_note.setWordWrap(True)
        self.error = QLabel(self)
        self.error.setObjectName("settingsError")
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #c0392b;")
        self.error.hide()
        self.location = QLabel(f"Stored in {settings_path(self._env)}", self)
        mute(self.location)

        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel, self
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addWidget(model_box)
        layout.addWidget(writer_box)
        layout.addWidget(self.override_note)
        layout.addWidget(self.error)
        layout.addWidget(self.location)
        layout.addWidget(buttons)

    # -- reading and writing -------------------------------------------------------------

    def _load(self) -> None:
        try:
            stored = load_settings_file(settings_path(self._env))
        except ProviderError as error:
            stored = {}
            self._show_error(f"{error.message}. Saving will not overwrite it until it is fixed.")
        provider = stored.get("provider") if isinstance(stored.get("provider"), str) else None
        self._stored_provider = provider
        self._stored_key = bool(stored.get("api_key"))
        index = self.provider.findData(provider or "offline")
        self.provider.setCurrentIndex(max(index, 0))
        self.model.setText(stored.get("model") or "")
        self.base_url.setText(stored.get("base_url") or "")
        self._on_provider_current_index_changed()
        writer = parse_writer_settings(stored.get("writer"))
        self.writer_mode.setCurrentIndex(self.writer_mode.findData(writer.mode.value))
        self.writer_timeout.setValue(writer.timeout_s)
        self.memory_path.setText(writer.memory_path)
        self.dump_successful.setChecked(writer.dump_successful_runs)
        self.max_dumps.setValue(writer.max_dumps)
        self._offline_notes = writer.offline_notes  # no field for it yet: kept as stored
        overrides = [name for name in _OVERRIDE_VARIABLES if self._env.get(name, "").strip()]
        self.override_note.setVisible(bool(overrides))
        self.override_note.setText(
            f"Set in the environment, {', '.join(overrides)} override these settings."
        )

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
        self.model.setPlaceholderText(DEFAULT_MODELS[provider])
        self.base_url.setPlaceholderText(DEFAULT_BASE_URLS.get(provider, ""))
        self._on_key_inputs_changed()

    def _preview(self) -> ProviderSettings:
        """What the form would resolve to, key included, without reading the disk."""
        provider = self.chosen_provider
        preview = ProviderSettings(
            provider=provider,
            model=self.model.text().strip() or DEFAULT_MODELS[provider],
            base_url=self.base_url.text().strip().rstrip("/") or DEFAULT_BASE_URLS[provider],
        )
        # The same order as resolve_provider_settings: $MEMTAB_API_KEY (unless it is tied to
        # another provider), then the typed or saved key, then the provider's variable.
        env_provider = self._env.get("MEMTAB_PROVIDER", "").strip().lower()
        memtab_key = self._env.get(MEMTAB_KEY_VAR, "").strip()
        if memtab_key and env_provider in ("", provider):
            return with_key(preview, self._env, memtab_key, MEMTAB_KEY_VAR)
        typed = self.api_key.text().strip()
        kept = provider == self._stored_provider and self._stored_key
        # The saved key itself is not read back: a stand-in says "there is one", which is
        # all the note needs (it never shows a key).
        return with_key(preview, self._env, typed or ("saved key" if kept else None))

    @Slot()
    def _on_key_inputs_changed(self) -> None:
        provider = self.chosen_provider
        preview = self._preview()
        if provider == "offline":
            self.api_key.setPlaceholderText("")
            self.key_note.setText(preview.key_note())
            return
        if provider == self._stored_provider and self._stored_key:
            self.api_key.setPlaceholderText("unchanged (a key is saved)")
        elif preview.api_key_env:
            self.api_key.setPlaceholderText(f"from ${preview.api_key_env}")
        else:
            self.api_key.setPlaceholderText("not set")
        problem = base_url_problem(preview.base_url)
        note = f"{problem[0].upper()}{problem[1:]}." if problem else preview.key_note()
        local = " Local servers such as Ollama need no key." if provider == "openai" else ""
        self.key_note.setText(f"{note}{local} {_STORAGE_NOTE}")

    def _show_error(self, message: str) -> None:
        self.error.setText(message)
        self.error.setVisible(bool(message))

    def accept(self) -> None:
        """Validate and save; on a problem say why and stay open (nothing is written)."""
        problem = memory_path_problem(self.memory_path.text().strip())
        if problem:
            self._show_error(problem)
            self.memory_path.setFocus()
            return
        provider = self.chosen_provider
        base_url = self.base_url.text().strip().rstrip("/")
        url_problem = base_url_problem(base_url) if base_url and provider != "offline" else None
        if url_problem:
            self._show_error(f"Not saved: {url_problem}.")
            self.base_url.setFocus()
            return
        writer = WriterSettings(
            mode=WriterMode(self.writer_mode.currentData()),
            timeout_s=self.writer_timeout.value(),
            memory_path=self.memory_path.text().strip(),
            dump_successful_runs=self.dump_successful.isChecked(),
            max_dumps=self.max_dumps.value(),
            offline_notes=self._offline_notes,
        )
        model = ProviderSettings(
            provider=provider,
            model=self.model.text().strip() or DEFAULT_MODELS[provider],
            base_url=base_url,
            api_key=self.api_key.text().strip() or None,
        )
        try:
            save_provider_settings(model, env=self._env)
            save_writer_settings(writer, env=self._env)
        except (ProviderError, OSError) as error:
            message = error.message if isinstance(error, ProviderError) else str(error)
            self._show_error(f"Could not save the settings: {message}")
            return
        super().accept()
