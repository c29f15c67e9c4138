"""File → Settings: what users set here is what the CLI and the background jobs read."""

from __future__ import annotations

import json
import os
import socket
import stat
from collections.abc import Sequence
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QFormLayout, QMessageBox, QPushButton
from pytestqt.qtbot import QtBot

from memtab.components.settings.model_form import (
    CANCEL_TEST_LABEL,
    FINDING_LABEL,
    NO_KEY_NOTE,
    TEST_LABEL,
    UNTESTED_NO_KEY,
)
from memtab.fs.config.declared import declared_settings
from memtab.fs.config.settings_file import settings_path
from memtab.gui.settings.dialog import SettingsDialog
from memtab.gui.tasks.jobs import JobService
from memtab.llm.local_servers import ServerKind
from memtab.llm.settings import (
    PROVIDER_NAMES,
    ProviderSettings,
    resolve_provider_settings,
    save_provider_settings,
)
from memtab.llm.settings_model import ProviderSection
from memtab.writer.config import OfflineNotes, WriterMode, WriterSettings, load_writer_settings
from support.fake_model_server import FakeModelServer


def settings_file() -> Path:
    return settings_path()


def make_dialog(
    qtbot: QtBot, jobs: JobService, kinds: Sequence[ServerKind] | None = None
) -> SettingsDialog:
    dialog = (
        SettingsDialog(jobs=jobs)
        if kinds is None
        else SettingsDialog(jobs=jobs, local_server_kinds=kinds)
    )
    qtbot.addWidget(dialog)  # held until the test is over (tests/gui/conftest.py)
    return dialog


def test_defaults_are_offline_and_nothing_is_written_until_saved(
    qtbot: QtBot, jobs: JobService
) -> None:
    dialog = make_dialog(qtbot, jobs)
    assert dialog.chosen_provider == "offline"
    assert not dialog.model.isEnabled() and not dialog.api_key.isEnabled()
    dialog.reject()
    assert not settings_file().exists()


def test_saving_a_model_is_what_the_engines_resolve(qtbot: QtBot, jobs: JobService) -> None:
    dialog = make_dialog(qtbot, jobs)
    dialog.provider.setCurrentIndex(dialog.provider.findData("openai"))
    dialog.model.setText("llama3.1:8b")
    dialog.base_url.setText("http://localhost:11434/v1/")
    dialog.writer.controls["mode"].setCurrentIndex(
        dialog.writer.controls["mode"].findData("always")
    )
    dialog.writer.controls["timeout_s"].setValue(120)
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


def test_a_typed_key_is_stored_privately_and_never_shown_again(
    qtbot: QtBot, jobs: JobService
) -> None:
    dialog = make_dialog(qtbot, jobs)
    dialog.provider.setCurrentIndex(dialog.provider.findData("anthropic"))
    dialog.api_key.setText("sk-ant-test-0123456789abcdef")
    dialog.accept()
    assert resolve_provider_settings().api_key == "sk-ant-test-0123456789abcdef"

    reopened = make_dialog(qtbot, jobs)
    assert reopened.api_key.text() == ""
    assert reopened.api_key.echoMode() == reopened.api_key.EchoMode.Password
    assert "unchanged" in reopened.api_key.placeholderText()
    reopened.accept()  # saving again without typing keeps the stored key
    assert resolve_provider_settings().api_key == "sk-ant-test-0123456789abcdef"


def test_unknown_keys_in_the_file_survive(qtbot: QtBot, jobs: JobService) -> None:
    settings_file().parent.mkdir(parents=True, exist_ok=True)
    settings_file().write_text(json.dumps({"theme": "dark", "writer": {"max_dumps": 7}}))
    dialog = make_dialog(qtbot, jobs)
    assert dialog.writer.controls["max_dumps"].value() == 7
    dialog.accept()
    stored = json.loads(settings_file().read_text())
    assert stored["theme"] == "dark" and stored["writer"]["max_dumps"] == 7


