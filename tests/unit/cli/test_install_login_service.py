"""`memtab mcp install` offers the login service that keeps Memtab warm from login (issue 71,
docs/formats.md §22.6, §22.8): asked once per home in a terminal, the answer kept, said by
`memtab doctor`; `--login-service` and `--no-login-service` answer without asking."""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path

import pytest

from memtab.agent_server.hosting.login_service import login_service_facts, remembered_answer
from memtab.cli.main import main
from memtab.cli.share.agent_install_commands import HINT, QUESTION, offer_login_service
from memtab.store.home import Home
from memtab.watch.service import service_path

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="a fake systemctl is a script")


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Home:
    """A home, and a `systemctl` on PATH that records what it was asked."""
    home = Home(tmp_path / "home")
    home.root.mkdir()
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    program = bin_dir / "systemctl"
    log = tmp_path / "systemctl.log"
    program.write_text(
        f"#!{sys.executable}\nimport json, sys\n"
        f"open({str(log)!r}, 'a').write(json.dumps(sys.argv[1:]) + '\\n')\n"
    )
    program.chmod(program.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setattr(sys, "platform", "linux")
    return home


def doctor_says(home: Home, capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    capsys.readouterr()
    main(["doctor", "--json", "--home", str(home.root)])
    said: dict[str, object] = json.loads(capsys.readouterr().out)["loginService"]
    return said


def test_outside_a_terminal_a_line_says_how_and_nothing_is_kept(
    home: Home, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["mcp", "install", "--claude", "--home", str(home.root)]) == 0
    assert HINT in capsys.readouterr().out
    assert not service_path(home).exists() and remembered_answer(home) is None
    said = doctor_says(home, capsys)
    assert (said["installed"], said["answer"]) == (False, None)
    assert str(said["note"]).startswith("not kept warm from login: the first session of the day")


def test_asked_in_a_terminal_once_and_the_answer_kept(
    home: Home, capsys: pytest.CaptureFixture[str]
) -> None:
    asked: list[str] = []

    def no(question: str) -> str:
        asked.append(question)
        return "n"

    assert offer_login_service(home, None, ask=no, interactive=lambda: True) == 0
    assert asked == [QUESTION.format(entry=service_path(home))]
    assert remembered_answer(home) == "declined" and not service_path(home).exists()
    assert offer_login_service(home, None, ask=no, interactive=lambda: True) == 0
    assert len(asked) == 1  # remembered: not asked again
    assert "declined when `memtab mcp install` offered it" in capsys.readouterr().out
    assert doctor_says(home, capsys)["answer"] == "declined"

    assert offer_login_service(home, None, ask=lambda _: "", interactive=lambda: True) == 0
    assert not service_path(home).exists()  # Enter is yes, but only once asked


def test_yes_installs_the_login_service_and_doctor_says_so(
    home: Home, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["mcp", "install", "--claude", "--login-service", "--home", str(home.root)]) == 0
    unit = service_path(home)
    assert unit.exists() and '"watch" "--home"' in unit.read_text()
    assert f"Login: kept warm from login by `memtab watch` ({unit})" in capsys.readouterr().out
    assert remembered_answer(home) == "installed"
    said = doctor_says(home, capsys)
    assert (said["installed"], said["answer"], said["entry"]) == (True, "installed", str(unit))
    facts = login_service_facts(home)
    assert facts.note == f"kept warm from login by `memtab watch` ({unit})"
    assert main(["mcp", "install", "--claude", "--home", str(home.root)]) == 0
    assert f"Login: kept warm from login by `memtab watch` ({unit})" in capsys.readouterr().out


def test_no_is_kept_without_asking(home: Home, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["mcp", "install", "--claude", "--no-login-service", "--home", str(home.root)]) == 0
    assert remembered_answer(home) == "declined" and not service_path(home).exists()
    assert "Login: not kept warm from login" in capsys.readouterr().out
