"""Where a warm host waits and who may find it (`bridge/rendezvous.py`, docs/formats.md
§22.8): a private folder of the user's, a socket per Memtab, home and environment."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memtab.agent_server.bridge.rendezvous import (
    KEY_VARIABLES,
    PATH_VARIABLES,
    RendezvousError,
    home_option,
    origin_env,
    rendezvous,
    resolved_env,
    runtime_folder,
    shared_unavailable,
    socket_key,
)


@pytest.fixture
def short(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A temp folder with a short path (a socket's path holds at most 107 bytes)."""
    return tmp_path_factory.mktemp("r")


def test_the_sockets_folder_is_made_private_under_the_runtime_dir(short: Path) -> None:
    runtime = short / "run"
    runtime.mkdir()
    folder = runtime_folder({"XDG_RUNTIME_DIR": str(runtime)})
    assert folder == str(runtime / "memtab")
    assert (os.stat(folder).st_mode & 0o777) == 0o700
    os.chmod(folder, 0o755)  # opened up since: closed again
    assert runtime_folder({"XDG_RUNTIME_DIR": str(runtime)}) == folder
    assert (os.stat(folder).st_mode & 0o777) == 0o700


def test_a_folder_that_is_a_link_or_anothers_is_never_used(short: Path) -> None:
    runtime, elsewhere, tmp = short / "run", short / "elsewhere", short / "tmp"
    for folder in (runtime, elsewhere, tmp):
        folder.mkdir()
    (runtime / "memtab").symlink_to(elsewhere)
    env = {"XDG_RUNTIME_DIR": str(runtime), "TMPDIR": str(tmp)}
    assert runtime_folder(env) == str(tmp / f"memtab-{os.geteuid()}")  # the fallback
    if os.geteuid() == 0:
        taken = tmp / f"memtab-{os.geteuid()}"
        os.chown(taken, 65534, 65534)
        with pytest.raises(RendezvousError) as refused:
            runtime_folder(env)
        assert str(refused.value) == (
            f"{runtime / 'memtab'} is not a folder; {taken} belongs to another user (uid 65534)"
        )


def test_a_path_too_long_for_a_socket_falls_back(short: Path) -> None:
    deep = short / ("d" * 90)
    deep.mkdir()
    env = {"XDG_RUNTIME_DIR": str(deep), "TMPDIR": str(short)}
    assert runtime_folder(env) == str(short / f"memtab-{os.geteuid()}")


def test_each_home_and_environment_has_its_host() -> None:
    env = {"HOME": "/u", "PATH": "/bin"}
    key = socket_key("/h", env)
    assert socket_key("/h", {**env, "PATH": "/usr/bin", "CLAUDE_PROJECT_DIR": "/p"}) == key
    assert socket_key("/other", env) != key
    assert socket_key(None, env) != key
    for name in KEY_VARIABLES:
        assert socket_key("/h", {**env, name: "/x"}) != key, name
    # a blank XUM_ROOT hides MUX_ROOT (docs/formats.md §1): set but blank is not unset
    assert socket_key("/h", {**env, "XUM_ROOT": ""}) != key


