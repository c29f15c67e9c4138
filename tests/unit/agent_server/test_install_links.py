"""Install and uninstall never write through a link in a project (issue 70, 2c): a cloned
repository can ship `.codex`, or `.codex/config.toml`, as a link out of the project, and
`memtab mcp install --codex --project DIR` edited the link's target and left a backup
there while saying it edited `DIR/.codex/config.toml`. Now a link anywhere below DIR is
refused in words, nothing is written anywhere; the user's own files may still be links
(dotfile managers), followed, and the outcome names the file changed (docs/formats.md
§22.6)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memtab.agent_server.agents import claude_settings_path, config_path
from memtab.agent_server.config_files.checked_replace import BACKUP_SUFFIX
from memtab.cli.main import main
from memtab.store.home import Home

ENTRY = '[mcp_servers.memtab]\ncommand = "shipped"\nargs = []\n'


def _files(folder: Path) -> dict[str, bytes | str]:
    """Every entry below `folder`: a file's bytes, a link's target, a folder's name."""
    found: dict[str, bytes | str] = {}
    for path in sorted(folder.rglob("*")):
        name = str(path.relative_to(folder))
        if path.is_symlink():
            found[name] = f"-> {os.readlink(path)}"
        elif path.is_file():
            found[name] = path.read_bytes()
        else:
            found[name] = "folder"
    return found


def _shop(tmp_path: Path, link: str) -> tuple[Path, Path, str]:
    """A checkout `shop` whose `.codex` (or `.codex/config.toml`) is the link `link`
    names; the folder it points into, and what the refusal names as the link."""
    shop, outside = tmp_path / "shop", tmp_path / "outside"
    (shop / ".git").mkdir(parents=True)
    outside.mkdir()
    (outside / "config.toml").write_text(f"model = 'o3'\n\n{ENTRY}")
    if link == "folder-out":
        (shop / ".codex").symlink_to(outside)
        return shop, outside, f"{shop / '.codex'} is a link (to {outside}), out of the project"
    if link == "file-out":
        (shop / ".codex").mkdir()
        (shop / ".codex" / "config.toml").symlink_to(outside / "config.toml")
        named = shop / ".codex" / "config.toml"
        return shop, outside, f"{named} is a link (to {outside / 'config.toml'}), out of the"
    if link == "dangling":
        (shop / ".codex").symlink_to(outside / "not-yet")
        return shop, outside, f"{shop / '.codex'} is a link (to {outside / 'not-yet'}), out of"
    (shop / "tools").mkdir()
    (shop / ".codex").symlink_to("tools")  # inside the project: still a link
    return shop, outside, f"{shop / '.codex'} is a link (to tools), and Memtab writes nothing"


@pytest.mark.parametrize("link", ["folder-out", "file-out", "dangling", "folder-inside"])
def test_a_link_below_the_project_is_refused_and_nothing_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, link: str
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "user"))
    monkeypatch.delenv("CODEX_HOME", raising=False)
    home = tmp_path / "home"
    home.mkdir()
    shop, outside, named = _shop(tmp_path, link)
    before = _files(tmp_path)
    for change in ("install", "uninstall"):
        code = main(["mcp", change, "--codex", "--project", str(shop), "--home", str(home)])
        out, err = capsys.readouterr()
        assert code == 1, change
        assert named in err, err
        assert "Memtab writes nothing through a link inside a project: a cloned repository " in err
        made = "config.toml a real file" if link == "file-out" else ".codex a real folder"
        assert f"Make {made} of the project to install there" in err
        assert out == ""  # nothing written, nothing said to be served there
        assert _files(tmp_path) == before, change  # nothing written, no backup anywhere
    assert not list(outside.glob(f"*{BACKUP_SUFFIX}"))


