"""`memtab mcp install --project DIR`: the server registered for one checkout only, where
the agent has a per-project configuration — Claude Code's local scope (`projects.<DIR>` in
~/.claude.json), Codex's project config (`<DIR>/.codex/config.toml`) — the user-wide
entries untouched, saying what a session there serves; xum has none and says so;
`uninstall --project` takes that entry out alone (docs/formats.md §22.6)."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from memtab.agent_server.agents import config_path
from memtab.agent_server.install import server_command
from memtab.cli.main import main
from memtab.store.home import Home
from memtab.store.sidecars.registry import add_project


def test_a_per_project_install_goes_to_that_checkout_alone_and_says_what_it_serves(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    home = Home(tmp_path / "home")
    shop = tmp_path / "src" / "shop"
    (shop / ".git").mkdir(parents=True)
    add_project(home, str(shop), "Shop")
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "codex"))
    claude_file = config_path("claude", home)
    claude_file.write_text(json.dumps({"numStartups": 3}))
    args = ["mcp", "install", "--home", str(home.root), "--project", str(shop)]

    assert main([*args, "--claude", "--codex", "--writes", "direct"]) == 0
    out = capsys.readouterr().out
    command = server_command(home, writes="direct")
    claude = json.loads(claude_file.read_text())
    assert claude["numStartups"] == 3 and "mcpServers" not in claude  # not user-wide
    entry = claude["projects"][str(shop)]["mcpServers"]["memtab"]
    assert [entry["command"], *entry["args"]] == command
    codex = tomllib.loads((shop / ".codex" / "config.toml").read_text())["mcp_servers"]["memtab"]
    assert [codex["command"], *codex["args"]] == command
    assert not (tmp_path / "codex" / "config.toml").exists()
    assert f"Claude Code's local scope: read only by sessions started in {shop}" in out
    assert f"In {shop}: This session serves global memory (every project) and the project " in out
    assert main([*args, "--claude", "--writes", "direct"]) == 0  # the same: nothing changes
    assert "already in" in capsys.readouterr().out
    assert main([*args, "--claude"]) == 0  # this project's entry is compared, not another
    assert "warning: this changes the write mode: it was --writes direct" in (
        capsys.readouterr().err
    )

    assert main([*args, "--xum"]) == 1
    assert "xum keeps its MCP servers per home" in capsys.readouterr().err

    uninstall = ["mcp", "uninstall", "--home", str(home.root), "--project", str(shop)]
    assert main([*uninstall, "--claude", "--codex"]) == 0
    capsys.readouterr()
    assert claude_file.read_text() == json.dumps({"numStartups": 3})  # as it was
    assert not (shop / ".codex").exists()  # install made it: it goes as it came


def test_an_install_for_a_directory_memtab_does_not_know_says_what_it_would_take(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home = Home(tmp_path / "home")
    home.root.mkdir()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    args = ["mcp", "install", "--home", str(home.root), "--claude", "--project", str(elsewhere)]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert f"Project memory is unavailable: {elsewhere} is in no project Memtab knows" in out
    assert main([*args[:-1], str(tmp_path / "missing")]) == 1
    assert "no such directory" in capsys.readouterr().err