def test_the_home_a_command_line_gives_is_made_absolute(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert home_option(["mcp", "--home", "h"]) == str(tmp_path / "h")
    assert home_option(["--home", "/a", "mcp", "--home=/b"]) == "/b"
    assert home_option(["mcp"]) is None


def test_a_sessions_origin_carries_no_credential() -> None:
    environ = {
        "HOME": "/u",
        "CLAUDE_PROJECT_DIR": "/p",
        "CLAUDE_CODE_OAUTH_TOKEN": "t",
        "MEMTAB_API_KEY": "k",
        "XUM_WORKSPACE": "w",
        "OPENAI_API_KEY": "k",
        "TERM": "dumb",
    }
    assert origin_env(environ) == {"CLAUDE_PROJECT_DIR": "/p", "HOME": "/u", "XUM_WORKSPACE": "w"}


def test_sessions_serve_themselves_when_asked_to() -> None:
    assert shared_unavailable({"MEMTAB_MCP_SHARED": "off"}) == "MEMTAB_MCP_SHARED=off"
    assert shared_unavailable({}) is None


def test_the_files_of_a_host_are_named_for_its_key(short: Path) -> None:
    (short / "run").mkdir()
    place = rendezvous("/h", {"XDG_RUNTIME_DIR": str(short / "run"), "HOME": "/u"})
    assert place.socket.startswith(str(short / "run" / "memtab" / "mcp-"))
    assert place.socket.endswith(f"-{place.key}.sock") and len(place.key) == 16
    assert place.start_lock == place.socket.removesuffix(".sock") + ".start"


def test_relative_paths_mean_the_sessions_directory() -> None:
    environ = {
        "MEMTAB_CONFIG_DIR": "relcfg",
        "MEMTAB_LOG_DIR": " logs/../rellog ",
        "XDG_CACHE_HOME": "cache",
        "MEMTAB_HOME": "~/h",
        "XDG_DATA_HOME": "/abs/data",
        "XUM_ROOT": "",
        "TMPDIR": "t",
        "PATH": "bin",
    }
    resolved = resolved_env(environ, "/work/a")
    assert resolved == {
        "MEMTAB_CONFIG_DIR": "/work/a/relcfg",
        "MEMTAB_LOG_DIR": "/work/a/rellog",
        "XDG_CACHE_HOME": "/work/a/cache",
        "MEMTAB_HOME": "~/h",  # absolute as every reader expands it
        "XDG_DATA_HOME": "/abs/data",
        "XUM_ROOT": "",  # set but blank is not unset
        "TMPDIR": "/work/a/t",
        "PATH": "bin",  # not a path Memtab reads
    }
    assert resolved_env(environ, "") == environ  # no directory: nothing to resolve against
    assert set(PATH_VARIABLES) >= set(KEY_VARIABLES)


def test_two_directories_never_share_a_host_for_a_relative_setting(
    short: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (short / "run").mkdir()
    for name in ("a", "b"):
        (short / name).mkdir()
    env = {"XDG_RUNTIME_DIR": str(short / "run"), "HOME": "/u", "MEMTAB_CONFIG_DIR": "relcfg"}
    monkeypatch.chdir(short / "a")
    in_a = rendezvous("/h", env)
    monkeypatch.chdir(short / "b")
    in_b = rendezvous("/h", env)
    assert in_a.key != in_b.key
    absolute = {**env, "MEMTAB_CONFIG_DIR": str(short / "b" / "relcfg")}
    assert rendezvous("/h", absolute).key == in_b.key  # the host of what it means


def test_gemini_cli_sessions_of_another_gemini_home_never_share_a_host() -> None:
    """A session's Gemini CLI memory is read from `$GEMINI_CLI_HOME/.gemini` (§17.7), and
    its answer limit from the settings there (§22.10): a host started for one must not serve
    a session of another, and the origin carries Gemini CLI's variables (never its key)."""
    env = {"HOME": "/u"}
    assert socket_key("/h", {**env, "GEMINI_CLI_HOME": "/g"}) != socket_key("/h", env)
    environ = {
        **env,
        "GEMINI_CLI_HOME": "/g",
        "GEMINI_CLI_TRUST_WORKSPACE": "true",
        "GEMINI_API_KEY": "k",
        "GOOGLE_GEMINI_BASE_URL": "http://127.0.0.1:1",
    }
    assert origin_env(environ) == {
        "HOME": "/u",
        "GEMINI_CLI_HOME": "/g",
        "GEMINI_CLI_TRUST_WORKSPACE": "true",
    }
    assert resolved_env({"GEMINI_CLI_HOME": "g"}, "/work/a") == {"GEMINI_CLI_HOME": "/work/a/g"}
