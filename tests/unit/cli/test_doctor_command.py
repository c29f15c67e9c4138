"""`memtab doctor`: exit status, the terminal report and the JSON on stdout."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from memtab.cli.main import main, modules_for
from memtab.diagnostics.setup import QtCheck
from support.demo_homes import copied_demo_home


@pytest.fixture(autouse=True)
def _qt_loads(monkeypatch: pytest.MonkeyPatch) -> None:
    def fine() -> QtCheck:
        return QtCheck(pyside6="6.9.0", qt="6.9.1")

    monkeypatch.setattr("memtab.cli.health.doctor_commands.run_qt_check", fine)


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    status = main(args)
    return status, capsys.readouterr().out


def test_doctor_loads_only_its_own_module() -> None:
    assert modules_for(["doctor", "--json"]) == ["memtab.cli.health.doctor_commands"]


def test_a_healthy_home_exits_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    home = copied_demo_home(tmp_path / "demo").root
    status, out = run(["doctor", "--home", str(home)], capsys)
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == "Memtab doctor: ok (0 problems, 0 warnings)"
    assert any(line.startswith("Home:") and str(home) in line for line in lines)
    assert any(line.startswith("Versions:") and "Qt 6.9.1" in line for line in lines)
    assert any(line.startswith("Provider:") and "offline" in line for line in lines)


def test_something_broken_exits_1_and_is_listed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home = copied_demo_home(tmp_path / "demo")
    home.journal_path.write_text("[1, 2]")
    status, out = run(["--home", str(home.root), "doctor"], capsys)
    assert status == 1
    assert out.startswith("Memtab doctor: broken (1 problem, 0 warnings)")
    assert f"✗ sidecars: {home.journal_path} is not a JSON object (found a list)" in out

    status, out = run(["doctor", "--home", str(home.root), "--json"], capsys)
    data = json.loads(out)
    assert status == 1 and data["status"] == "broken"
    assert data["findings"] == [
        {
            "check": "sidecars",
            "level": "broken",
            "message": f"{home.journal_path} is not a JSON object (found a list); Memtab "
            "reads it as empty until it is fixed",
        }
    ]


def test_warnings_alone_exit_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out = run(["doctor", "--home", str(tmp_path / "not-yet")], capsys)
    assert status == 0
    assert out.startswith("Memtab doctor: warning (0 problems, 1 warning)")
    assert "! home: The home" in out


@pytest.mark.slow
def test_the_doctor_never_loads_qt_itself(tmp_path: Path) -> None:
    code = (
        "import sys; from memtab.cli.main import main; "
        f"status = main(['--home', {str(tmp_path)!r}, 'doctor', '--json']); "
        "assert not any(m.startswith('PySide6') for m in sys.modules), 'Qt was imported'; "
        "sys.exit(status)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], check=False, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    versions = json.loads(result.stdout)["runtime"]["versions"]
    assert versions["qt"] and versions["pyside6"]  # read by the child Python


def test_history_or_locks_unusable_exit_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home = copied_demo_home(tmp_path / "demo")
    shutil.rmtree(home.history_dir)  # the demo's own history
    shutil.rmtree(home.memtab_dir / "locks")  # and the locks it took
    home.history_dir.write_text("not a directory\n")
    (home.memtab_dir / "locks").write_text("nor this\n")
    status, out = run(["--home", str(home.root), "doctor"], capsys)
    assert status == 1
    assert out.startswith("Memtab doctor: broken (2 problems, 0 warnings)")
    assert f"✗ history: {home.history_dir} is not a directory" in out
    assert f"✗ locks: No lock can be taken in {home.memtab_dir / 'locks'}" in out


@pytest.mark.skipif(shutil.which("git") is None, reason="sync runs git")
def test_the_text_says_how_sync_stands(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    home = copied_demo_home(tmp_path / "demo").root
    _, out = run(["doctor", "--home", str(home)], capsys)
    assert "Sync:      not set up (memtab sync init --remote URL)" in out.splitlines()
    remote = tmp_path / "memory.git"
    subprocess.run(["git", "init", "-q", "--bare", str(remote)], check=True)
    assert main(["sync", "init", "--home", str(home), "--remote", str(remote)]) == 0
    _, out = run(["doctor", "--home", str(home)], capsys)
    assert f"Sync:      memory → {remote} (global): never synced" in out.splitlines()
    assert main(["sync", "--home", str(home)]) == 0
    _, out = run(["doctor", "--home", str(home)], capsys)
    assert f"Sync:      memory → {remote} (global): synced just now" in out.splitlines()


def test_the_text_says_the_limits_of_each_request(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMTAB_PROVIDER", "openai")
    monkeypatch.setenv("MEMTAB_BASE_URL", "http://127.0.0.1:8080/v1")
    home = copied_demo_home(tmp_path / "demo").root
    _, out = run(["doctor", "--home", str(home)], capsys)
    [limits] = [line for line in out.splitlines() if line.startswith("Limits:")]
    assert limits.split(None, 1)[1] == (
        "each request 1800 s (the default for a server on this machine; request_timeout_s "
        "in settings.json sets it), replies up to 2048 tokens for the writer and 4096 for "
        "Consolidate now (each job's default; max_tokens in settings.json sets them)"
    )
