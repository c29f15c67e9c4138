"""Every module of Memtab stays readable in one sitting: no file over 600 lines (issue 20).

A file that grows past it is split by responsibility (what it does), not by count.
"""

from __future__ import annotations

from pathlib import Path

import memtab

MAX_LINES = 600


def test_no_module_is_over_600_lines() -> None:
    root = Path(memtab.__file__).parent
    sizes = {
        str(path.relative_to(root)): len(path.read_text(encoding="utf-8").splitlines())
        for path in root.rglob("*.py")
    }
    assert len(sizes) > 200  # the package itself, not an installed stub
    assert {name: lines for name, lines in sizes.items() if lines > MAX_LINES} == {}