def test_a_saved_key_with_no_place_is_said_once_and_kept_by_a_save(
    qtbot: QtBot, jobs: JobService
) -> None:
    """A key for a provider Memtab does not know (a typo), with no base URL, and one
    for an origin without a scheme: neither is sent, and Save keeps both."""
    bogus, unhosted = "sk-ant-typo-0123456789abcdef", "sk-or-v1-nohost-0123456789"
    settings_file().parent.mkdir(parents=True, exist_ok=True)
    settings_file().write_text(
        json.dumps(
            {
                "provider": "antropic",
                "api_key": bogus,
                "api_keys": {"openai": {"openrouter.ai": unhosted}},
            }
        )
    )
    dialog = make_dialog(qtbot, jobs)
    said = dialog.error.text()
    assert dialog.error.isVisibleTo(dialog)
    assert said.count("The key saved for 'antropic' is not used: Memtab knows no provider") == 1
    assert said.count("The key under api_keys for 'openai' is not used: its origin is not") == 1
    assert bogus not in said and unhosted not in said
    dialog.provider.setCurrentIndex(dialog.provider.findData("anthropic"))
    assert dialog.api_key.placeholderText() == "not set"  # the typo's key is not Anthropic's
    dialog.accept()
    assert dialog.result() == dialog.DialogCode.Accepted
    stored = json.loads(settings_file().read_text())
    assert (stored["provider"], "api_key" in stored) == ("anthropic", False)
    assert stored["api_keys"] == {"openai": {"openrouter.ai": unhosted}}
    assert stored["unused_keys"] == [{"provider": "antropic", "api_key": bogus}]
    assert resolve_provider_settings().api_key is None
    reopened = make_dialog(qtbot, jobs)
    assert "The key under unused_keys for 'antropic' is not used" in reopened.error.text()


def test_a_memory_path_outside_the_workspace_scope_is_refused(
    qtbot: QtBot, jobs: JobService
) -> None:
    dialog = make_dialog(qtbot, jobs)
    dialog.writer.controls["memory_path"].setText("/memories/global/notes.md")
    dialog.accept()
    assert dialog.result() != dialog.DialogCode.Accepted
    assert dialog.error.isVisibleTo(dialog) and "workspace scope" in dialog.error.text()
    assert not settings_file().exists()


@pytest.mark.expect_log(
    "memtab.fs.config.declared",
    "WARNING",
    r"settings.json is not valid JSON .*; using the default consolidation settings",
)
def test_a_corrupt_settings_file_is_reported_and_not_overwritten(
    qtbot: QtBot, jobs: JobService
) -> None:
    settings_file().parent.mkdir(parents=True, exist_ok=True)
    settings_file().write_text("{broken")
    dialog = make_dialog(qtbot, jobs)
    assert "not valid JSON" in dialog.error.text()
    dialog.accept()
    assert settings_file().read_text() == "{broken"
    assert "Could not save" in dialog.error.text()


def test_environment_overrides_are_pointed_out(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch, jobs: JobService
) -> None:
    monkeypatch.setenv("MEMTAB_PROVIDER", "anthropic")
    dialog = make_dialog(qtbot, jobs)
    assert dialog.override_note.isVisibleTo(dialog)
    assert "MEMTAB_PROVIDER" in dialog.override_note.text()


def test_the_key_note_says_which_key_is_used_and_why(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch, jobs: JobService
) -> None:
    secret = "sk-envOPENAI0123456789abcdefghijkl"
    monkeypatch.setenv("OPENAI_API_KEY", secret)
    dialog = make_dialog(qtbot, jobs)
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


def test_without_a_key_the_note_says_to_enter_one_above(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch, jobs: JobService
) -> None:
    for variable in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "MEMTAB_API_KEY"):
        monkeypatch.delenv(variable, raising=False)
    dialog = make_dialog(qtbot, jobs)
    dialog.provider.setCurrentIndex(dialog.provider.findData("anthropic"))
    note = dialog.key_note.text()
    assert note.startswith(NO_KEY_NOTE)
    assert "$" not in note and "API_KEY" not in note and "settings file" not in note.split(".")[0]
    dialog.test_button.click()  # nothing to send: it says so, right there
    assert dialog.test_result.text() == UNTESTED_NO_KEY
    dialog.api_key.setText("sk-ant-typed")
    assert not dialog.key_note.text().startswith(NO_KEY_NOTE)
    # A test's outcome is about the provider it tested: switching clears it.
    dialog.provider.setCurrentIndex(dialog.provider.findData("openai"))
    assert dialog.test_result.text() == ""
    dialog.reject()


