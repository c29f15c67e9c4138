"""The GUI's rules are tested without Qt (docs/ARCHITECTURE.md
"The house rules, where the layout holds them"): the modules of `memtab.components` import
no PySide6 (an import contract holds them), and neither do their tests nor what those tests
import — so they run in milliseconds, with no QApplication, in a process that never loads
Qt."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent

# Imports every test module of this folder (and its conftests), then says which Qt modules
# were loaded.
_IMPORT_ALL = """
import importlib, sys
for name in sys.argv[1:]:
    importlib.import_module(name)
print(" ".join(sorted(m for m in sys.modules if m.split(".")[0] in ("PySide6", "shiboken6"))))
"""


def _test_modules() -> list[str]:
    return [
        ".".join(path.relative_to(TESTS).with_suffix("").parts)
        for path in sorted(HERE.rglob("*.py"))
        if path.name != "__init__.py"
    ]


@pytest.mark.slow  # slow: a Python process importing every test of components/ (~0.6 s of CPU)
def test_the_components_tests_load_no_qt() -> None:
    modules = _test_modules()
    assert "unit.components.editor.test_document" in modules
    result = subprocess.run(
        [sys.executable, "-c", _IMPORT_ALL, *modules],
        capture_output=True,
        text=True,
        cwd=TESTS,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [], "a test of components/ (or what it imports) loads Qt"
