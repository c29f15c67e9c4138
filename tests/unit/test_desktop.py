"""`memtab --install-desktop`: launcher, icon and AppStream file, valid per the standards."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from memtab.desktop import DESKTOP_FILE, METAINFO_FILE, _quote_exec, install_desktop_files

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="XDG desktops")


def run_memtab(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "memtab", *args],
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        timeout=60,
        check=False,
    )


def test_install_desktop_writes_the_three_files_under_xdg_data_home(tmp_path: Path) -> None:
    data = tmp_path / "data"
    result = run_memtab("--install-desktop", env={"XDG_DATA_HOME": str(data)})
    assert result.returncode == 0, result.stderr
    expected = [
        data / "applications" / DESKTOP_FILE,
        data / "metainfo" / METAINFO_FILE,
        data / "icons" / "hicolor" / "scalable" / "apps" / "memtab.svg",
    ]
    assert result.stdout.split() == [str(path) for path in expected]
    assert all(path.is_file() for path in expected)
    assert "<svg" in expected[2].read_text()


def test_the_launcher_runs_this_installation(tmp_path: Path) -> None:
    (entry,) = [p for p in install_desktop_files(tmp_path) if p.suffix == ".desktop"]
    exec_line = next(line for line in entry.read_text().splitlines() if line.startswith("Exec="))
    program = exec_line.removeprefix("Exec=").split(" ")[0].strip('"')
    assert os.path.isabs(program) and os.access(program, os.X_OK)


@pytest.mark.skipif(shutil.which("desktop-file-validate") is None, reason="desktop-file-utils")
def test_the_installed_desktop_entry_is_valid(tmp_path: Path) -> None:
    (entry,) = [p for p in install_desktop_files(tmp_path) if p.suffix == ".desktop"]
    result = subprocess.run(
        ["desktop-file-validate", str(entry)], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip() == ""  # not even a hint


@pytest.mark.skipif(shutil.which("appstreamcli") is None, reason="Debian's appstream")
def test_the_installed_appstream_file_is_valid(tmp_path: Path) -> None:
    (metainfo,) = [p for p in install_desktop_files(tmp_path) if p.name == METAINFO_FILE]
    result = subprocess.run(
        ["appstreamcli", "validate", "--no-net", "--explain", str(metainfo)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize(
    ("argument", "quoted"),
    [
        ("/usr/bin/memtab", "/usr/bin/memtab"),
        ("/home/a b/memtab", '"/home/a b/memtab"'),
        ('/opt/"q"/memtab', '"/opt/\\\\"q\\\\"/memtab"'),
        ("/opt/100%/memtab", "/opt/100%%/memtab"),
    ],
)
def test_exec_arguments_are_quoted_per_the_specification(argument: str, quoted: str) -> None:
    assert _quote_exec(argument) == quoted
