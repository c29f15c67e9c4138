"""`memtab watch --install` / `--uninstall`: the login entry each platform starts, and the
programs run to start it (a fake `systemctl` records what it was asked)."""

from __future__ import annotations

import json
import os
import plistlib
import shutil
import stat
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memtab.cli.main import main
from memtab.store.home import Home
from memtab.watch.service import (
    ServiceRefusedError,
    exec_words,
    install,
    launch_agent,
    read_unit,
    service_path,
    startup_entry,
    systemd_unit,
)
from support.property_examples import examples


def _fake_program(bin_dir: Path, name: str, *, status: int = 0, say: str = "") -> Path:
    """A `name` on PATH that appends its arguments to `<name>.log` and exits `status`."""
    bin_dir.mkdir(exist_ok=True)
    log = bin_dir / f"{name}.log"
    program = bin_dir / name
    program.write_text(
        f"#!{sys.executable}\n"
        "import json, sys\n"
        f"open({str(log)!r}, 'a').write(json.dumps(sys.argv[1:]) + '\\n')\n"
        f"sys.stderr.write({say!r})\n"
        f"sys.exit({status})\n",
        encoding="utf-8",
    )
    program.chmod(program.stat().st_mode | stat.S_IXUSR)
    return log


def _calls(log: Path) -> list[list[str]]:
    return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []


@pytest.mark.skipif(sys.platform == "win32", reason="a fake systemctl is a script")
def test_install_writes_the_user_unit_and_enables_it_uninstall_undoes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    home = Home(tmp_path / "my home")
    home.root.mkdir()
    log = _fake_program(tmp_path / "bin", "systemctl")
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setattr(sys, "platform", "linux")

    assert main(["watch", "--install", "--home", str(home.root)]) == 0
    unit = service_path(home)
    assert unit.parent == Path(os.environ["XDG_CONFIG_HOME"]) / "systemd" / "user"
    assert unit.name.startswith("memtab-watch-") and unit.suffix == ".service"
    text = unit.read_text("utf-8")
    assert f'ExecStart="{sys.executable}" "-m" "memtab" "watch" "--home" "{home.root}"\n' in text
    assert "Restart=on-failure\n" in text and "WantedBy=default.target\n" in text
    assert _calls(log) == [
        ["--user", "daemon-reload"],
        ["--user", "enable", "--now", unit.name],
    ]
    assert f"Installed {unit}" in capsys.readouterr().out

    assert main(["watch", "--uninstall", "--home", str(home.root)]) == 0
    assert not unit.exists()
    assert _calls(log)[2:] == [
        ["--user", "disable", "--now", unit.name],
        ["--user", "daemon-reload"],
    ]


@pytest.mark.skipif(sys.platform == "win32", reason="a fake systemctl is a script")
def test_without_a_user_manager_the_unit_is_written_and_the_message_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = Home(tmp_path / "home")
    _fake_program(tmp_path / "bin", "systemctl", status=1, say="Failed to connect to bus")
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    result = install(home, platform="linux")
    assert result.path.exists()
    assert "Failed to connect to bus" in result.note and "memtab watch" in result.note
    assert [r.argv for r in result.ran] == [("systemctl", "--user", "daemon-reload")]


def test_a_unit_word_keeps_spaces_quotes_and_systemd_specifiers_literal(tmp_path: Path) -> None:
    home = Home(tmp_path / '100% "mine" $HOME')
    text = systemd_unit("Memtab", ["/usr/bin/python3", "--home", str(home.root)])
    escaped = str(home.root).replace('"', '\\"').replace("%", "%%").replace("$", "$$")
    assert f'ExecStart="/usr/bin/python3" "--home" "{escaped}"\n' in text


