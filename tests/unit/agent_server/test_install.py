"""`memtab mcp install`: the server registered in Claude Code's, Codex's and xum's own
configuration, keeping everything else there, idempotent, saying what changed; a file
Memtab cannot edit safely is left alone with the snippet to add by hand."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from memtab.agent_server.agents import config_path
from memtab.agent_server.bridge.rendezvous import KEY_VARIABLES
from memtab.agent_server.codex_config import FORWARDED_VARIABLES
from memtab.agent_server.install import register_server, server_command, snippet
from memtab.agent_server.registrations import registered
from memtab.agent_server.service import MemoryService
from memtab.cli.main import main
from memtab.store.home import Home

COMMAND = ["/opt/memtab/bin/memtab", "mcp", "--home", "/data/my home"]
CODEX = """# my settings
model = "o3"

[mcp_servers.memtab]
command = "old-memtab"
args = ["mcp"]
env = { "A" = "1" }

[profiles.fast]
model = "o4-mini"
"""


def test_claude_codes_user_config_keeps_every_other_key(tmp_path: Path) -> None:
    path = tmp_path / ".claude.json"
    path.write_text(json.dumps({"numStartups": 3, "mcpServers": {"a": {"command": "b"}}}))
    outcome = register_server("claude", path, COMMAND)
    assert outcome.status == "added" and str(path) in outcome.message
    document = json.loads(path.read_text())
    assert document["numStartups"] == 3 and document["mcpServers"]["a"] == {"command": "b"}
    assert document["mcpServers"]["memtab"] == {
        "type": "stdio",
        "command": COMMAND[0],
        "args": COMMAND[1:],
        "env": {},
        "alwaysLoad": True,
    }
    assert register_server("claude", path, COMMAND).status == "unchanged"
    assert register_server("claude", path, [*COMMAND, "--workspace", "w"]).status == "updated"
    assert registered("claude", path)


def test_codex_gets_its_table_replaced_in_place_and_the_rest_kept(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(CODEX)
    assert register_server("codex", path, COMMAND).status == "updated"
    text = path.read_text()
    assert text.startswith("# my settings\n")
    document = tomllib.loads(text)
    assert document["model"] == "o3" and document["profiles"] == {"fast": {"model": "o4-mini"}}
    assert document["mcp_servers"]["memtab"] == {
        "command": COMMAND[0],
        "args": COMMAND[1:],
        "required": True,
        "env_vars": list(FORWARDED_VARIABLES),
        "env": {"A": "1"},
        "tools": {name: {"approval_mode": "approve"} for name in ("list", "search", "view")},
    }
    assert register_server("codex", path, COMMAND).status == "unchanged"
    assert path.read_text() == text


def test_codex_forwards_what_decides_what_memtab_reads(tmp_path: Path) -> None:
    """Codex starts a stdio server with a few of its variables (HOME, PATH, TMPDIR…): a
    user's CODEX_HOME, XDG dirs and runtime folder reach Memtab only through `env_vars`
    (tried with Codex 0.171.0: without them Memtab read ~/.codex, not $CODEX_HOME, and found
    none of Codex's memory). The user's own names stay, first; an entry written by an
    older Memtab, without them, is updated."""
    path = tmp_path / "config.toml"
    path.write_text(
        '[mcp_servers.memtab]\ncommand = "memtab"\nargs = ["mcp"]\nrequired = true\n'
        'env_vars = ["MY_TOKEN", "CODEX_HOME", { name = "REMOTE", source = "remote" }]\n'
    )
    assert register_server("codex", path, COMMAND).status == "updated"
    server = tomllib.loads(path.read_text())["mcp_servers"]["memtab"]
    remote = {"name": "REMOTE", "source": "remote"}
    assert server["env_vars"][:3] == ["MY_TOKEN", "CODEX_HOME", remote]
    names = server["env_vars"][3:]
    assert {"XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_RUNTIME_DIR"} <= set(names)
    assert sorted(names) == sorted(set(FORWARDED_VARIABLES) - {"CODEX_HOME"})
    assert set(KEY_VARIABLES) - {"HOME"} <= set(FORWARDED_VARIABLES)  # every host key's
    assert register_server("codex", path, COMMAND).status == "unchanged"


def test_a_fresh_codex_config_and_xums_file_are_created(tmp_path: Path) -> None:
    codex = tmp_path / "codex" / "config.toml"
    assert register_server("codex", codex, COMMAND).status == "added"
    assert tomllib.loads(codex.read_text())["mcp_servers"]["memtab"]["args"] == COMMAND[1:]
    xum = tmp_path / "xum" / "mcp.jsonc"
    xum.parent.mkdir()
    xum.write_text(json.dumps({"servers": {"gh": "gh-mcp"}}))
    assert register_server("xum", xum, COMMAND).status == "added"
    servers = json.loads(xum.read_text())["servers"]
    assert servers == {
        "gh": "gh-mcp",
        "memtab": "/opt/memtab/bin/memtab mcp --home '/data/my home'",
    }


@pytest.mark.parametrize(
    ("agent", "name", "text", "why"),
    [
        ("xum", "mcp.jsonc", '{// mine\n "servers": {}', "ends before its value does (line 2"),
        ("codex", "config.toml", "model = \n", "is not valid TOML"),
        ("codex", "config.toml", 'mcp_servers.memtab.command = "x"\n', "cannot edit"),
        ("codex", "config.toml", "mcp_servers = 1\n", "mcp_servers that is not a table"),
        ("claude", ".claude.json", '{"mcpServers": []}', "'mcpServers' that is not a JSON object"),
        ("claude", ".claude.json", '{"a": NaN}', "is not valid JSON (line 1, column 7)"),
    ],
)
def test_a_file_memtab_cannot_edit_safely_is_left_alone(
    tmp_path: Path, agent: str, name: str, text: str, why: str
) -> None:
    path = tmp_path / name
    path.write_text(text)
    outcome = register_server(agent, path, COMMAND)  # type: ignore[arg-type]
    assert outcome.status == "refused" and why in outcome.message
    assert "add this by hand" in outcome.message and "memtab" in outcome.message
    assert path.read_text() == text
    assert [child.name for child in tmp_path.iterdir()] == [name]  # no backup, no temp


def test_the_command_installs_where_each_agent_looks_and_print_changes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    home = Home(tmp_path / "home")
    home.root.mkdir()
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "codex"))
    args = ["mcp", "install", "--home", str(home.root)]
    assert main([*args, "--codex", "--print"]) == 0
    assert "[mcp_servers.memtab]" in capsys.readouterr().out
    assert not (tmp_path / "codex" / "config.toml").exists()
    assert main(args) == 1  # nothing found: an agent must be named
    assert "No agent found" in capsys.readouterr().err
    assert main([*args, "--codex", "--claude"]) == 0
    out = capsys.readouterr().out
    assert "Codex: added" in out and "Claude Code: added" in out
    codex = tomllib.loads(config_path("codex", home).read_text())["mcp_servers"]["memtab"]
    assert codex["args"][-3:] == ["mcp", "--home", str(home.root)]
    assert [codex["command"], *codex["args"]] == server_command(home)
    assert registered("claude", config_path("claude", home))
    assert main([*args, "--codex", "--writes", "direct"]) == 0
    assert "Codex: updated" in capsys.readouterr().out
    codex = tomllib.loads(config_path("codex", home).read_text())["mcp_servers"]["memtab"]
    assert codex["args"][-2:] == ["--writes", "direct"]
    # An install's own answer budget (formats §22.10), for every client of its sessions.
    assert main([*args, "--codex", "--answer-budget", "40000"]) == 0
    codex = tomllib.loads(config_path("codex", home).read_text())["mcp_servers"]["memtab"]
    assert codex["args"][-2:] == ["--answer-budget", "40000"]


def test_installing_for_claude_code_does_not_load_the_toml_editor(tmp_path: Path) -> None:
    """tomlkit edits Codex's config.toml alone: Claude Code's install starts without it."""
    code = (
        "import sys; from memtab.cli.main import main; "
        f"assert main(['mcp', 'install', '--claude', '--home', {str(tmp_path)!r}]) == 0; "
        "assert 'tomlkit' not in sys.modules"
    )
    env = {**os.environ, "CLAUDE_CONFIG_DIR": str(tmp_path / "claude")}
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, env=env)
    assert registered("claude", tmp_path / "claude" / ".claude.json")


def test_the_snippets_to_add_by_hand_are_what_each_file_holds() -> None:
    assert json.loads(snippet("claude", COMMAND)) == {
        "mcpServers": {
            "memtab": {
                "type": "stdio",
                "command": COMMAND[0],
                "args": COMMAND[1:],
                "env": {},
                "alwaysLoad": True,
            }
        }
    }
    assert snippet("claude", COMMAND).startswith('{\n  "mcpServers": {\n    "memtab": {\n')
    assert snippet("xum", COMMAND) == (
        '{\n  "servers": {\n'
        '    "memtab": "/opt/memtab/bin/memtab mcp --home \'/data/my home\'"\n'
        "  }\n}"
    )
    assert tomllib.loads(snippet("codex", COMMAND))["mcp_servers"]["memtab"] == {
        "command": COMMAND[0],
        "args": COMMAND[1:],
        "required": True,
        "env_vars": list(FORWARDED_VARIABLES),
        "tools": {name: {"approval_mode": "approve"} for name in ("list", "search", "view")},
    }


def test_install_says_xums_tool_hooks_do_not_run_on_memtabs_writes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """xum runs `tool_pre`/`tool_post` (its docs/hooks/tools.mdx: project `.xum/<hook>`,
    then the xum home's) only around its own tool calls, in its workspace's runtime: Memtab's
    writes bypass them, and install says so plainly (docs/formats.md §22.6)."""
    home = Home(tmp_path / "home")
    home.root.mkdir()
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "codex"))
    args = ["mcp", "install", "--home", str(home.root), "--codex"]
    assert main(args) == 0
    assert "tool hooks" not in capsys.readouterr().out
    hook = home.root / "tool_pre"
    hook.write_text('#!/bin/sh\n[ "$XUM_TOOL" = memory ] && exit 1\nexit 0\n')
    hook.chmod(0o755)
    assert main(args) == 0
    out = capsys.readouterr().out
    assert (
        f"xum's tool hooks ({hook}) do not run on changes other agents make through Memtab"
    ) in out
    assert "with --writes direct they are written without your hooks" in out


def test_install_makes_a_new_home_private_so_its_sessions_find_it_new_not_missing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before, every session on a home nothing was written to yet told the model the home
    "does not exist … a typo in `--home`" (issue 96)."""
    home = Home(tmp_path / "data" / "memtab")
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "codex"))
    args = ["mcp", "install", "--home", str(home.root), "--codex", "--no-login-service"]
    assert main([*args, "--print"]) == 0
    assert not home.root.exists()  # --print writes nothing
    capsys.readouterr()
    assert main(args) == 0
    assert capsys.readouterr().out.startswith(
        f"Made the memory home {home.root}: empty, and only you may open it\n"
    )
    assert stat.S_IMODE(home.root.stat().st_mode) == 0o700
    service = MemoryService(home, None, writes="inbox", other_agents=False)
    try:
        answer = json.loads(service.call("list", {}, "codex-mcp-client").text)
    finally:
        service.close()
    assert answer["files"] == [] and "does not exist" not in json.dumps(answer)
    (home.root / "config.json").write_text("{}")
    assert main(args) == 0
    assert "Made the memory home" not in capsys.readouterr().out  # there: left as it is
