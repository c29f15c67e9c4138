"""scripts/install-system-deps: every library Qt's platform plugins miss becomes a package."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "install-system-deps"

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Debian/Ubuntu")


def test_each_missing_library_is_mapped_to_its_package_or_named(tmp_path: Path) -> None:
    # ldd as on a bare Debian image: two xcb libraries missing, one nobody packages.
    fake_ldd = tmp_path / "ldd"
    fake_ldd.write_text(
        "#!/bin/sh\n"
        "printf '\\tlibxcb-icccm.so.4 => not found\\n'\n"
        "printf '\\tlibxcb-keysyms.so.1 => not found\\n'\n"
        "printf '\\tlibmemtab-unknown.so.9 => not found\\n'\n"
        "printf '\\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x0)\\n'\n"
    )
    fake_ldd.chmod(0o755)
    result = subprocess.run(
        [str(SCRIPT), "--dry-run", sys.executable],
        capture_output=True,
        text=True,
        env={**os.environ, "MEMTAB_LDD": str(fake_ldd)},
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    wanted = result.stdout.removeprefix("Would install:").split()
    assert {"libxcb-icccm4", "libxcb-keysyms1"} <= set(wanted)
    assert "libc6" not in wanted
    assert "libmemtab-unknown.so.9" in result.stderr


def test_every_library_the_installed_plugins_link_is_in_the_table() -> None:
    import PySide6

    table = SCRIPT.parents[1] / "resources" / "linux" / "qt-libraries.tsv"
    known = {line.split("\t")[0] for line in table.read_text().splitlines() if "\t" in line}
    plugins = Path(PySide6.__file__).parent / "Qt" / "plugins" / "platforms"
    system_libraries: set[str] = set()
    for plugin in ("libqxcb.so", "libqoffscreen.so"):
        output = subprocess.run(
            ["ldd", str(plugins / plugin)], capture_output=True, text=True, check=True
        ).stdout
        for line in output.splitlines():
            name = line.strip().split(" ")[0]
            # Qt's own libraries ship in the wheel; the loader and libc are always there.
            if (
                "=>" in line
                and "PySide6" not in line
                and not name.startswith(
                    ("libc.so", "libm.so", "libdl.so", "libpthread.so", "librt.so", "linux-vdso")
                )
            ):
                system_libraries.add(name)
    assert system_libraries - known == set()


def test_the_test_set_up_installs_git_when_it_is_missing(tmp_path: Path) -> None:
    fake_ldd = tmp_path / "ldd"
    fake_ldd.write_text("#!/bin/sh\n")
    fake_ldd.chmod(0o755)
    environment = {**os.environ, "MEMTAB_LDD": str(fake_ldd), "MEMTAB_GIT": "no-such-git"}
    result = subprocess.run(
        [str(SCRIPT), "--test", "--dry-run", sys.executable],
        capture_output=True,
        text=True,
        env=environment,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "git" in result.stdout.removeprefix("Would install:").split()
