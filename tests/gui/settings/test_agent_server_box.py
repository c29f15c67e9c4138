"""Settings → Other agents shows which agents have Memtab's MCP server registered and where
their changes go, read off the GUI thread, with Install and Remove (`memtab mcp install` /
`uninstall` for that agent, run on the window's job service); Install asks first, naming
each file and the home (Cancel changes nothing); a file Memtab cannot read offers
neither, nor does a demo home; and whether the agents' sessions get a warm server
(docs/formats.md §22.8)."""

from __future__ import annotations

import json
import os
import tomllib
from pathlib import Path

import pytest
from PySide6.QtCore import QRect
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from memtab.agent_server.agents import claude_settings_path, config_path
from memtab.agent_server.bridge.rendezvous import rendezvous
from memtab.agent_server.install import register_server, server_command
from memtab.components.settings.agents_view import InstallQuestion
from memtab.demo import create_demo_home
from memtab.gui.settings import agent_server
from memtab.gui.settings.agent_server import AgentServerBox
from memtab.gui.settings.dialog import ScrollingPage, SettingsDialog
from memtab.gui.tasks.jobs import JobService
from memtab.gui.toolkit import dialog_layout
from memtab.gui.toolkit.screen_room import room_on
from memtab.humanize import display_path
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
    shown = display_path  # a path under the user's home from ~
    assert texts[0] == f"Claude Code: registered — changes go to your Inbox ({shown(claude)})"
    assert texts[1] == f"Codex: not registered ({shown(config_path('codex', home))})"
    assert texts[2] == f"Gemini CLI: not registered ({shown(config_path('gemini', home))})"
    assert texts[3].startswith("xum: registered — changes are written at once (")
    assert [button.text() for button in box.buttons] == ["Remove", "Install", "Install", "Remove"]
    dialog.reject()


def test_install_and_remove_change_the_agents_files_on_the_worker(
    qtbot: QtBot, tmp_path: Path, jobs: JobService, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[InstallQuestion] = []
    monkeypatch.setattr(agent_server, "confirm_install", lambda _p, q: asked.append(q) or True)
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
    assert [question.title for question in asked] == [
        "Install Memtab in Claude Code?",
        "Install Memtab in Codex?",
    ]
    box.buttons[0].click()  # Remove asks nothing
    qtbot.waitUntil(lambda: box.buttons[0].text() == "Install" and box.buttons[0].isEnabled())
    assert not config_path("claude", home).exists()  # install made it: it goes as it came
    assert "took the memtab server (mcpServers.memtab) out of" in box.result.text()
    assert len(asked) == 2
    box.shutdown()


def test_install_asks_first_naming_each_file_and_the_home_and_cancel_changes_nothing(
    qtbot: QtBot, tmp_path: Path, jobs: JobService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 70, 6: Install wrote ~/.claude.json and ~/.claude/settings.json without asking."""
    asked: list[InstallQuestion] = []
    monkeypatch.setattr(agent_server, "confirm_install", lambda _p, q: asked.append(q) or False)
    home = Home(tmp_path / "home")
    home.root.mkdir()
    user = Path(os.environ["HOME"])
    before = sorted(str(path) for path in user.rglob("*") if "config" not in path.parts)
    box = AgentServerBox(home, dict(os.environ), jobs)
    qtbot.addWidget(box)
    _settled(qtbot, box)
    box.buttons[0].click()
    (question,) = asked
    assert str(home.root) in question.text
    assert f"• {config_path('claude', home)}: adds mcpServers.memtab, which runs " in (
        question.informative
    )
    assert f"--home {home.root}" in question.informative
    assert f"• {claude_settings_path()}: adds Memtab's read-only tools (list, search, " in (
        question.informative
    )
    assert box.result.isHidden() and all(button.isEnabled() for button in box.buttons)
    after = sorted(str(path) for path in user.rglob("*") if "config" not in path.parts)
    assert after == before  # cancelled: nothing written
    box.shutdown()


def test_a_demo_home_offers_no_button_and_says_why(
    qtbot: QtBot, tmp_path: Path, jobs: JobService
) -> None:
    """Issue 70, 6: Install in `make run` registered the demo home with the real agents."""
    demo = create_demo_home(tmp_path / "demo")
    register_server("claude", config_path("claude", demo), server_command(demo))
    box = AgentServerBox(demo, dict(os.environ), jobs)
    qtbot.addWidget(box)
    box.show()
    qtbot.waitUntil(lambda: "Looking" not in box.lines[-1].text())
    qtbot.waitUntil(lambda: box.refusal.isVisible())
    assert box.refusal.text().startswith(f"{demo.root} is a demo home, its memory invented")
    assert box.lines[0].text().startswith("Claude Code: registered")
    assert not any(button.isVisible() for button in box.buttons)
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


@pytest.mark.parametrize("width", [1366, 683])
def test_other_agents_fits_a_laptop_screen_unscrolled_and_grows_for_an_outcome(
    qtbot: QtBot, tmp_path: Path, jobs: JobService, monkeypatch: pytest.MonkeyPatch, width: int
) -> None:
    """Issue 74, tier 3: at 1366×768 Other agents needed scrolling — its page asked for
    460 px at most and a first show held the dialog to 2/3 of the screen — and an
    install's outcome scrolled out of sight."""
    laptop = QRect(0, 28, width, 740)  # a 768-px screen less its panel
    monkeypatch.setattr(dialog_layout, "available_geometry", lambda _window: QRect(laptop))
    monkeypatch.setattr(agent_server, "confirm_install", lambda _parent, _question: True)
    home = Home(Path.home() / ".xum")  # where a xum user's home is: its paths shown from ~
    home.root.mkdir()
    dialog = SettingsDialog(jobs=jobs, home=home, env=dict(os.environ))
    qtbot.addWidget(dialog)
    dialog.pages.setCurrentIndex(2)
    dialog.show()
    qtbot.waitExposed(dialog)
    box = dialog.agent_server_box
    assert box is not None
    _settled(qtbot, box)
    page = dialog.pages.currentWidget()
    assert isinstance(page, ScrollingPage)
    room = room_on(laptop)

    def unscrolled() -> bool:
        QApplication.processEvents()
        return page.verticalScrollBar().maximum() == 0

    qtbot.waitUntil(unscrolled)
    assert dialog.height() <= room.height() and dialog.width() <= room.width()
    box.buttons[0].click()  # Install in Claude Code: two long lines of outcome
    qtbot.waitUntil(lambda: box.buttons[0].text() == "Remove" and box.buttons[0].isEnabled())
    qtbot.waitUntil(unscrolled)
    assert box.result.isVisible() and "allowed Memtab's read-only tools" in box.result.text()
    assert dialog.height() <= room.height()
    box.buttons[0].click()
    qtbot.waitUntil(lambda: box.buttons[0].text() == "Install" and box.buttons[0].isEnabled())
    box.buttons[2].click()  # Install in Gemini CLI, its ~/.gemini made: the longest outcome
    qtbot.waitUntil(lambda: box.buttons[2].text() == "Remove" and box.buttons[2].isEnabled())
    qtbot.waitUntil(unscrolled)
    assert "Gemini CLI: wrote Memtab's rule" in box.result.text()
    assert dialog.height() <= room.height()
    dialog.reject()
