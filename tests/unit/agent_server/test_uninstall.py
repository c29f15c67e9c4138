"""`memtab mcp uninstall` takes out what install wrote and nothing else: right after an
install, each agent's files are back byte for byte; a file Memtab cannot read is left as it
is, saying what to take out by hand (docs/formats.md §22.6)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memtab.agent_server.agents import claude_settings_path, config_path
from memtab.agent_server.config_files.checked_replace import BACKUP_SUFFIX
from memtab.agent_server.registrations import registered
from memtab.cli.main import main
from memtab.store.home import Home

CLAUDE_JSON = (
    '{\n  "numStartups": 1e400,\n  "installMethod": "native",\n  "lone": "\\ud800",\n'
    '  "projects": {\n    "/src/app": {\n      "allowedTools": [],\n      "history": [\n'
    '        {"display": "fix the build", "pastedContents": {}}\n      ]\n    }\n  },\n'
    '  "mcpServers": {\n    "github": {\n      "type": "stdio",\n      "command": "gh-mcp"\n'
    "    }\n  },\n"
    '  "tail" :  [ 1,2 ]\n}\n'
)
CLAUDE_SETTINGS = (
    '{\n  "model": "opus",\n  "permissions": {\n    "allow": ["Bash(npm test)", "Read"],\n'
    '    "deny": ["Bash(rm -rf *)"]\n  },\n  "env": {"A": "1"}\n}\n'
)
CODEX_TOML = (
    "# my settings\r\n"
    "model = 'o3'   # fast\r\n"
    "\r\n"
    "[mcp_servers.github]\r\n"
    '  command = "gh-mcp"\r\n'
    "\r\n"
    "[profiles.fast]\r\n"
    'model = "o4-mini"\r\n'
)
XUM_JSONC = '// servers xum starts\n{\n  "servers": {\n    "gh": "gh-mcp", // GitHub\n  },\n}\n'


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Home:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    monkeypatch.delenv("CODEX_HOME", raising=False)
    home = Home(tmp_path / "home")
    home.root.mkdir()
    return home


def _run(home: Home, capsys: pytest.CaptureFixture[str], *words: str) -> tuple[int, str, str]:
    code = main(["mcp", *words, "--home", str(home.root)])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("existing", [True, False], ids=["beside-others", "alone"])
def test_install_then_uninstall_gives_every_file_back_byte_for_byte(
    home: Home, capsys: pytest.CaptureFixture[str], existing: bool
) -> None:
    claude, codex, xum = (config_path(agent, home) for agent in ("claude", "codex", "xum"))
    settings = claude_settings_path()
    settings.parent.mkdir()
    codex.parent.mkdir()
    originals = {
        claude: CLAUDE_JSON if existing else '{\n  "numStartups": 1\n}\n',
        settings: CLAUDE_SETTINGS if existing else '{\n  "model": "opus"\n}\n',
        codex: CODEX_TOML if existing else "model = 'o3'\n",
        xum: XUM_JSONC if existing else "{}",
    }
    for path, text in originals.items():
        path.write_bytes(text.encode())
    code, out, _ = _run(home, capsys, "install", "--claude", "--codex", "--xum")
    assert code == 0 and out.count(": added") == 3
    assert all(path.read_bytes() != text.encode() for path, text in originals.items())
    code, out, err = _run(home, capsys, "uninstall")  # every agent that has it
    assert code == 0 and err == ""
    for path, text in originals.items():
        assert path.read_bytes() == text.encode(), path
    assert f"Claude Code: took the memtab server (mcpServers.memtab) out of {claude}" in out
    assert (
        "Claude Code: took Memtab's read-only tools (mcp__memtab__list, mcp__memtab__search, "
        f"mcp__memtab__view) in permissions.allow out of {settings}; nothing else changed"
    ) in out
    assert f"Codex: took the memtab server ([mcp_servers.memtab]) out of {codex}" in out
    assert f"xum: took the memtab server (servers.memtab) out of {xum}" in out
    assert (codex.parent / f"config.toml{BACKUP_SUFFIX}").read_bytes() == originals[codex].encode()
    code, _, err = _run(home, capsys, "uninstall")
    assert code == 1 and "No agent has the memtab server" in err
    code, out, _ = _run(home, capsys, "uninstall", "--codex")
    assert code == 0 and out == f"Codex: nothing of Memtab's to take out of {codex}\n"


def test_uninstall_takes_out_only_memtab_and_what_it_left_empty(
    home: Home, capsys: pytest.CaptureFixture[str]
) -> None:
    claude = config_path("claude", home)
    _run(home, capsys, "install", "--claude")
    claude.write_text(
        claude.read_text().replace('"mcpServers"', '"numStartups": 2,\n  "mcpServers"')
    )
    assert _run(home, capsys, "uninstall", "--claude")[0] == 0
    assert json.loads(claude.read_text()) == {"numStartups": 2}
    assert json.loads(claude_settings_path().read_text()) == {}
    assert not registered("claude", claude)


@pytest.mark.parametrize(
    ("agent", "text", "why"),
    [
        ("claude", '{"mcpServers": {"memtab": {}}', "is not valid JSON"),
        ("codex", '[mcp_servers]\nmemtab = { command = "m" }\n', "cannot take out"),
        ("codex", "model = \n", "is not valid TOML"),
    ],
)
def test_a_file_memtab_cannot_read_is_left_as_it_is(
    home: Home, capsys: pytest.CaptureFixture[str], agent: str, text: str, why: str
) -> None:
    path = config_path(agent, home)  # type: ignore[arg-type]
    path.parent.mkdir(exist_ok=True)
    path.write_text(text)
    code, _, err = _run(home, capsys, "uninstall", f"--{agent}")
    assert code == 1 and why in err and "by hand" in err
    assert path.read_text() == text
    assert not any(BACKUP_SUFFIX in child.name for child in path.parent.iterdir())
