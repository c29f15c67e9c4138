"""`memtab mcp install --gemini`: Memtab's server in Gemini CLI's settings.json, as
`gemini mcp add` writes a stdio server (`mcpServers.memtab = {"command", "args"}`), and
Memtab's own policy file `~/.gemini/policies/memtab.toml` allowing its read-only tools —
`gemini -p` leaves out of the model's tools every tool that would ask for confirmation, so
without it a headless session has no Memtab tool at all; the change tools still ask.
Every other byte of settings.json stays, comments included (it is JSON with comments:
Gemini CLI 0.61 reads it with `strip-json-comments` and `JSON.parse`, writes it with
`comment-json`), and uninstall gives it back byte for byte and takes the policy file away
(docs/formats.md §22.6). Before, install knew only Claude Code, Codex and xum."""

from __future__ import annotations

import json
import os
import tomllib
from pathlib import Path

import pytest

from memtab.agent_server.agents import config_path
from memtab.agent_server.config_files.checked_replace import BACKUP_SUFFIX
from memtab.agent_server.install import install_agent, planned_changes, server_command
from memtab.agent_server.registrations import registration
from memtab.cli.main import main
from memtab.fs.jsonfile import strip_json_comments
from memtab.store.home import Home

# A user's settings.json: Gemini CLI's auth choice (`security.auth.selectedType`), a server
# `gemini mcp add github gh-mcp` wrote, an allowed shell command, and the user's comments.
SETTINGS = (
    "{\n"
    "  // my Gemini CLI settings\n"
    '  "security": {\n    "auth": {\n      "selectedType": "gemini-api-key"\n    }\n  },\n'
    '  "tools": {\n    "allowed": [\n      "run_shell_command(git status)" // read-only git\n'
    "    ]\n  },\n"
    "  /* servers */\n"
    '  "mcpServers": {\n    "github": {\n      "command": "gh-mcp",\n      "args": []\n    }\n'
    "  }\n"
    "}\n"
)
# Memtab's rule as Gemini CLI's policy engine reads a `[[rule]]` (`PolicyRuleSchema`):
# `mcpName` + `toolName` make `mcp_memtab_<tool>` (`formatMcpToolName`), user tier 4.300.
RULE = {
    "mcpName": "memtab",
    "toolName": ["list", "search", "view"],
    "decision": "allow",
    "priority": 300,
}


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Home:
    monkeypatch.setenv("HOME", str(tmp_path / "user"))
    monkeypatch.delenv("GEMINI_CLI_HOME", raising=False)
    monkeypatch.setenv("GEMINI_CLI_SYSTEM_SETTINGS_PATH", str(tmp_path / "no-system.json"))
    home = Home(tmp_path / "memtab home")
    home.root.mkdir(parents=True)
    return home


def _run(home: Home, capsys: pytest.CaptureFixture[str], *words: str) -> tuple[int, str, str]:
    code = main(["mcp", *words, "--home", str(home.root)])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _settings(path: Path) -> dict[str, object]:
    """The file as Gemini CLI reads it."""
    document = json.loads(strip_json_comments(path.read_text()))
    assert isinstance(document, dict)
    return document


def _entry(home: Home, *, writes: str | None = None) -> dict[str, object]:
    command = server_command(home, writes=writes)
    return {"command": command[0], "args": command[1:]}