@pytest.mark.skipif(sys.platform == "win32", reason="a fake launchctl is a script")
def test_macos_gets_a_launch_agent_and_windows_a_startup_entry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = Home(tmp_path / "home")
    log = _fake_program(tmp_path / "bin", "launchctl")
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    result = install(home, platform="darwin")
    assert result.path.parent == Path(os.environ["HOME"]) / "Library" / "LaunchAgents"
    agent = plistlib.loads(result.path.read_bytes())
    assert agent["ProgramArguments"][-3:] == ["watch", "--home", str(home.root)]
    assert agent["RunAtLoad"] is True and agent["Label"] == result.path.stem
    assert _calls(log) == [["bootstrap", f"gui/{os.getuid()}", str(result.path)]]

    monkeypatch.setenv("APPDATA", str(tmp_path / "appdata"))
    entry = service_path(home, platform="win32")
    assert entry.parent == tmp_path / "appdata/Microsoft/Windows/Start Menu/Programs/Startup"
    assert startup_entry(["C:/py/python.exe", "-m", "memtab", "watch"]) == (
        '@echo off\r\nstart "" /min "C:/py/python.exe" "-m" "memtab" "watch"\r\n'
    )


@pytest.mark.skipif(sys.platform == "win32", reason="a fake systemctl is a script")
def test_a_home_whose_path_holds_a_line_break_is_refused_and_nothing_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 81 point 14: the path went into the unit as it was, its second line a
    setting of its own (`ExecStart=` again), and install said it succeeded."""
    home = Home(tmp_path / "home\nExecStart=/bin/sh -c id")
    home.root.mkdir(parents=True)
    log = _fake_program(tmp_path / "bin", "systemctl")
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setattr(sys, "platform", "linux")

    assert main(["watch", "--install", "--home", str(home.root)]) == 1
    said = capsys.readouterr()
    assert "Installed" not in said.out
    assert "Not installed: " in said.err and "holds a line break" in said.err
    assert not service_path(home).exists() and _calls(log) == []
    with pytest.raises(ServiceRefusedError, match="carriage return"):
        launch_agent("com.memtab.watch.x", ["/usr/bin/python3", "/home/a\rb"])


_WORD = st.text(
    st.characters(blacklist_categories=["Cs"], blacklist_characters="\n\r\0"), max_size=12
)


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(_WORD, min_size=1, max_size=5), _WORD)
def test_a_unit_reads_back_as_the_words_it_was_given(words: list[str], said: str) -> None:
    """Quotes, backslashes, `%`, `$`, blanks, tabs, control characters: each word of
    `ExecStart=` reads back as given, and the unit holds its settings and no other."""
    words = ["/usr/bin/python3", *words]
    text = systemd_unit(f"Memtab recorder for {said}: history", words)
    settings = read_unit(text)
    assert [key for _section, key, _value in settings].count("ExecStart") == 1
    (start,) = [value for _section, key, value in settings if key == "ExecStart"]
    assert exec_words(start) == words
    assert startup_entry_or_refusal(words) in (None, words)


def startup_entry_or_refusal(words: list[str]) -> list[str] | None:
    """The words a Windows startup script of `words` starts; None where it refuses them."""
    try:
        text = startup_entry(words)
    except ServiceRefusedError:
        return None
    return read_startup_words(text)


def read_startup_words(text: str) -> list[str]:
    body = text.removeprefix('@echo off\r\nstart "" /min ').removesuffix("\r\n")
    return [word.replace("%%", "%") for word in body[1:-1].split('" "')]


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="needs systemd-analyze")
def test_systemd_loads_the_unit_of_a_home_with_quotes_specifiers_and_variables(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where systemd-analyze is installed, install has it load the unit before enabling
    it: a home named like `100% "mine" $HOME \\x41 'a'` loads, and runs those words."""
    home = Home(tmp_path / "100% \"mine\" $HOME \\x41 'a'\t%n")
    log = _fake_program(tmp_path / "bin", "systemctl")
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}")
    result = install(home, platform="linux")
    verified = result.ran[0]
    assert verified.argv[:2] == ("systemd-analyze", "verify") and verified.status == 0
    assert result.path.name not in verified.said  # no warning about the unit
    assert len(_calls(log)) == 2
