"""The built wheel, installed into a fresh virtual environment, opens the window and runs
the sub-commands: what `pipx install` / `uv tool install` give a user.

This builds the sdist and, from it, the wheel (`python -m build`, as `make dist`), creates
a new venv with no access to this checkout, and installs the wheel there with its
dependencies resolved by pip (PySide6 comes from pip's cache on a machine that ran
`make`: seconds, not a download). It proves the packaging — entry points, the bundled
resources, the dependency list — not the code, which the rest of the suite tests.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtGui import QImage

from support.fake_model_server import FakeModelServer

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(work / "dist"), str(ROOT)],
        check=True,
        capture_output=True,
        timeout=600,
    )
    (wheel,) = (work / "dist").glob("memtab-*.whl")
    assert list((work / "dist").glob("memtab-*.tar.gz")), "no sdist"
    venv = work / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    python = venv / ("Scripts" if sys.platform == "win32" else "bin") / "python"
    subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", str(wheel)],
        check=True,
        capture_output=True,
        timeout=900,
    )
    return venv


def run(
    venv: Path,
    program: str,
    *args: str,
    tmp_path: Path,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    bin_dir = venv / ("Scripts" if sys.platform == "win32" else "bin")
    environment = {
        key: value
        for key, value in os.environ.items()
        if key not in ("PYTHONPATH", "VIRTUAL_ENV", "QT_LOGGING_RULES")
    }
    environment.update(
        HOME=str(tmp_path / "user"),
        MEMTAB_CONFIG_DIR=str(tmp_path / "config"),
        MEMTAB_LOG_DIR=str(tmp_path / "log"),
        MEMTAB_DEMO_HOME=str(tmp_path / "demo-home"),
    )
    environment.update(env or {})
    return subprocess.run(
        [str(bin_dir / program), *args],
        capture_output=True,
        text=True,
        env=environment,
        cwd=tmp_path,
        timeout=180,
        check=False,
    )


def test_the_installed_memtab_comes_from_the_wheel(installed: Path, tmp_path: Path) -> None:
    result = run(
        installed, "python", "-c", "import memtab; print(memtab.__file__)", tmp_path=tmp_path
    )
    assert result.returncode == 0, result.stderr
    assert Path(result.stdout.strip()).is_relative_to(installed)


def test_the_installed_memtab_renders_the_demo(installed: Path, tmp_path: Path) -> None:
    shot = tmp_path / "shot.png"
    result = run(installed, "memtab", "--demo", "--screenshot", str(shot), tmp_path=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert not QImage(str(shot)).isNull()


def test_the_installed_subcommands_print_in_the_terminal(installed: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    assert run(installed, "memtab", "demo", str(home), tmp_path=tmp_path).returncode == 0
    result = run(installed, "memtab", "--home", str(home), "list", "--json", tmp_path=tmp_path)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["files"]
    gui = run(installed, "memtab-gui", "--version", tmp_path=tmp_path)
    assert gui.returncode == 0 and gui.stdout.strip() == "memtab 0.1.0"


def test_the_installed_memtab_holds_one_http_client(installed: Path, tmp_path: Path) -> None:
    """httpx2, which the MCP SDK brings too, and no second HTTP stack beside it."""
    listed = run(installed, "python", "-m", "pip", "list", "--format=json", tmp_path=tmp_path)
    assert listed.returncode == 0, listed.stderr
    names = {entry["name"].lower() for entry in json.loads(listed.stdout)}
    assert "httpx2" in names
    assert names & {"httpx", "httpcore", "certifi"} == set()


def test_the_installed_memtab_calls_a_model(
    installed: Path, tmp_path: Path, fake_model_server: FakeModelServer
) -> None:
    fake_model_server.add_openai_reply(text="OK")
    result = run(
        installed,
        "memtab",
        "doctor",
        "--home",
        str(tmp_path / "home"),
        "--check-provider",
        "--json",
        tmp_path=tmp_path,
        env={
            "MEMTAB_PROVIDER": "openai",
            "MEMTAB_MODEL": "llama-test",
            "MEMTAB_BASE_URL": fake_model_server.openai_base_url,
        },
    )
    check = json.loads(result.stdout)["provider"]["check"]
    assert check["ok"] is True and check["servedModel"] == "fake-model", result.stderr