def test_gemini_cli_gets_the_server_and_memtabs_rule_and_uninstall_gives_the_bytes_back(
    home: Home, capsys: pytest.CaptureFixture[str]
) -> None:
    path = config_path("gemini", home)
    assert path == Path(os.environ["HOME"]) / ".gemini" / "settings.json"
    policy = path.parent / "policies" / "memtab.toml"
    path.parent.mkdir(parents=True)
    path.write_text(SETTINGS)
    code, out, err = _run(home, capsys, "install", "--no-login-service")  # found: ~/.gemini
    assert (code, err) == (0, "")
    document = _settings(path)
    assert document["mcpServers"] == {
        "github": {"command": "gh-mcp", "args": []},
        "memtab": _entry(home),
    }
    assert document["tools"] == {"allowed": ["run_shell_command(git status)"]}  # untouched
    text = path.read_text()
    assert "  // my Gemini CLI settings\n" in text and "  /* servers */\n" in text
    assert tomllib.loads(policy.read_text()) == {"rule": [RULE]}
    assert policy.read_text().startswith("# Memtab's rule for Gemini CLI")
    assert policy.stat().st_mode & 0o777 == 0o600
    assert policy.parent.stat().st_mode & 0o777 == 0o700
    assert f"Gemini CLI: added the memtab server to {path}: mcpServers.memtab runs " in out
    assert "so Gemini CLI starts Memtab in every folder it trusts and waits for its tools" in out
    assert "no trust: true (only the tools its policies allow run without asking)" in out
    assert f"the file as it was is kept as {path}{BACKUP_SUFFIX}" in out
    assert (
        f"Gemini CLI: wrote Memtab's rule to {policy}: its read-only tools (mcp_memtab_list, "
        "mcp_memtab_search, mcp_memtab_view) run without asking, in gemini -p too (which "
        "leaves out a tool that would ask); the change tools still ask; made "
        f"{policy.parent} for it (uninstall takes it away again)"
    ) in out
    assert registration("gemini", path).text() == (
        f"Gemini CLI: registered — changes go to your Inbox ({path})"
    )

    code, out, _ = _run(home, capsys, "install", "--gemini", "--no-login-service")
    assert "the memtab server is already in" in out and "Memtab's rule is already in" in out
    assert path.read_text() == text

    code, out, err = _run(home, capsys, "uninstall")  # every agent that has it
    assert (code, err) == (0, "")
    assert path.read_text() == SETTINGS
    assert not policy.parent.exists()  # install made the folder: it goes with the file
    assert f"Gemini CLI: took the memtab server (mcpServers.memtab) out of {path}" in out
    assert "Gemini CLI: took Memtab's rule (its read-only tools, mcp_memtab_list, " in out
    assert not registration("gemini", path).registered


def test_a_fresh_settings_file_is_made_and_goes_again_and_gemini_cli_home_is_followed(
    home: Home, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GEMINI_CLI_HOME", str(tmp_path / "gemini home"))
    path = config_path("gemini", home)
    assert path == tmp_path / "gemini home" / ".gemini" / "settings.json"
    code, out, _ = _run(home, capsys, "install", "--gemini", "--no-login-service")
    assert code == 0 and f"made {path.parent.parent}, {path.parent} for it" in out
    assert _settings(path) == {"mcpServers": {"memtab": _entry(home)}}
    assert path.stat().st_mode & 0o777 == 0o600
    assert (path.parent / "policies" / "memtab.toml").is_file()
    code, out, _ = _run(home, capsys, "uninstall", "--gemini")
    assert code == 0 and not path.parent.parent.exists()  # install made all of it: all goes
    assert not (tmp_path / "user" / ".gemini").exists()


def test_an_entry_of_the_users_keeps_what_they_added_but_another_transport_is_replaced(
    home: Home,
) -> None:
    path = config_path("gemini", home)
    path.parent.mkdir(parents=True)
    path.write_text(
        '{"mcpServers": {"memtab": {"command": "old-memtab", "args": ["mcp"], "timeout": 30000,'
        ' "trust": true, "env": {"A": "1"}}}}'
    )
    command = server_command(home, writes="direct")
    outcomes = install_agent("gemini", home, command)
    assert [outcome.status for outcome in outcomes] == ["updated", "added"]
    assert _settings(path)["mcpServers"] == {
        "memtab": {
            "command": command[0],
            "args": command[1:],
            "timeout": 30000,
            "trust": True,
            "env": {"A": "1"},
        }
    }
    path.write_text('{"mcpServers": {"memtab": {"httpUrl": "http://127.0.0.1:9/mcp"}}}')
    install_agent("gemini", home, command)
    assert _settings(path)["mcpServers"] == {"memtab": _entry(home, writes="direct")}


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ('{"mcpServers": {"github": {"command": "gh"},},}', "a trailing comma is not"),
        ('{"mcpServers": [] // none\n}', "'mcpServers' that is not a JSON object"),
    ],
)
def test_a_file_gemini_cli_or_memtab_cannot_read_is_left_as_it_is(
    home: Home, capsys: pytest.CaptureFixture[str], text: str, why: str
) -> None:
    path = config_path("gemini", home)
    path.parent.mkdir(parents=True)
    path.write_text(text)
    code, out, err = _run(home, capsys, "install", "--gemini", "--no-login-service")
    assert (code, out) == (1, "") and why in err
    assert 'add this by hand:\n{\n  "mcpServers": {\n    "memtab": {' in err
    assert path.read_text() == text
    assert sorted(child.name for child in path.parent.iterdir()) == ["settings.json"]
    if "trailing" in why:
        assert "is not JSON as Gemini CLI reads it" in err and "stops at its start" in err
        assert "is not JSON as Gemini CLI reads it" in registration("gemini", path).text()


