"""Settings → Other agents shows which agents have Memtab's MCP server, read off the GUI
thread, and how to connect the others."""

from __future__ import annotations

import os
from pathlib import Path

from pytestqt.qtbot import QtBot

from memtab.agent_server.install import config_path, register_server, server_command
from memtab.gui.settings.dialog import SettingsDialog
from memtab.store.home import Home


def test_the_other_agents_page_says_which_agents_are_connected(
    qtbot: QtBot, tmp_path: Path
) -> None:
    home = Home(tmp_path / "home")
    home.root.mkdir()
    register_server("claude", config_path("claude", home), server_command(home))
    dialog = SettingsDialog(home=home, env=dict(os.environ))
    qtbot.addWidget(dialog)
    box = dialog.agent_server_box
    assert box is not None
    qtbot.waitUntil(lambda: "Looking" not in box.lines[-1].text())
    texts = [line.text() for line in box.lines]
    assert texts[0].startswith("Claude Code: connected (")
    assert texts[1] == "Codex: not connected — memtab mcp install --codex"
    assert texts[2] == "xum: not connected — memtab mcp install --xum"
    dialog.reject()