def test_the_users_own_folder_linked_from_dotfiles_is_followed_and_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """~/.claude, ~/.codex and xum's mcp.jsonc kept in a dotfiles repository and linked:
    the edit goes there, and every line says so."""
    user = tmp_path / "user"
    dotfiles = tmp_path / "dotfiles"
    for folder in ("claude", "codex"):
        (dotfiles / folder).mkdir(parents=True)
    user.mkdir()
    (user / ".claude").symlink_to(dotfiles / "claude")
    (user / ".codex").symlink_to(dotfiles / "codex")
    (dotfiles / "claude" / "settings.json").write_text('{"model": "opus"}\n')
    (dotfiles / "codex" / "config.toml").write_text("model = 'o3'\n")
    (dotfiles / "mcp.jsonc").write_text("{}\n")
    monkeypatch.setenv("HOME", str(user))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    monkeypatch.delenv("CODEX_HOME", raising=False)
    home = Home(tmp_path / "home")
    home.root.mkdir()
    config_path("xum", home).symlink_to(dotfiles / "mcp.jsonc")
    settings, codex = claude_settings_path(), config_path("codex", home)
    xum = config_path("xum", home)

    assert main(["mcp", "install", "--claude", "--codex", "--xum", "--home", str(home.root)]) == 0
    out = capsys.readouterr().out
    linked = {
        settings: dotfiles / "claude" / "settings.json",
        codex: dotfiles / "codex" / "config.toml",
        xum: dotfiles / "mcp.jsonc",
    }
    for path, target in linked.items():
        assert f"{target} (linked from {path})" in out, path
        assert (target.parent / f"{target.name}{BACKUP_SUFFIX}").is_file()
        assert f"kept as {target}{BACKUP_SUFFIX}" in out
    assert (user / ".codex").is_symlink() and xum.is_symlink()

    assert main(["mcp", "uninstall", "--home", str(home.root)]) == 0
    out = capsys.readouterr().out
    assert f"out of {dotfiles / 'codex' / 'config.toml'} (linked from {codex})" in out
    assert (dotfiles / "codex" / "config.toml").read_text() == "model = 'o3'\n"
    assert (dotfiles / "claude" / "settings.json").read_text() == '{"model": "opus"}\n'


@pytest.mark.parametrize("planted", ["link-out", "dangling", "fifo", "folder"])
def test_what_a_repository_ships_at_the_backups_name_is_no_backup(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    planted: str,
) -> None:
    """Round 5, row 2c: a link at `config.toml.memtab-backup` counted as "the backup
    exists", so no copy of the repository's config.toml was made and nothing said so. A
    link, FIFO (anything but a regular file of the user's) there is removed, never
    followed, and the copy made; a folder is left alone — each said in the outcome."""
    monkeypatch.setenv("HOME", str(tmp_path / "user"))
    monkeypatch.delenv("CODEX_HOME", raising=False)
    home, shop, outside = tmp_path / "home", tmp_path / "shop", tmp_path / "outside"
    home.mkdir()
    (shop / ".git").mkdir(parents=True)
    (shop / ".codex").mkdir()
    outside.mkdir()
    config = shop / ".codex" / "config.toml"
    config.write_text("model = 'o3'\n")
    backup = shop / ".codex" / f"config.toml{BACKUP_SUFFIX}"
    victim = outside / "victim.txt"
    victim.write_text("precious outside file\n")
    said = {
        "link-out": f"{backup} was a link (to {victim}): removed, never followed",
        "dangling": f"{backup} was a link (to {outside / 'not-yet'}): removed, never followed",
        "fifo": f"{backup} was a FIFO: removed, never followed",
        "folder": f"no copy of the file as it was is kept: {backup} is a folder (left alone)",
    }[planted]
    if planted == "link-out":
        backup.symlink_to(victim)
    elif planted == "dangling":
        backup.symlink_to(outside / "not-yet")
    elif planted == "fifo":
        os.mkfifo(backup)
    else:
        backup.mkdir()
    words = ["--codex", "--project", str(shop), "--home", str(home), "--no-login-service"]
    assert main(["mcp", "install", *words]) == 0
    out = capsys.readouterr().out
    assert said in out, out
    assert victim.read_text() == "precious outside file\n"
    assert not (outside / "not-yet").exists()
    if planted == "folder":
        assert backup.is_dir() and list(backup.iterdir()) == []
        assert "kept as" not in out
    else:
        assert f"the file as it was is kept as {backup}" in out
        assert not backup.is_symlink() and backup.read_text() == "model = 'o3'\n"
        assert (backup.stat().st_mode & 0o777) == 0o600
    assert main(["mcp", "uninstall", "--codex", "--project", str(shop), "--home", str(home)]) == 0
    assert config.read_text() == "model = 'o3'\n"
    assert victim.read_text() == "precious outside file\n"