def test_a_policy_file_memtab_did_not_write_is_never_changed_but_an_older_one_is(
    home: Home, capsys: pytest.CaptureFixture[str]
) -> None:
    policy = config_path("gemini", home).parent / "policies" / "memtab.toml"
    policy.parent.mkdir(parents=True)
    mine = '[[rule]]\ntoolName = "mcp_memtab_delete"\ndecision = "deny"\npriority = 900\n'
    policy.write_text(mine)
    code, out, err = _run(home, capsys, "install", "--gemini", "--no-login-service")
    assert code == 1 and "Gemini CLI: added the memtab server" in out
    assert f"{policy} holds rules Memtab did not write, which it never changes" in err
    assert f"add this by hand:\n(in another file of {policy.parent})\n# Memtab's rule" in err
    code, _, err = _run(home, capsys, "uninstall", "--gemini")
    assert code == 1 and "holds rules Memtab did not write" in err
    assert policy.read_text() == mine
    older = "# Memtab's rule for Gemini CLI (memtab mcp install --gemini).\n[[rule]]\n"
    policy.write_text(older)
    code, out, _ = _run(home, capsys, "install", "--gemini", "--no-login-service")
    assert code == 0 and f"wrote Memtab's rule to {policy}" in out
    assert tomllib.loads(policy.read_text()) == {"rule": [RULE]}
    assert not list(policy.parent.glob("*backup*"))  # Memtab's own file: no copy kept
    code, out, _ = _run(home, capsys, "uninstall", "--gemini")  # not created by install…
    assert (
        code == 0
        and f"out of {policy}; nothing else changed; the file was Memtab's own, so it is gone\n"
        in out
    )
    assert not policy.exists() and policy.parent.is_dir()  # …yet Memtab's: it goes, not its folder


