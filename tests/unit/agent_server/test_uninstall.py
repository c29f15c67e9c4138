"""`memtab mcp uninstall` takes out what install wrote and nothing else: right after an
install, each agent's files are back byte for byte; a file Memtab cannot read is left as it
is, saying what to take out by hand (docs/formats.md §22.6)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from memtab.agent_server.agents import claude_settings_path, config_path
from memtab.agent_server.config_files import EditStatus
from memtab.agent_server.config_files.checked_replace import BACKUP_SUFFIX, CreatedFiles, edit_file
from memtab.agent_server.install import install_on_home
from memtab.agent_server.registrations import registered
from memtab.cli.main import main
from memtab.demo import create_demo_home
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
    assert not claude_settings_path().parent.exists()  # install made ~/.claude for it
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


def _tree(folder: Path) -> list[str]:
    return sorted(str(path.relative_to(folder)) for path in folder.rglob("*"))


def test_uninstall_takes_away_the_files_and_folders_install_created(
    home: Home, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 74: Remove left `{}` files (and ~/.claude, ~/.codex) that did not exist
    before Install; a re-install made a backup of Memtab's own file."""
    before = _tree(tmp_path)
    code, out, _ = _run(home, capsys, "install", "--claude", "--codex", "--xum")
    assert code == 0
    codex = config_path("codex", home)
    assert f"made {codex.parent} for it (uninstall takes it away again)" in out
    code, _, _ = _run(home, capsys, "install", "--claude", "--codex", "--writes", "direct")
    assert code == 0  # an update of the files Memtab created: no backup of them
    assert not [name for name in _tree(tmp_path) if BACKUP_SUFFIX in name]
    code, out, err = _run(home, capsys, "uninstall")
    assert code == 0 and err == ""
    assert _tree(tmp_path) == before
    assert (
        f"Codex: took the memtab server ([mcp_servers.memtab]) out of {codex}; nothing else "
        "changed; the file held nothing else and Memtab's install had created it, so it is "
        f"gone; so is {codex.parent}, made for it"
    ) in out


