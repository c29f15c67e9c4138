"""Nothing of Memtab's reads a docstring at run time: the window lets go of its modules' and
classes' docstrings once it has loaded (`gui.first_paint.app.release_unread_texts`,
~0.8 MiB of the settled window), so code that read one would find None there. A function's is
kept: a command's handler's docstring is its --help (`cli/common.py`, issue 98)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

APP = Path(__file__).resolve().parents[2] / "app" / "memtab"
# `__doc__` read (an assignment to it is not), inspect's readers, pydoc.
READS_A_DOCSTRING = re.compile(r"__doc__(?!\s*=[^=])|\bgetdoc\b|\bcleandoc\b|\bpydoc\b")
# What every match holds: a module with none of them is not searched line by line (every
# module searched so: 0.27 s of CPU; looked through for these first: 0.01 s).
NAMED = ("__doc__", "getdoc", "cleandoc", "pydoc")
# The modules that read a function's docstring, which the window keeps.
READS_A_FUNCTIONS = {"cli/common.py"}


def readers(path: Path) -> list[int]:
    """The lines of `path` that read a docstring."""
    text = path.read_text(encoding="utf-8")
    if not any(name in text for name in NAMED):
        return []
    lines = text.splitlines()
    return [number for number, line in enumerate(lines, 1) if READS_A_DOCSTRING.search(line)]


def test_no_module_reads_a_docstring() -> None:
    found = {
        str(path.relative_to(APP)): lines
        for path in sorted(APP.rglob("*.py"))
        if str(path.relative_to(APP)) not in READS_A_FUNCTIONS and (lines := readers(path))
    }
    assert not found, (
        f"docstrings read at {found}: the window drops its modules' docstrings once loaded "
        "(release_unread_texts) — keep what the code needs in a constant"
    )


def test_the_check_sees_a_docstring_read(tmp_path: Path) -> None:
    module = tmp_path / "sample.py"
    module.write_text(
        '"""Sample."""\nimport inspect\nHELP = __doc__\nTEXT = inspect.getdoc(inspect)\n'
        "inspect.__doc__ = None\nSAME = inspect.__doc__ == HELP\n",
        encoding="utf-8",
    )
    assert readers(module) == [3, 4, 6]


def test_the_loaded_window_lets_go_of_memtabs_docstrings_and_the_line_cache() -> None:
    probe = (
        "import json, linecache, memtab.store.files as files\n"
        "from memtab.gui.first_paint.app import release_unread_texts\n"
        "linecache.getline(json.__file__, 1)\n"
        "before = [files.__doc__, files.FileEntry.__doc__, linecache.cache.get(json.__file__)]\n"
        "release_unread_texts()\n"
        "print(all(before), files.__doc__, files.FileEntry.__doc__,\n"
        "      json.__file__ in linecache.cache, json.JSONDecoder.__doc__ is not None)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    assert result.stdout.split() == ["True", "None", "None", "False", "True"]