def test_plain_http_to_another_machine_is_not_saved(qtbot: QtBot, jobs: JobService) -> None:
    dialog = make_dialog(qtbot, jobs)
    dialog.provider.setCurrentIndex(dialog.provider.findData("openai"))
    dialog.base_url.setText("http://192.168.1.20:11434/v1")
    assert "plain http://" in dialog.key_note.text()
    dialog.accept()
    assert dialog.result() != dialog.DialogCode.Accepted
    assert "plain http://" in dialog.error.text() and "192.168.1.20:11434" in dialog.error.text()
    assert not settings_file().exists()


def test_the_writer_ranges_come_from_the_settings_model(qtbot: QtBot, jobs: JobService) -> None:
    dialog = make_dialog(qtbot, jobs)
    within = {field.name: setting.within for field, setting in WriterSettings.declared()}
    least, most = within["timeout_s"]
    timeout = dialog.writer.controls["timeout_s"]
    # one below the least: "Automatic" (unset: 60 s, 300 s with a model on this machine)
    assert (timeout.minimum(), timeout.maximum()) == (least - 1, most)
    assert timeout.value() == timeout.minimum() and timeout.text().startswith("Automatic")
    assert dialog.writer.settings().timeout_s is None
    timeout.setValue(least)
    assert dialog.writer.settings().timeout_s == least
    dumps = dialog.writer.controls["max_dumps"]
    assert (dumps.minimum(), dumps.maximum()) == within["max_dumps"]


def test_offline_notes_can_be_chosen(qtbot: QtBot, jobs: JobService) -> None:
    dialog = make_dialog(qtbot, jobs)
    assert dialog.writer.controls["offline_notes"].currentData() == "suggest"
    dialog.writer.controls["offline_notes"].setCurrentIndex(
        dialog.writer.controls["offline_notes"].findData("write")
    )
    dialog.accept()
    assert load_writer_settings().offline_notes is OfflineNotes.WRITE
    assert make_dialog(qtbot, jobs).writer.controls["offline_notes"].currentData() == "write"


def test_desktop_notifications_are_off_until_ticked(qtbot: QtBot, jobs: JobService) -> None:
    dialog = make_dialog(qtbot, jobs)
    assert not dialog.writer.controls["notify"].isChecked()
    dialog.writer.controls["notify"].setChecked(True)
    dialog.accept()
    assert load_writer_settings().notify is True
    assert make_dialog(qtbot, jobs).writer.controls["notify"].isChecked()


def test_consolidate_now_reviews_first_until_unticked(qtbot: QtBot, jobs: JobService) -> None:
    from memtab.consolidation.review.review_setting import load_review_mode

    dialog = make_dialog(qtbot, jobs)
    assert dialog.review_first.isChecked()
    dialog.review_first.setChecked(False)
    dialog.accept()
    assert load_review_mode() == "apply-directly"
    again = make_dialog(qtbot, jobs)
    assert not again.review_first.isChecked()
    again.review_first.setChecked(True)
    again.accept()
    assert load_review_mode() == "review-first"


def _test_connection(qtbot: QtBot, dialog: SettingsDialog) -> str:
    dialog.test_button.click()
    assert dialog.test_button.text() == CANCEL_TEST_LABEL
    qtbot.waitUntil(lambda: dialog.test_button.text() == TEST_LABEL, timeout=10_000)
    return dialog.test_result.text()


def test_test_connection_uses_the_form_as_it_is_and_saves_nothing(
    qtbot: QtBot, fake_model_server: FakeModelServer, jobs: JobService
) -> None:
    fake_model_server.add_openai_reply(tool_calls=[("report_ready", {"status": "ready"})])
    dialog = make_dialog(qtbot, jobs)
    assert not dialog.test_button.isEnabled()  # offline: nothing to test
    dialog.provider.setCurrentIndex(dialog.provider.findData("openai"))
    dialog.model.setText("llama3.1:8b")
    dialog.base_url.setText(fake_model_server.openai_base_url)
    dialog.api_key.setText("typed-not-saved")
    assert dialog.test_button.isEnabled()
    result = _test_connection(qtbot, dialog)
    assert result.startswith("Connected: fake-model answered in ")
    assert result.endswith(" ms; it calls tools")
    [request] = fake_model_server.requests
    assert request.body["model"] == "llama3.1:8b"
    assert request.headers["authorization"] == "Bearer typed-not-saved"
    assert not settings_file().exists()
    dialog.reject()


