"""Edit → Settings: what users set here is what the CLI and the background jobs read."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from memtab.gui.settings_dialog import SettingsDialog
from memtab.llm.settings import resolve_provider_settings, settings_path
from memtab.writer.config import WriterMode, load_writer_settings


def settings_file() -> Path:
    return settings_path()


def make_dialog(qtbot: QtBot) -> SettingsDialog:
    dialog = SettingsDialog()
    qtbot.addWidget(dialog)
    return dialog


def test_defaults_are_offline_and_nothing_is_written_until_saved(qtbot: QtBot) -> None:
    dialog = make_dialog(qtbot)
    assert dialog.chosen_provider == "offline"
    assert not dialog.model.isEnabled() and not dialog.api_key.isEnabled()
    dialog.reject()
    assert not settings_file().exists()


def test_saving_a_model_is_what_the_engines_resolve(qtbot: QtBot) -> None:
    dialog = make_dialog(qtbot)
    dialog.provider.setCurrentIndex(dialog.provider.findData("openai"))
    dialog.model.setText("llama3.1:8b")
    dialog.base_url.setText("http://localhost:11434/v1/")
    dialog.writer_mode.setCurrentIndex(dialog.writer_mode.findData("always"))
    dialog.writer_timeout.setValue(120)
    dialog.accept()
    assert dialog.result() == dialog.DialogCode.Accepted

    resolved = resolve_provider_settings()
    assert (resolved.provider, resolved.model, resolved.base_url) == (
        "openai",
        "llama3.1:8b",
        "http://localhost:11434/v1",
    )
    writer = load_writer_settings()
    assert writer.mode is WriterMode.ALWAYS and writer.timeout_s == 120
    assert stat.S_IMODE(os.stat(settings_file()).st_mode) == 0o600


def test_a_typed_key_is_stored_privately_and_never_shown_again(qtbot: QtBot) -> None:
    dialog = make_dialog(qtbot)
    dialog.provider.setCurrentIndex(dialog.provider.findData("anthropic"))
    dialog.api_key.setText("sk-ant-test-0123456789abcdef")
    dialog.accept()
    assert resolve_provider_settings().api_key == "sk-ant-test-0123456789abcdef"

    reopened = make_dialog(qtbot)
    assert reopened.api_key.text() == ""
    assert reopened.api_key.echoMode() == reopened.api_key.EchoMode.Password
    assert "unchanged" in reopened.api_key.placeholderText()
    reopened.accept()  # saving again without typing keeps the stored key
    assert resolve_provider_settings().api_key == "sk-ant-test-0123456789abcdef"


def test_unknown_keys_in_the_file_survive(qtbot: QtBot) -> None:
    settings_file().parent.mkdir(parents=True, exist_ok=True)
    settings_file().write_text(json.dumps({"theme": "dark", "writer": {"max_dumps": 7}}))
    dialog = make_dialog(qtbot)
    assert dialog.max_dumps.value() == 7
    dialog.accept()
    stored = json.loads(settings_file().read_text())
    assert stored["theme"] == "dark" and stored["writer"]["max_dumps"] == 7


def test_a_memory_path_outside_the_workspace_scope_is_refused(qtbot: QtBot) -> None:
    dialog = make_dialog(qtbot)
    dialog.memory_path.setText("/memories/global/notes.md")
    dialog.accept()
    assert dialog.result() != dialog.DialogCode.Accepted
    assert dialog.error.isVisibleTo(dialog) and "workspace scope" in dialog.error.text()
    assert not settings_file().exists()


def test_a_corrupt_settings_file_is_reported_and_not_overwritten(qtbot: QtBot) -> None:
    settings_file().parent.mkdir(parents=True, exist_ok=True)
    settings_file().write_text("{broken")
    dialog = make_dialog(qtbot)
    assert "not valid JSON" in dialog.error.text()
    dialog.accept()
    assert settings_file().read_text() == "{broken"
    assert "Could not save" in dialog.error.text()


def test_environment_overrides_are_pointed_out(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMTAB_PROVIDER", "anthropic")
    dialog = make_dialog(qtbot)
    assert dialog.override_note.isVisibleTo(dialog)
    assert "MEMTAB_PROVIDER" in dialog.override_note.text()


def test_the_key_note_says_which_key_is_used_and_why(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    secret = "sk-envOPENAI0123456789abcdefghijkl"
    monkeypatch.setenv("OPENAI_API_KEY", secret)
    dialog = make_dialog(qtbot)
    dialog.provider.setCurrentIndex(dialog.provider.findData("openai"))
    assert "Uses $OPENAI_API_KEY" in dialog.key_note.text()
    assert dialog.api_key.placeholderText() == "from $OPENAI_API_KEY"

    dialog.base_url.setText("http://localhost:11434/v1")
    note = dialog.key_note.text()
    assert "No key is sent: $OPENAI_API_KEY goes only to api.openai.com, not to localhost" in note
    assert dialog.api_key.placeholderText() == "not set"

    dialog.api_key.setText("typed-key-for-this-server")
    assert "Uses the key saved in the settings file" in dialog.key_note.text()
    assert secret not in dialog.key_note.text() and "typed-key" not in dialog.key_note.text()


def test_plain_http_to_another_machine_is_not_saved(qtbot: QtBot) -> None:
    dialog = make_dialog(qtbot)
    dialog.provider.setCurrentIndex(dialog.provider.findData("openai"))
    dialog.base_url.setText("http://192.168.1.20:11434/v1")
    assert "plain http://" in dialog.key_note.text()
    dialog.accept()
    assert dialog.result() != dialog.DialogCode.Accepted
    assert "plain http://" in dialog.error.text() and "192.168.1.20:11434" in dialog.error.text()
    assert not settings_file().exists()