def test_a_created_file_an_agent_wrote_to_stays_and_an_existing_empty_one_too(
    home: Home, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = claude_settings_path()
    _run(home, capsys, "install", "--claude")
    (settings.parent / "todos").mkdir()  # Claude Code's own, in the folder install made
    assert _run(home, capsys, "uninstall", "--claude")[0] == 0
    assert not settings.exists() and (settings.parent / "todos").is_dir()
    codex = config_path("codex", home)
    codex.parent.mkdir()
    codex.write_text("")  # the user's, empty: it was there before
    _run(home, capsys, "install", "--codex")
    assert _run(home, capsys, "uninstall", "--codex")[0] == 0
    assert codex.read_text() == ""


def test_a_save_that_lands_as_the_created_file_goes_is_kept(tmp_path: Path) -> None:
    """The file is taken away only while it holds what was read: an agent's save in
    between stays in place, and the edit is made again from it."""
    path = tmp_path / "settings.json"
    created = CreatedFiles(tmp_path / "ledger.json")
    edit_file(path, lambda data: (b'{"a": 1}\n', "added"), created=created)
    assert created.created(path)
    calls: list[bytes | None] = []

    def take_out(data: bytes | None) -> tuple[bytes, EditStatus]:
        calls.append(data)
        if len(calls) == 1:  # the agent saves right after Memtab read the file
            path.write_text('{"a": 1, "theme": "dark"}\n')
            return b"{}\n", "updated"
        assert data is not None
        return data.replace(b'"a": 1, ', b""), "updated"

    edited = edit_file(path, take_out, created=created)
    assert not edited.removed and path.read_text() == '{"theme": "dark"}\n'
    assert calls[1] == b'{"a": 1, "theme": "dark"}\n'
    assert created.created(path)  # still Memtab's creation, until it goes


@pytest.mark.skipif(os.geteuid() != 0, reason="making another user's file needs root")
@pytest.mark.expect_log(
    "memtab.agent_server.config_files.checked_replace", "WARNING", r"of another user .* not read"
)
def test_a_ledger_another_user_planted_never_chooses_what_is_removed(tmp_path: Path) -> None:
    """agent-files.json planted by another user (while the config dir was open to others)
    would make uninstall take away the user's empty files and folders it names: it counts
    as naming none (issue 70 point 2)."""
    mine = tmp_path / "mine" / "settings.json"
    mine.parent.mkdir()
    mine.write_text("{}\n")
    ledger = tmp_path / "ledger.json"
    other = tmp_path / "other" / "config.toml"
    named = {str(path): {"folders": [str(path.parent)]} for path in (mine, other)}
    ledger.write_text(json.dumps({"created": named}))
    os.chown(ledger, 65534, 65534)
    assert not CreatedFiles(ledger).created(mine)
    assert CreatedFiles(ledger).forget(mine) == ()
    # Written again as the user's, it keeps nothing of theirs.
    assert ledger.stat().st_uid == os.getuid() and not CreatedFiles(ledger).created(other)


def test_a_demo_home_reaches_no_real_agent(
    home: Home, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 70, 6: in a demo home, install and uninstall are refused in words, `--print`
    too, and the window's operation writes nothing."""
    demo = Home(create_demo_home(tmp_path / "demo").root)
    before = _tree(tmp_path)  # HOME too: ~/.claude.json, ~/.claude, ~/.codex
    said = []
    for words in (
        ["install"],
        ["install", "--claude", "--codex", "--xum"],
        ["install", "--claude", "--print"],
        ["uninstall", "--claude"],
    ):
        code = main(["mcp", *words, "--home", str(demo.root)])
        err = capsys.readouterr().err
        assert code == 1, words
        assert f"{demo.root} is a demo home, its memory invented (a fresh demo replaces it)" in err
        said.append(err)
    assert "Memtab registers it with no agent, or your real agents would read the demo's" in said[0]
    assert "memtab mcp uninstall, run on your own home, takes an entry out" in said[-1]
    for agent in ("claude", "codex", "xum"):
        (outcome,) = install_on_home(agent, demo)  # Settings' Install
        assert outcome.status == "refused" and "is a demo home" in outcome.message
    assert _tree(tmp_path) == before


@pytest.mark.parametrize("inside", ["memory", "memory/global", "projects/made-later"])
def test_a_folder_inside_a_demo_home_is_refused_as_the_demo_is(
    home: Home, tmp_path: Path, capsys: pytest.CaptureFixture[str], inside: str
) -> None:
    """Round 5, row 6: `--home <demo>/memory` was registered with the agents — a home the
    next `make run` wipes, with the agents' proposals in it. A folder inside a demo home
    (by its path, or through a link to it) is refused with the demo's own sentence, on the
    command line and by the window's Install."""
    demo = create_demo_home(tmp_path / "demo").root
    link = tmp_path / "link-to-memory"
    link.symlink_to(demo / "memory")
    before = _tree(tmp_path)
    sentence = f"{demo} is a demo home, its memory invented (a fresh demo replaces it)"
    for named in (demo / inside, link / "global"):
        for words in (["install", "--claude"], ["install", "--codex", "--print"]):
            assert main(["mcp", *words, "--home", str(named)]) == 1, (named, words)
            err = capsys.readouterr().err
            assert sentence in err and "Memtab registers it with no agent" in err
        assert main(["mcp", "uninstall", "--claude", "--home", str(named)]) == 1
        assert sentence in capsys.readouterr().err
        (outcome,) = install_on_home("claude", Home(named))  # Settings' Install
        assert outcome.status == "refused" and sentence in outcome.message
    assert _tree(tmp_path) == before
    beside = tmp_path / "beside-the-demo"  # a sibling folder is no part of it
    assert main(["mcp", "install", "--claude", "--print", "--home", str(beside)]) == 0
