"""`memtab mcp install` reads only a regular file within its cap, refuses anything else
at once and in words (exit 1, the file untouched), and changes only its own entry: every
other byte of the agent's file as it was, its mode kept, a copy made before the first
change (docs/formats.md §22.6)."""

from __future__ import annotations

import json
import os
import stat
import tomllib
from pathlib import Path

import pytest

from memtab.agent_server.codex_config import FORWARDED_VARIABLES
from memtab.agent_server.config_files.checked_replace import BACKUP_SUFFIX, CONFIG_LIMIT
from memtab.agent_server.install import register_server
from memtab.agent_server.registrations import registered
from memtab.cli.main import main

COMMAND = ["/opt/memtab/bin/memtab", "mcp", "--home", "/data/h"]
ENTRY = (
    '{\n    "type": "stdio",\n    "command": "/opt/memtab/bin/memtab",\n'
    '    "args": [\n      "mcp",\n      "--home",\n      "/data/h"\n    ],\n    "env": {},\n'
    '    "alwaysLoad": true\n  }'
)


def _install_claude(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> tuple[int, str]:
    monkeypatch.setenv("HOME", str(tmp_path))
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    code = main(["mcp", "install", "--claude", "--home", str(home)])
    return code, capsys.readouterr().err


@pytest.mark.timeout(30)  # an open of a FIFO nothing writes to would wait for ever
def test_a_fifo_is_refused_at_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    os.mkfifo(tmp_path / ".claude.json")
    code, err = _install_claude(tmp_path, capsys, monkeypatch)
    assert code == 1
    assert "it is a FIFO (named pipe), not a regular file; add this by hand" in err
    assert stat.S_ISFIFO(os.lstat(tmp_path / ".claude.json").st_mode)
    assert not registered("claude", tmp_path / ".claude.json")


def test_a_link_to_a_device_is_refused_and_stays_a_link(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / ".claude.json").symlink_to("/dev/zero")
    code, err = _install_claude(tmp_path, capsys, monkeypatch)
    assert code == 1 and "it is a device, not a regular file" in err
    assert os.readlink(tmp_path / ".claude.json") == "/dev/zero"
    assert sorted(child.name for child in tmp_path.iterdir()) == [".claude.json", "home"]


def test_a_directory_a_dangling_link_and_a_huge_file_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / ".claude.json"
    config.mkdir()
    code, err = _install_claude(tmp_path, capsys, monkeypatch)
    assert code == 1 and "it is a directory" in err and config.is_dir()
    config.rmdir()
    config.symlink_to(tmp_path / "gone.json")
    code, err = _install_claude(tmp_path, capsys, monkeypatch)
    assert code == 1 and "gone.json, which does not exist" in err
    assert not (tmp_path / "gone.json").exists()
    config.unlink()
    with config.open("wb") as handle:
        handle.write(b"{}")
        handle.truncate(CONFIG_LIMIT + 1)  # sparse: no disk spent
    code, err = _install_claude(tmp_path, capsys, monkeypatch)
    assert code == 1 and "it holds more than 16 MiB (16,777,216 bytes)" in err
    assert config.stat().st_size == CONFIG_LIMIT + 1
    assert not any(child.name.endswith(BACKUP_SUFFIX) for child in tmp_path.iterdir())


def test_claude_codes_file_keeps_every_byte_outside_memtabs_entry(tmp_path: Path) -> None:
    # What a load and dump would change: a number past a float's range (dumped back as
    # Infinity, which Claude Code's reader rejects), a lone surrogate (U+FFFD), escapes,
    # key order and odd spacing.
    path = tmp_path / ".claude.json"
    before = (
        '{\n  "numStartups": 1e400,\n  "lone": "\\ud800",\n  "slash": "a\\/b",\n'
        '  "mcpServers": {\n    "gh": {"command": "gh"}\n  },\n  "tail" :  [ 1,2 ]\n}'
    )
    path.write_text(before, encoding="utf-8")
    outcome = register_server("claude", path, COMMAND)
    assert outcome.status == "added"
    after = path.read_text(encoding="utf-8")
    assert after == before.replace(
        '{"command": "gh"}\n',
        '{"command": "gh"},\n    "memtab": ' + ENTRY.replace("\n", "\n  ") + "\n",
    )
    assert "mcpServers.memtab runs /opt/memtab/bin/memtab mcp --home /data/h" in outcome.message
    assert "nothing else changed" in outcome.message
    updated = register_server("claude", path, [*COMMAND, "--writes", "direct"])
    assert updated.status == "updated"
    assert path.read_text(encoding="utf-8").startswith(before[: before.index('"mcpServers"')])
    assert path.read_text(encoding="utf-8").endswith('  },\n  "tail" :  [ 1,2 ]\n}')


def test_codex_comments_and_odd_whitespace_are_kept(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    before = (
        "# my   settings\r\n"
        "model = 'o3'   # fast\r\n"
        "big = 1e400\r\n"
        '[ mcp_servers . "memtab" ]   # memtab\r\n'
        "\tcommand   =  'old'   # launcher\r\n"
        "\targs = [\r\n\t  'mcp', # one\r\n\t]\r\n"
        "\tenv = { A = '1' }\r\n"
        "[profiles.fast]  \r\n"
    )
    path.write_bytes(before.encode())
    assert register_server("codex", path, COMMAND).status == "updated"
    tools = "".join(
        f'\r\n[mcp_servers.memtab.tools.{name}]\r\n\tapproval_mode = "approve"\r\n'
        for name in ("list", "search", "view")
    )
    assert path.read_bytes().decode() == (
        before.replace("'old'", '"/opt/memtab/bin/memtab"')
        .replace(
            "[\r\n\t  'mcp', # one\r\n\t]\r\n",
            '["mcp", "--home", "/data/h"]\r\n\trequired = true\r\n'
            f"\tenv_vars = {json.dumps(list(FORWARDED_VARIABLES))}\r\n",
        )
        .replace("\tenv = { A = '1' }\r\n", "\tenv = { A = '1' }\r\n" + tools)
    )
    assert tomllib.loads(path.read_text())["mcp_servers"]["memtab"]["env"] == {"A": "1"}


def test_xums_jsonc_keeps_its_comments(tmp_path: Path) -> None:
    path = tmp_path / "mcp.jsonc"
    before = '// servers xum starts\n{\n  "servers": {\n    "gh": "gh-mcp", // GitHub\n  },\n}\n'
    path.write_text(before)
    assert register_server("xum", path, COMMAND).status == "added"
    assert path.read_text() == before.replace(
        "// GitHub\n", '// GitHub\n    "memtab": "/opt/memtab/bin/memtab mcp --home /data/h",\n'
    )
    assert registered("xum", path)


def test_mode_and_owner_are_kept_and_the_first_version_is_backed_up_once(tmp_path: Path) -> None:
    path = tmp_path / ".claude.json"
    path.write_text('{"a": 1}')
    path.chmod(0o640)
    owner = (path.stat().st_uid, path.stat().st_gid)
    outcome = register_server("claude", path, COMMAND)
    backup = tmp_path / (".claude.json" + BACKUP_SUFFIX)
    assert f"the file as it was is kept as {backup}" in outcome.message
    assert backup.read_text() == '{"a": 1}' and stat.S_IMODE(backup.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert (path.stat().st_uid, path.stat().st_gid) == owner
    outcome = register_server("claude", path, [*COMMAND, "--writes", "off"])
    assert outcome.status == "updated" and "kept as" not in outcome.message
    assert backup.read_text() == '{"a": 1}'  # the version before Memtab's first change
    new = tmp_path / "codex" / "config.toml"
    assert register_server("codex", new, COMMAND).status == "added"
    assert stat.S_IMODE(new.stat().st_mode) == 0o600
    assert not (tmp_path / "codex" / ("config.toml" + BACKUP_SUFFIX)).exists()


def test_a_link_to_a_regular_file_changes_that_file_and_stays_a_link(tmp_path: Path) -> None:
    dotfiles = tmp_path / "dotfiles"
    dotfiles.mkdir()
    (dotfiles / "claude.json").write_text('{"a": 1}\n')
    link = tmp_path / ".claude.json"
    link.symlink_to(dotfiles / "claude.json")
    outcome = register_server("claude", link, COMMAND)
    assert outcome.status == "added"
    assert f"{dotfiles / 'claude.json'} (linked from {link})" in outcome.message
    assert link.is_symlink() and json.loads(link.read_text())["mcpServers"]["memtab"]
    assert (dotfiles / ("claude.json" + BACKUP_SUFFIX)).read_text() == '{"a": 1}\n'


def test_xums_entry_written_as_an_object_keeps_all_but_its_command(tmp_path: Path) -> None:
    path = tmp_path / "mcp.jsonc"
    before = '{"servers": {\n  "memtab": {"command": "old", "disabled": true} // off\n}}'
    path.write_text(before)
    assert register_server("xum", path, COMMAND).status == "updated"
    assert path.read_text() == before.replace(
        '"old"', '"/opt/memtab/bin/memtab mcp --home /data/h"'
    )
    assert register_server("xum", path, COMMAND).status == "unchanged"


@pytest.mark.skipif(os.geteuid() != 0, reason="making another user's file needs root")
def test_a_file_of_another_user_is_refused_in_words_and_left_as_it_was(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 81 point 16: root edited another user's `config.toml` and `settings.json`
    in place (keeping their owner) without a word; install and uninstall now refuse."""
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("CODEX_HOME", raising=False)
    monkeypatch.delenv("GEMINI_CLI_HOME", raising=False)
    files = {
        tmp_path / ".codex" / "config.toml": 'model = "o3"\n',
        tmp_path / ".gemini" / "settings.json": '{\n  "theme": "dark"\n}\n',
    }
    for path, text in files.items():
        path.parent.mkdir()
        path.write_text(text)
        os.chown(path, 65534, 65534)
    home = tmp_path / "home"
    home.mkdir()
    agents = ["--codex", "--gemini", "--home", str(home)]
    assert main(["mcp", "install", *agents]) == 1
    err = capsys.readouterr().err
    assert err.count("it belongs to another user (") == 2 and "uid 65534)" in err
    for path, text in files.items():
        assert path.read_text() == text and path.stat().st_uid == 65534
        assert not path.with_name(path.name + BACKUP_SUFFIX).exists()

    for path in files:  # installed while they were the user's own, then given away
        os.chown(path, 0, 0)
    assert main(["mcp", "install", *agents]) == 0
    installed = {path: path.read_text() for path in files}
    for path in files:
        os.chown(path, 65534, 65534)
    capsys.readouterr()
    assert main(["mcp", "uninstall", *agents]) == 1
    assert capsys.readouterr().err.count("it belongs to another user (") == 2
    assert {path: path.read_text() for path in files} == installed
