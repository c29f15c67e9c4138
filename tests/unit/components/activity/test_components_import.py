"""memtab.components imports no Qt, module by module, in a process of its own."""

from __future__ import annotations

import subprocess
import sys

import pytest


@pytest.mark.slow
def test_the_components_do_not_import_qt() -> None:
    probe = (
        "import sys, pkgutil, importlib, memtab.components as components\n"
        "names = [m.name for m in pkgutil.walk_packages(\n"
        "    components.__path__, 'memtab.components.')]\n"
        "assert len(names) > 20, names\n"
        "for name in names:\n"
        "    importlib.import_module(name)\n"
        "sys.exit('PySide6' in sys.modules)"
    )
    assert subprocess.run([sys.executable, "-c", probe], check=False).returncode == 0