def test_test_connection_uses_the_saved_key_and_says_when_it_is_refused(
    qtbot: QtBot, fake_model_server: FakeModelServer, jobs: JobService
) -> None:
    save_provider_settings(
        ProviderSettings(
            "anthropic", "claude-x", fake_model_server.anthropic_base_url, "sk-ant-saved-key"
        )
    )
    fake_model_server.add_error(401, {"error": {"message": "invalid x-api-key"}})
    dialog = make_dialog(qtbot, jobs)
    result = _test_connection(qtbot, dialog)
    assert result.startswith("The API key was refused: the server refused the credentials")
    assert "invalid x-api-key" in result and "sk-ant-saved-key" not in result
    assert fake_model_server.requests[0].headers["x-api-key"] == "sk-ant-saved-key"
    assert "anthropic claude-x at" in dialog.test_result.toolTip()


def test_a_test_under_way_can_be_cancelled_and_closing_cancels_it(
    qtbot: QtBot, fake_model_server: FakeModelServer, jobs: JobService
) -> None:
    fake_model_server.add_openai_reply(text="late", delay=30.0)
    fake_model_server.add_openai_reply(text="late", delay=30.0)
    dialog = make_dialog(qtbot, jobs)
    dialog.provider.setCurrentIndex(dialog.provider.findData("openai"))
    dialog.base_url.setText(fake_model_server.openai_base_url)
    dialog.test_button.click()
    assert dialog.test_result.text().startswith("Testing openai · gpt-4o-mini · http://127.0.0.1")
    qtbot.waitUntil(lambda: len(fake_model_server.requests) == 1, timeout=10_000)
    dialog.test_button.click()  # now "Cancel test"
    qtbot.waitUntil(lambda: dialog.test_button.text() == TEST_LABEL, timeout=5_000)
    assert dialog.test_result.text() == "Test cancelled."

    dialog.test_button.click()
    qtbot.waitUntil(lambda: len(fake_model_server.requests) == 2, timeout=10_000)
    dialog.reject()
    assert fake_model_server.replies_sent == 0, "closing did not wait for the test (30 s)"
    assert not settings_file().exists()


def test_a_malformed_provider_value_is_reported_and_replaced_on_save(
    qtbot: QtBot, jobs: JobService
) -> None:
    settings_file().parent.mkdir(parents=True, exist_ok=True)
    settings_file().write_text(json.dumps({"provider": "openai", "model": 42, "theme": "dark"}))
    dialog = make_dialog(qtbot, jobs)
    assert "'model' must be a string, not 42" in dialog.error.text()
    assert dialog.chosen_provider == "offline" and dialog.model.text() == ""
    dialog.provider.setCurrentIndex(dialog.provider.findData("openai"))
    dialog.model.setText("gpt-x")
    dialog.accept()
    stored = json.loads(settings_file().read_text())
    assert (stored["model"], stored["theme"]) == ("gpt-x", "dark")


def _answer_key_question(button_prefix: str, seen: list[str]) -> None:
    """Click the button starting with `button_prefix` on the key question once it shows."""

    def answer() -> None:
        box = QApplication.activeModalWidget()
        assert isinstance(box, QMessageBox)
        seen.append(box.text())
        next(
            b for b in box.buttons() if b.text().replace("&", "").startswith(button_prefix)
        ).click()

    QTimer.singleShot(0, answer)


