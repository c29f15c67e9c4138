"""File → Settings: a save is news on the window's context, as a change on disk is, and each
feature that holds a setting applies it at once (docs/formats.md §15.1) — no feature is
called by the dialog, and none waits for its next run."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.memory_tree_support import WindowFactory, wait_idle
from memtab.components.window.settings_news import SettingsChange, SettingsSection
from memtab.gui.settings.dialog import SettingsDialog
from memtab.sources.config import AgentSettings, save_agent_settings
from memtab.store.home import Home
from memtab.writer.config import WriterSettings, save_writer_settings

home = support.home
make_window = support.make_window


def test_a_settings_save_is_news_each_feature_applies_at_once(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window = make_window(home)
    wait_idle(qtbot, window)
    news: list[SettingsChange] = []
    window.context.settings.published.connect(news.append)
    notes: list[str] = []
    window.context.status.shown.connect(lambda text, _ms: notes.append(text))

    def save(dialog: QDialog) -> int:
        """The user turns notifications on and Codex off, and saves (as the dialog does)."""
        assert isinstance(dialog, SettingsDialog)
        save_writer_settings(WriterSettings(notify=True))
        save_agent_settings("codex", AgentSettings(enabled=False))
        return int(QDialog.DialogCode.Accepted)

    window.exec_dialog = save  # type: ignore[method-assign]
    window.context.actions.action("window.settings").trigger()

    [change] = news
    assert change.sections == {SettingsSection.WRITER, SettingsSection.SOURCES}
    assert notes == ["Settings saved."]  # not "from the next run"
    assert window.memory_tab.scans.busy  # other agents' memory, looked for again now


def test_a_dialog_closed_without_saving_is_no_news(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window = make_window(home)
    news: list[SettingsChange] = []
    window.context.settings.published.connect(news.append)
    window.exec_dialog = lambda _dialog: int(QDialog.DialogCode.Rejected)  # type: ignore[method-assign]
    window.context.actions.action("window.settings").trigger()
    assert news == []
