"""Only gui/ imports PySide6 (docs/ARCHITECTURE.md "Import contracts"): the contract names
every package and module of Memtab but gui, so a new one cannot load Qt unseen; and the one
module outside gui/ whose text imports Qt does it in a child Python, named here with why."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import memtab

APP = Path(memtab.__file__).parent
PYPROJECT = APP.parents[1] / "pyproject.toml"
CONTRACT = "only gui imports PySide6"

QT_IN_A_CHILD = {
    "memtab.diagnostics.setup": "`memtab doctor` reads Qt's version and whether its xcb plugin "
    "loads from a child Python running `QT_CHECK`: the doctor's process never loads Qt",
}
"""The modules outside gui/ whose text imports PySide6 — code another process runs, which no
import contract sees — and why."""

QT_IMPORT = re.compile(r"^\s*(?:import|from)\s+(?:PySide6|shiboken6)\b", re.MULTILINE)


def contract_sources() -> set[str]:
    contracts = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["tool"]["importlinter"]
    [found] = [entry for entry in contracts["contracts"] if entry["name"] == CONTRACT]
    return set(found["source_modules"])


def module_name(path: Path) -> str:
    parts = path.relative_to(APP.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_the_contract_holds_every_package_and_module_but_gui() -> None:
    tops = {
        f"memtab.{path.stem if path.is_file() else path.name}"
        for path in APP.iterdir()
        if (path.suffix == ".py" and path.name != "__init__.py") or (path / "__init__.py").is_file()
    }
    assert "memtab.gui" in tops and "memtab.launch" in tops
    missing = sorted(tops - {"memtab.gui"} - contract_sources())
    assert not missing, f"not held by the contract {CONTRACT!r} (pyproject.toml): {missing}"


def test_only_the_named_modules_hold_qt_code_outside_gui() -> None:
    found = {
        module_name(path)
        for path in APP.rglob("*.py")
        if path.relative_to(APP).parts[0] != "gui"
        and QT_IMPORT.search(path.read_text(encoding="utf-8"))
    }
    assert found == set(QT_IN_A_CHILD), (
        f"modules outside gui/ whose text imports Qt: {sorted(found)}, named: "
        f"{sorted(QT_IN_A_CHILD)} — Qt is gui's; a child's code that needs it is named in "
        "QT_IN_A_CHILD with why"
    )
