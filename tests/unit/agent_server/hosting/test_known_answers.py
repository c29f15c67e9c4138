"""The answers a bridge keeps for the next session set up the same way (`bridge/known_answers.py`,
docs/formats.md §22.8): served only while this Memtab install and the files the host made them
from are as they were — never after an upgrade or a registry changed since — read only from a
private regular file of the user's, written whole, in Memtab's cache dir."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from memtab.agent_server.bridge import known_answers
from memtab.agent_server.bridge.known_answers import (
    Answers,
    KnownAnswers,
    answers_folder,
    setup_key,
)
from memtab.fs.config.config_dir import cache_dir

INITIALIZE = {"protocolVersion": "2025-11-25", "instructions": "Memtab is the user's memory"}
TOOLS = {"tools": [{"name": "search", "description": "Recall what was remembered"}]}
ASKED = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "claude-code"}}


@pytest.mark.parametrize(
    "variables",
    [
        {},
        {"XDG_CACHE_HOME": "/elsewhere/cache"},
        {"XDG_CACHE_HOME": "relative/cache"},  # not absolute: ignored, as the XDG rule says
        {"MEMTAB_CONFIG_DIR": "/dotfiles/memtab"},
        {"MEMTAB_CONFIG_DIR": "/dotfiles/memtab", "XDG_CACHE_HOME": "/elsewhere/cache"},
    ],
)
def test_the_answers_are_kept_in_memtabs_cache_dir(
    variables: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("XDG_CACHE_HOME", "MEMTAB_CONFIG_DIR"):
        monkeypatch.delenv(name, raising=False)
    for name, value in variables.items():
        monkeypatch.setenv(name, value)
    assert answers_folder(os.environ) == str(cache_dir() / "mcp-answers")


@pytest.fixture
def install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A Memtab package folder of the test's, as if installed in `site-packages`."""
    package = tmp_path / "site-packages" / "memtab"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text('__version__ = "1.0"\n')
    monkeypatch.setattr(
        known_answers, "install_identity", lambda: ("/usr/bin/python3", str(package))
    )
    return package


def kept(tmp_path: Path, made_from: list[str]) -> KnownAnswers:
    folder = tmp_path / "cache" / "mcp-answers"
    KnownAnswers(str(folder), "k").keep(Answers(INITIALIZE, TOOLS), made_from)
    return KnownAnswers(str(folder), "k")


def test_kept_answers_are_served_as_the_host_gave_them(install: Path, tmp_path: Path) -> None:
    read = kept(tmp_path, []).read()
    assert read is not None and (read.initialize, read.tools) == (INITIALIZE, TOOLS)
    entry = Path(kept(tmp_path, []).path)
    assert entry.stat().st_mode & 0o777 == 0o600
    assert entry.parent.stat().st_mode & 0o777 == 0o700


def test_a_session_that_lists_no_tools_keeps_the_list_kept_before(
    install: Path, tmp_path: Path
) -> None:
    answers = kept(tmp_path, [])
    later = {**INITIALIZE, "instructions": "Memtab is the user's memory, and more"}
    answers.keep(Answers(later, None), [])
    read = KnownAnswers(answers.folder, "k").read()
    assert read is not None and (read.initialize, read.tools) == (later, TOOLS)


def test_an_upgrade_never_gets_the_answers_of_the_install_before(
    install: Path, tmp_path: Path
) -> None:
    answers = kept(tmp_path, [])
    (install / "__init__.py").unlink()  # pip writes the new version's files anew
    (install / "__init__.py").write_text('__version__ = "1.0"\n')
    assert answers.read() is None
    again = kept(tmp_path, [])
    assert again.read() is not None
    (install.parent / "memtab-1.1.dist-info").mkdir()  # an upgrade beside it, the package alike
    assert KnownAnswers(again.folder, "k").read() is None