def test_a_key_typed_for_anthropic_never_reaches_an_openai_compatible_server(
    qtbot: QtBot, fake_model_server: FakeModelServer, jobs: JobService
) -> None:
    """Issue 19: a key typed for Anthropic (not saved), the provider switched to an
    OpenAI-compatible server on this machine, Test connection: the key stays home."""
    anthropic_key = "sk-ant-typed-0123456789abcdefghij"
    fake_model_server.add_openai_reply(text="OK")
    dialog = make_dialog(qtbot, jobs)
    dialog.provider.setCurrentIndex(dialog.provider.findData("anthropic"))
    qtbot.keyClicks(dialog.api_key, anthropic_key)
    dialog.provider.setCurrentIndex(dialog.provider.findData("openai"))
    dialog.base_url.setText(fake_model_server.openai_base_url)
    assert _test_connection(qtbot, dialog).startswith("Connected")
    [request] = fake_model_server.requests
    assert "authorization" not in request.headers
    assert anthropic_key not in json.dumps(request.headers) + request.raw_body.decode()
    assert dialog.api_key.text() == ""  # OpenAI's own key: none yet

    dialog.provider.setCurrentIndex(dialog.provider.findData("anthropic"))
    assert dialog.api_key.text() == anthropic_key  # still Anthropic's
    dialog.provider.setCurrentIndex(dialog.provider.findData("openai"))
    dialog.accept()
    stored = json.loads(settings_file().read_text())
    assert "api_key" not in stored
    assert stored["api_keys"] == {"anthropic": {"https://api.anthropic.com": anthropic_key}}
    assert resolve_provider_settings().api_key is None
    assert resolve_provider_settings("anthropic").api_key == anthropic_key

    reopened = make_dialog(qtbot, jobs)
    assert reopened.api_key.placeholderText() == "not set"
    reopened.provider.setCurrentIndex(reopened.provider.findData("anthropic"))
    assert "a key is saved for this host" in reopened.api_key.placeholderText()
    reopened.reject()


def test_a_key_goes_to_another_host_only_after_a_question_that_names_it(
    qtbot: QtBot, fake_model_server: FakeModelServer, jobs: JobService
) -> None:
    typed = "sk-typed-for-the-official-api-0123456789"
    fake_model_server.add_openai_reply(text="OK")
    dialog = make_dialog(qtbot, jobs)
    dialog.provider.setCurrentIndex(dialog.provider.findData("openai"))
    qtbot.keyClicks(dialog.api_key, typed)  # typed for api.openai.com
    dialog.base_url.setText(fake_model_server.openai_base_url)
    host = fake_model_server.openai_base_url.removesuffix("/v1")
    assert f"typed for api.openai.com: Memtab asks before it goes to {host}" in (
        dialog.key_note.text()
    )

    seen: list[str] = []
    _answer_key_question("Cancel", seen)
    dialog.test_button.click()
    assert seen == [f"The API key was typed for api.openai.com. Send it for {host}?"]
    assert dialog.test_result.text() == f"Not tested: the key was not sent to {host}."
    assert fake_model_server.requests == []
    _answer_key_question("Cancel", seen)
    dialog.accept()  # nor saved there
    assert dialog.result() != dialog.DialogCode.Accepted and not settings_file().exists()

    _answer_key_question(f"Send to {host}", seen)
    assert _test_connection(qtbot, dialog).startswith("Connected")
    assert fake_model_server.requests[0].headers["authorization"] == f"Bearer {typed}"
    dialog.accept()  # the key now belongs to this host: no second question
    assert len(seen) == 3
    assert resolve_provider_settings().api_key == typed
    assert json.loads(settings_file().read_text())["api_key"] == typed


def test_a_saved_key_can_be_forgotten_for_its_provider_and_host_only(
    qtbot: QtBot, jobs: JobService
) -> None:
    save_provider_settings(
        ProviderSettings("anthropic", "claude-x", "https://api.anthropic.com", "sk-ant-kept-0123")
    )
    save_provider_settings(
        ProviderSettings("openai", "llama", "http://localhost:11434/v1", "local-key-0123")
    )
    dialog = make_dialog(qtbot, jobs)
    assert dialog.forget_key.isVisibleTo(dialog)  # a key is saved for the local server
    dialog.forget_key.click()
    assert not dialog.forget_key.isVisibleTo(dialog)
    assert dialog.api_key.placeholderText() == "not set"
    dialog.accept()
    assert resolve_provider_settings().api_key is None
    assert resolve_provider_settings("anthropic").api_key == "sk-ant-kept-0123"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])  # closed again: nothing listens there


