"""`memtab mcp install` writes, for each agent, what makes it wait for Memtab and hold its
tools from the first turn, allows its read-only tools where the agent keeps a permission
list, and says what it wrote and why; a re-install that serves fewer scopes or another
write mode says so; a read-only file is never replaced (docs/formats.md §22.6)."""

from __future__ import annotations

import json
import os
import stat
import tomllib
from pathlib import Path

import pytest

from memtab.agent_server.agents import claude_settings_path, config_path
from memtab.cli.main import main
from memtab.store.home import Home

READ_RULES = ["mcp__memtab__list", "mcp__memtab__search", "mcp__memtab__view"]


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Home:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    monkeypatch.delenv("CODEX_HOME", raising=False)
    home = Home(tmp_path / "memtab home")
    (home.root / "config.json").parent.mkdir(parents=True)
    (home.root / "config.json").write_text('{"projects": []}')
    return home


def _install(home: Home, capsys: pytest.CaptureFixture[str], *words: str) -> tuple[int, str, str]:
    code = main(["mcp", "install", "--home", str(home.root), *words])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_claude_code_waits_for_memtab_and_may_read_without_asking(
    home: Home, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = claude_settings_path()
    settings.parent.mkdir()
    settings.write_text('{\n  "permissions": {\n    "allow": ["Bash(npm test)"]\n  }\n}\n')
    code, out, err = _install(home, capsys, "--claude")
    assert code == 0 and err == ""
    entry = json.loads(config_path("claude", home).read_text())["mcpServers"]["memtab"]
    assert entry["alwaysLoad"] is True and entry["type"] == "stdio"
    allowed = json.loads(settings.read_text())["permissions"]["allow"]
    assert allowed == ["Bash(npm test)", *READ_RULES]
    assert "with alwaysLoad: true, so Claude Code waits for Memtab as it starts (up to 5 s)" in out
    assert "the model has Memtab's tools from its first turn" in out
    assert f"allowed Memtab's read-only tools in {settings}: permissions.allow now holds" in out
    assert "claude -p (which refuses a tool it is not allowed) can read the memory" in out
    assert "the change tools still ask" in out
    code, out, _ = _install(home, capsys, "--claude")
    assert "the memtab server is already in" in out and "already allowed" in out


def test_codex_waits_for_memtab_and_runs_its_read_tools_without_asking(
    home: Home, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _install(home, capsys, "--codex")
    assert code == 0
    server = tomllib.loads(config_path("codex", home).read_text())["mcp_servers"]["memtab"]
    assert server["required"] is True
    assert server["tools"] == {
        name: {"approval_mode": "approve"} for name in ("list", "search", "view")
    }
    assert "with required = true, so Codex waits for Memtab as it starts" in out
    assert "starts no session while Memtab cannot start: memtab mcp uninstall --codex" in out
    assert 'approval_mode = "approve" for the read-only tools (list, search, view)' in out


def test_a_reinstall_that_narrows_the_scopes_or_changes_the_write_mode_warns(
    home: Home, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = _install(home, capsys, "--claude", "--codex", "--workspace", "main")
    assert code == 0 and err == ""
    code, _, err = _install(home, capsys, "--claude", "--codex", "--writes", "direct")
    assert code == 0
    for title in ("Claude Code", "Codex"):
        assert (
            f"{title}: warning: this narrows what it serves: it served workspace main (its "
            "global, project and workspace scopes), now the global scope only"
        ) in err
        assert (
            f"{title}: warning: this changes the write mode: it was --writes inbox (changes "
            "go to your Inbox), now --writes direct (changes are written at once)"
        ) in err
    code, _, err = _install(home, capsys, "--claude", "--workspace", "other", "--writes", "direct")
    assert err == (
        "Claude Code: warning: this changes what it serves: it served the global scope only, "
        "now workspace other (its global, project and workspace scopes)\n"
    )
    code, _, err = _install(home, capsys, "--claude", "--workspace", "other", "--writes", "direct")
    assert err == ""


def test_a_read_only_file_is_left_as_it_is_with_the_snippet(
    home: Home, capsys: pytest.CaptureFixture[str]
) -> None:
    path = config_path("claude", home)
    path.write_text('{"numStartups": 3}')
    path.chmod(0o444)
    code, out, err = _install(home, capsys, "--claude")
    assert code == 1 and out == ""
    assert f"Claude Code: left {path} as it is: it is read-only (mode 0444)" in err
    assert '"alwaysLoad": true' in err  # the snippet to add by hand
    assert path.read_text() == '{"numStartups": 3}' and stat.S_IMODE(os.stat(path).st_mode) == 0o444
    assert not claude_settings_path().exists()  # nothing allowed for a server not there
    assert sorted(child.name for child in path.parent.iterdir()) == [".claude.json", "memtab home"]