def test_answers_made_from_a_registry_that_changed_since_are_not_served(
    install: Path, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    registry = home / "config.json"
    registry.write_text('{"projects": []}')
    answers = kept(tmp_path, [str(home), str(registry)])
    assert answers.read() is not None
    registry.write_text('{"projects": [{"path": "/src/new"}]}')  # a project registered since
    assert KnownAnswers(answers.folder, "k").read() is None
    answers = kept(tmp_path, [str(home), str(registry)])
    registry.unlink()
    assert KnownAnswers(answers.folder, "k").read() is None


def test_a_setup_is_its_words_directory_variables_and_what_the_client_asked(
    install: Path,
) -> None:
    words, cwd, env = ["mcp", "--writes", "off"], "/src/app", {"HOME": "/u"}
    key = setup_key(words, cwd, env, ASKED)
    newer_client = {**ASKED, "clientInfo": {"name": "claude-code", "version": "2.2"}}
    assert setup_key(words, cwd, env, newer_client) == key
    roots = {**ASKED, "capabilities": {"roots": {}}}
    codex = {**ASKED, "clientInfo": {"name": "codex-mcp-client"}}
    others = [
        setup_key(["mcp", "--writes", "inbox"], cwd, env, ASKED),
        setup_key(words, "/src/other", env, ASKED),
        setup_key(words, cwd, {"HOME": "/v"}, ASKED),
        setup_key(words, cwd, env, roots),
        setup_key(words, cwd, env, codex),
        setup_key(words, cwd, {**env, "PATH": "/x"}, ASKED),
    ]
    assert key not in others[:-1]
    assert others[-1] == key  # a variable no origin carries changes nothing


def test_what_claude_code_sets_anew_each_session_is_no_new_setup(install: Path) -> None:
    words, cwd = ["mcp", "--writes", "off"], "/src/app"

    def session(number: int) -> dict[str, str]:  # as Claude Code 2.1.332 starts its server
        return {
            "HOME": "/u",
            "CLAUDE_PROJECT_DIR": cwd,
            "CLAUDE_CODE_SESSION_ID": f"b0e3a4b4-{number}",
            "CLAUDE_CODE_LAUNCHED_BY_SESSION_IDS": f"b0e3a4b4-{number}",
            "CLAUDE_CODE_MESSAGING_SOCKET": f"/run/user/1000/cc-socks/{number}.sock",
            "CLAUDE_CODE_CHILD_NOTES_DIR": f"/tmp/claude-1000/-src-app/b0e3a4b4-{number}/started",
        }

    assert setup_key(words, cwd, session(1), ASKED) == setup_key(words, cwd, session(2), ASKED)
    moved = {**session(1), "CLAUDE_PROJECT_DIR": "/src/other"}
    assert setup_key(words, cwd, moved, ASKED) != setup_key(words, cwd, session(1), ASKED)


def test_a_kept_file_that_is_no_private_regular_file_of_the_users_is_never_read(
    install: Path, tmp_path: Path
) -> None:
    answers = kept(tmp_path, [])
    entry = Path(answers.path)
    text = entry.read_text()
    entry.chmod(0o644)  # others could have written it
    assert KnownAnswers(answers.folder, "k").read() is None
    entry.unlink()
    elsewhere = tmp_path / "planted.json"
    elsewhere.write_text(text)
    elsewhere.chmod(0o600)
    entry.symlink_to(elsewhere)
    assert KnownAnswers(answers.folder, "k").read() is None
    KnownAnswers(answers.folder, "k").keep(Answers(INITIALIZE, None), [])
    assert not entry.is_symlink() and elsewhere.read_text() == text  # replaced, never written in
    entry.write_text("{not json")
    entry.chmod(0o600)
    assert KnownAnswers(answers.folder, "k").read() is None
    entry.write_text(json.dumps({**json.loads(text), "initialize": "x" * 2_000_000}))
    assert KnownAnswers(answers.folder, "k").read() is None  # past the cap


def test_the_oldest_setups_go_past_the_cap(
    install: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(known_answers, "MAX_ENTRIES", 3)
    folder = str(tmp_path / "answers")
    for number in range(5):
        KnownAnswers(folder, f"k{number}").keep(Answers(INITIALIZE, TOOLS), [])
        os.utime(os.path.join(folder, f"k{number}.json"), ns=(number * 10**9, number * 10**9))
    KnownAnswers(folder, "k5").keep(Answers(INITIALIZE, TOOLS), [])
    assert sorted(os.listdir(folder)) == ["k3.json", "k4.json", "k5.json"]
