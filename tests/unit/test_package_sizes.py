"""Folders tell the map: no package of Memtab holds more than 15 modules (issue 37).

A package that grows past it gets sub-packages by what its modules do (`store/catch_up/`,
`sync/repository/`, `gui/toolkit/`…), not by count; docs/ARCHITECTURE.md's map names them.
"""

from __future__ import annotations

from pathlib import Path

import memtab

MAX_MODULES = 15  # `__init__.py` counts: it is a module of the package too
APP = Path(memtab.__file__).parent


def _modules_per_package() -> dict[str, int]:
    return {
        str(init.parent.relative_to(APP.parent)): len(list(init.parent.glob("*.py")))
        for init in APP.rglob("__init__.py")
    }


def test_no_package_holds_more_than_15_modules() -> None:
    counts = _modules_per_package()
    assert len(counts) > 30  # the package itself, not an installed stub
    assert {name: n for name, n in counts.items() if n > MAX_MODULES} == {}