def test_local_servers_are_found_off_the_gui_thread_and_used_in_one_click(
    qtbot: QtBot, fake_model_server: FakeModelServer, jobs: JobService
) -> None:
    port = int(fake_model_server.base_url.rsplit(":", 1)[1])
    fake_model_server.add_json({"object": "list", "data": [{"id": "qwen2.5-coder:7b"}]})
    kinds = [ServerKind("ollama", "Ollama", _free_port()), ServerKind("vllm", "vLLM", port)]
    dialog = make_dialog(qtbot, jobs, kinds)
    box = dialog.local_servers
    assert "Ollama" in box.status.text() and "vLLM" in box.status.text()
    with qtbot.waitSignal(box.searched, timeout=10_000):
        box.find_button.click()
        assert box.find_button.text() == FINDING_LABEL  # the dialog did not wait for it
    [server] = box.servers
    assert (server.title, server.models) == ("vLLM", ("qwen2.5-coder:7b",))
    assert fake_model_server.requests[0].path == "/v1/models"
    [use] = [b for b in box.findChildren(QPushButton) if b.accessibleName() == "Use vLLM"]
    use.click()  # one click: provider, base URL and model are the server's
    assert dialog.chosen_provider == "openai"
    assert dialog.base_url.text() == f"http://127.0.0.1:{port}/v1"
    assert dialog.model.text() == "qwen2.5-coder:7b"
    assert "qwen2.5-coder:7b on vLLM" in dialog.test_result.text()
    fake_model_server.add_openai_reply(text="OK")
    assert _test_connection(qtbot, dialog).startswith("Connected: ")
    assert fake_model_server.requests[-1].body["model"] == "qwen2.5-coder:7b"
    assert "authorization" not in fake_model_server.requests[-1].headers  # no key needed
    dialog.accept()
    assert resolve_provider_settings().base_url == f"http://127.0.0.1:{port}/v1"


def test_when_no_local_server_answers_it_says_what_to_do(qtbot: QtBot, jobs: JobService) -> None:
    dialog = make_dialog(qtbot, jobs, [ServerKind("ollama", "Ollama", _free_port())])
    with qtbot.waitSignal(dialog.local_servers.searched, timeout=10_000):
        dialog.local_servers.search()
    assert dialog.local_servers.servers == []
    assert "None of Ollama" in dialog.local_servers.status.text()
    dialog.reject()


def test_the_dialog_fits_a_laptop_screen_and_results_wrap(
    qtbot: QtBot, fake_model_server: FakeModelServer, jobs: JobService
) -> None:
    dialog = make_dialog(qtbot, jobs)
    dialog.show()
    qtbot.waitExposed(dialog)
    assert dialog.minimumSizeHint().height() <= 700
    assert dialog.sizeHint().height() <= 700
    dialog.provider.setCurrentIndex(dialog.provider.findData("openai"))
    dialog.base_url.setText(fake_model_server.openai_base_url)
    fake_model_server.add_error(500, {"error": {"message": "overloaded " * 60}})
    _test_connection(qtbot, dialog)
    QApplication.processEvents()
    result = dialog.test_result
    assert "overloaded" in result.text() and result.wordWrap()
    assert result.width() <= dialog.width()  # wrapped inside the form, not cut off
    # Every line shows, once the page has fitted its content to the new text.
    qtbot.waitUntil(lambda: result.height() >= result.heightForWidth(result.width()))
    assert dialog.minimumSizeHint().height() <= 700
    dialog.reject()


def test_the_writer_page_is_made_from_the_declared_settings(qtbot: QtBot, jobs: JobService) -> None:
    """Its rows as they were written by hand (labels with their keys, Tab's order, the
    accessible names), each control's tooltip its setting's help (issue 98)."""
    dialog = make_dialog(qtbot, jobs)
    form = dialog.writer.layout()
    assert isinstance(form, QFormLayout)
    rows = []
    for row in range(form.rowCount()):
        label = form.itemAt(row, QFormLayout.ItemRole.LabelRole)
        field = form.itemAt(row, QFormLayout.ItemRole.FieldRole).widget()
        text = label.widget().text() if label is not None else ""
        rows.append((text, field.accessibleName() or field.text()))
    assert rows == [
        ("&Runs:", "Writer mode"),
        ("&Timeout per run:", "Writer timeout"),
        ("Memory &file:", "Writer memory file"),
        ("&Offline notes:", "Offline writer notes"),
        ("Trace dumps &kept:", "Trace dumps kept per workspace"),
        ("", "Also keep trace dumps of successful runs"),
        ("", "Notify me when it records notes while Memtab is not in front"),
    ]
    help_of = {setting.name: setting.help for _, setting in WriterSettings.declared()}
    assert {name: c.toolTip() for name, c in dialog.writer.controls.items()} == help_of
    controls = list(dialog.writer.controls.values())
    order, widget = [], controls[0]
    while len(order) < len(controls):  # Tab's order: the rows', top to bottom
        order += [widget] if widget in controls else []
        widget = widget.nextInFocusChain()
    assert order == [form.itemAt(row, QFormLayout.ItemRole.FieldRole).widget() for row in range(7)]