def test_print_shows_both_snippets_and_settings_asks_naming_both_files(
    home: Home, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _run(home, capsys, "install", "--gemini", "--print")
    path = config_path("gemini", home)
    policy = path.parent / "policies" / "memtab.toml"
    assert code == 0 and not path.parent.exists()
    server, rule = out.strip().split("\n\n")
    assert server.startswith(f"# Gemini CLI: {path}\n")
    assert json.loads(server.split("\n", 1)[1]) == {"mcpServers": {"memtab": _entry(home)}}
    assert rule.startswith(f"# Gemini CLI: {policy}\n")
    assert tomllib.loads(rule.split("\n", 1)[1]) == {"rule": [RULE]}
    changes = planned_changes("gemini", home)
    assert [change.path for change in changes] == [path, policy]
    assert changes[0].change.startswith("adds mcpServers.memtab, which runs ")
    assert changes[1].change == (
        "Memtab's own rule: its read-only tools (mcp_memtab_list, mcp_memtab_search, "
        "mcp_memtab_view) run without asking"
    )


def test_a_per_project_install_goes_to_the_workspace_settings_and_the_rule_to_the_users(
    home: Home, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--project DIR`: Gemini CLI reads `DIR/.gemini/settings.json` (its workspace
    settings) in sessions started in DIR, their `mcpServers` merged server by server; the
    rule is the user's, as Claude Code's permission list is (uninstall --project leaves
    it for the user-wide entry)."""
    shop = tmp_path / "src" / "shop"
    (shop / ".git").mkdir(parents=True)
    (shop / ".gemini").mkdir()
    own = '{\n  // the team\'s\n  "tools": {"allowed": ["run_shell_command(npm test)"]}\n}\n'
    project_file = shop / ".gemini" / "settings.json"
    project_file.write_text(own)
    args = ("--gemini", "--project", str(shop))
    code, out, err = _run(home, capsys, "install", *args, "--no-login-service")
    assert (code, err) == (0, "")
    assert _settings(project_file) == {
        "tools": {"allowed": ["run_shell_command(npm test)"]},
        "mcpServers": {"memtab": _entry(home)},
    }
    user_file = config_path("gemini", home)
    assert not user_file.exists()  # the rule is in its own file
    policy = user_file.parent / "policies" / "memtab.toml"
    assert tomllib.loads(policy.read_text()) == {"rule": [RULE]}
    assert (
        f"Gemini CLI's workspace settings: read only by sessions started in {shop} itself (not "
        "in a folder below it) while Gemini CLI trusts it, where it takes the place of the "
        "memtab entry in ~/.gemini/settings.json"
    ) in out
    assert f"In {shop}: This session serves global memory" in out
    code, out, _ = _run(home, capsys, "uninstall", *args)
    assert code == 0 and project_file.read_text() == own
    assert out.count("Gemini CLI:") == 1 and policy.is_file()


def test_no_per_project_install_where_gemini_cli_reads_none_nor_through_a_link(
    home: Home, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    user = Path(os.environ["HOME"])
    user.mkdir()
    code, _, err = _run(home, capsys, "install", "--gemini", "--project", str(user))
    assert code == 1
    assert (
        f"Gemini CLI: wrote nothing: {user} is the folder Gemini CLI takes for your home: it "
        "reads no project settings there, only ~/.gemini/settings.json"
    ) in err
    assert not (user / ".gemini").exists()
    shop, outside = tmp_path / "shop", tmp_path / "outside"
    shop.mkdir()
    outside.mkdir()
    (shop / ".gemini").symlink_to(outside)
    code, _, err = _run(home, capsys, "install", "--gemini", "--project", str(shop))
    assert code == 1
    assert f"Gemini CLI: wrote nothing: {shop / '.gemini'} is a link (to {outside})" in err
    assert list(outside.iterdir()) == [] and not (user / ".gemini").exists()


def test_install_warns_when_gemini_clis_own_settings_keep_memtab_out(
    home: Home, capsys: pytest.CaptureFixture[str]
) -> None:
    path = config_path("gemini", home)
    path.parent.mkdir(parents=True)
    path.write_text('{"mcp": {"excluded": ["memtab"]}, "policyPaths": ["~/team-policies"]}\n')
    code, out, err = _run(home, capsys, "install", "--gemini", "--no-login-service")
    assert code == 0 and "Gemini CLI: added the memtab server" in out
    policies = path.parent / "policies"
    assert err == (
        "Gemini CLI: warning: its settings exclude the memtab server (mcp.excluded), so it "
        'never starts it: take "memtab" out of that list\n'
        "Gemini CLI: warning: its settings' policyPaths (~/team-policies) are read in place of "
        f"{policies}, so it reads no rule there — memtab's either, and its read-only tools "
        f"ask (gemini -p leaves them out): copy {policies / 'memtab.toml'} to one of them\n"
    )


def test_an_entry_holding_comments_keeps_them_and_its_keys(home: Home) -> None:
    """A JSONC value is read without its comments (before, an entry with one read as no
    value and was replaced whole, its comments and the user's keys lost)."""
    path = config_path("gemini", home)
    path.parent.mkdir(parents=True)
    path.write_text(
        '{\n  "mcpServers": {\n    "memtab": {\n      // my memory\n'
        '      "command": "old-memtab",\n      "args": ["mcp"],\n'
        '      "timeout": 600000 /* ten minutes */\n    }\n  }\n}\n'
    )
    (server, _rule) = install_agent("gemini", home, server_command(home))
    assert server.status == "updated"
    text = path.read_text()
    assert "      // my memory\n" in text and '"timeout": 600000 /* ten minutes */' in text
    assert _settings(path)["mcpServers"] == {"memtab": {**_entry(home), "timeout": 600000}}
