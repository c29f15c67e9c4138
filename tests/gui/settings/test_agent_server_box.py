"""Settings → Other agents shows which agents have Memtab's MCP server registered and where
their changes go, read off the GUI thread, with Install and Remove (`memtab mcp install` /
`uninstall` for that agent, run on the window's job service); a file Memtab cannot read
offers neither; and whether the agents' sessions get a warm server (docs/formats.md §22.8)."""

from __future__ import annotations

import json
import os
import tomllib
from pathlib import Path

from pytestqt.qtbot import QtBot

from memtab.agent_server.agents import claude_settings_path, config_path
from memtab.agent_server.bridge.rendezvous import rendezvous
from memtab.agent_server.install import register_server, server_command
from memtab.gui.settings.agent_server import AgentServerBox
from memtab.gui.settings.dialog import SettingsDialog
from memtab.gui.tasks.jobs import JobService
from memtab.store.home import Home
from support.mcp_hosts import start


def _settled(qtbot: QtBot, box: AgentServerBox) -> None:
    qtbot.waitUntil(
        lambda: "Looking" not in box.lines[-1].text() and all(b.isEnabled() for b in box.buttons)
    )


def test_the_other_agents_page_says_which_agents_are_registered(
    qtbot: QtBot, tmp_path: Path, jobs: JobService
) -> None:
    home = Home(tmp_path / "home")
    home.root.mkdir()
    register_server("claude", config_path("claude", home), server_command(home))
    register_server("xum", config_path("xum", home), server_command(home, writes="direct"))
    dialog = SettingsDialog(jobs=jobs, home=home, env=dict(os.environ))
    qtbot.addWidget(dialog)
    box = dialog.agent_server_box
    assert box is not None
    _settled(qtbot, box)
    texts = [line.text() for line in box.lines]
    claude = config_path("claude", home)
    assert texts[0] == f"Claude Code: registered — changes go to your Inbox ({claude})"
    assert texts[1] == f"Codex: not registered ({config_path('codex', home)})"
    assert texts[2].startswith("xum: registered — changes are written at once (")
    assert [button.text() for button in box.buttons] == ["Remove", "Install", "Remove"]
    dialog.reject()


def test_install_and_remove_change_the_agents_files_on_the_worker(
    qtbot: QtBot, tmp_path: Path, jobs: JobService
) -> None:
    home = Home(tmp_path / "home")
    home.root.mkdir()
    box = AgentServerBox(home, dict(os.environ), jobs)
    qtbot.addWidget(box)
    _settled(qtbot, box)
    assert box.buttons[0].text() == "Install"
    box.buttons[0].click()
    qtbot.waitUntil(lambda: box.buttons[0].text() == "Remove" and box.buttons[0].isEnabled())
    entry = json.loads(config_path("claude", home).read_text())["mcpServers"]["memtab"]
    assert entry["alwaysLoad"] is True and entry["args"][-2:] == ["--home", str(home.root)]
    allowed = json.loads(claude_settings_path().read_text())["permissions"]["allow"]
    assert allowed == ["mcp__memtab__list", "mcp__memtab__search", "mcp__memtab__view"]
    assert "Claude Code: added the memtab server" in box.result.text()
    assert box.lines[0].text().startswith("Claude Code: registered — changes go to your Inbox")
    box.buttons[1].click()
    qtbot.waitUntil(lambda: box.buttons[1].text() == "Remove" and box.buttons[1].isEnabled())
    codex = tomllib.loads(config_path("codex", home).read_text())["mcp_servers"]["memtab"]
    assert codex["required"] is True
    box.buttons[0].click()
    qtbot.waitUntil(lambda: box.buttons[0].text() == "Install" and box.buttons[0].isEnabled())
    assert config_path("claude", home).read_text() == "{}\n"
    assert "took the memtab server (mcpServers.memtab) out of" in box.result.text()
    box.shutdown()


def test_a_file_memtab_cannot_read_offers_no_button(
    qtbot: QtBot, tmp_path: Path, jobs: JobService
) -> None:
    home = Home(tmp_path / "home")
    home.root.mkdir()
    config_path("claude", home).write_text('{"mcpServers": {"memtab": ')
    box = AgentServerBox(home, dict(os.environ), jobs)
    qtbot.addWidget(box)
    box.show()
    _settled(qtbot, box)
    assert "is not valid JSON: it ends before its value does" in box.lines[0].text()
    assert not box.buttons[0].isVisible() and box.buttons[1].isVisible()
    box.shutdown()


def test_the_box_says_whether_the_agents_sessions_get_a_warm_server(
    qtbot: QtBot, tmp_path: Path, jobs: JobService
) -> None:
    home = Home(tmp_path / "home")
    home.root.mkdir()
    env = {key: value for key, value in os.environ.items() if key != "MEMTAB_MCP_SHARED"}
    host = start(rendezvous(str(home.root), env))
    try:
        box = AgentServerBox(home, env, jobs)
        qtbot.addWidget(box)
        _settled(qtbot, box)
        assert box.warm_line.text().startswith(
            f"Agents' sessions are served by `memtab mcp host` (pid {os.getpid()}, 0 sessions"
        )
        box.shutdown()
    finally:
        host.stop()
    off = AgentServerBox(home, {**env, "MEMTAB_MCP_SHARED": "off"}, jobs)
    qtbot.addWidget(off)
    _settled(qtbot, off)
    assert off.warm_line.text() == "Each agent session runs its own server: MEMTAB_MCP_SHARED=off"
    off.shutdown()