def test_the_model_rows_are_made_from_the_provider_declaration(
    qtbot: QtBot, jobs: JobService
) -> None:
    """Provider, model and base URL as settings.json's provider keys declare them: their labels
    with their keys, accessible names, the providers' words and values (issue 98)."""
    dialog = make_dialog(qtbot, jobs)
    form = dialog.provider.parentWidget().layout()
    assert isinstance(form, QFormLayout)
    rows = [
        (form.labelForField(control).text(), control.accessibleName())
        for control in (dialog.provider, dialog.model, dialog.base_url)
    ]
    assert rows == [
        ("&Provider:", "Model provider"),
        ("&Model:", "Model"),
        ("&Base URL:", "Base URL"),
    ]
    [choices] = [s.choices for f, s in declared_settings(ProviderSection) if f.name == "provider"]
    shown = {dialog.provider.itemData(i): dialog.provider.itemText(i) for i in range(3)}
    assert shown == choices and dialog.provider.count() == 3
    assert set(choices) == set(PROVIDER_NAMES)


@pytest.mark.parametrize(
    ("written", "shown"), [(" Anthropic ", "anthropic"), ("mistral", "offline"), (None, "offline")]
)
def test_the_model_rows_show_a_provider_in_any_case_and_an_unknown_one_as_offline(
    qtbot: QtBot, jobs: JobService, written: str | None, shown: str
) -> None:
    """A provider in any case is that provider; one Memtab does not know, or none, shows offline
    (Save then writes what is shown), the file's model and base URL kept in the dimmed rows."""
    settings_file().parent.mkdir(parents=True, exist_ok=True)
    stored = {"provider": written, "model": "claude-x", "base_url": "https://proxy.test"}
    settings_file().write_text(json.dumps(stored))
    dialog = make_dialog(qtbot, jobs)
    assert dialog.chosen_provider == shown
    assert dialog.model.text() == "claude-x" and dialog.model.isEnabled() == (shown != "offline")
    assert dialog.base_url.text() == "https://proxy.test"


def test_ctrl_page_down_on_a_list_turns_the_page_not_the_list(
    qtbot: QtBot, jobs: JobService
) -> None:
    """Ctrl+PageDown/PageUp turn the dialog's page from any control; a list (the provider's,
    the writer's runs) or a number keeps its value."""
    dialog = make_dialog(qtbot, jobs)
    dialog.show()
    qtbot.waitExposed(dialog)
    dialog.activateWindow()
    dialog.provider.setFocus()
    qtbot.waitUntil(dialog.provider.hasFocus)
    ctrl = Qt.KeyboardModifier.ControlModifier
    qtbot.keyClick(dialog.provider, Qt.Key.Key_PageDown, ctrl)
    assert (dialog.chosen_provider, dialog.pages.currentIndex()) == ("offline", 1)
    runs = dialog.writer.controls["mode"]
    runs_before = runs.currentIndex()
    runs.setFocus()
    qtbot.keyClick(runs, Qt.Key.Key_PageUp, ctrl)
    assert (runs.currentIndex(), dialog.pages.currentIndex()) == (runs_before, 0)
    dialog.pages.setCurrentIndex(1)
    dialog.writer.controls["memory_path"].setFocus()  # a line: one page, not two
    qtbot.keyClick(dialog.writer.controls["memory_path"], Qt.Key.Key_PageDown, ctrl)
    assert dialog.pages.currentIndex() == 2
    dialog.reject()
