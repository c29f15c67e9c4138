"""The GUI package takes out PySide6's `__feature__` import hook, and only that hook.

The race the hook causes (a module whose `__getattr__` imports, pydantic's among them,
imported half-initialized by another thread) was shown by a test removed with pydantic
from Memtab's own code; these check that taking the hook out touches nothing when a
PySide6 release names things otherwise (the attributes are private to shiboken).
"""

from __future__ import annotations

import builtins
import subprocess
import sys
from typing import Any

import pytest

from memtab.gui import remove_feature_import_hook

_REAL_IMPORT = builtins.__import__


def _importer(name: str) -> Any:
    """An import function named `name` (imports still work while it is installed)."""

    def load(*args: Any, **kwargs: Any) -> Any:
        return _REAL_IMPORT(*args, **kwargs)

    load.__name__ = name
    return load


def test_the_window_process_runs_without_the_hook() -> None:
    probe = (
        "import builtins, memtab.gui.first_paint.app; "
        "print(getattr(builtins.__import__, '__name__', ''))"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    assert result.stdout.strip() != "__feature_import__"


def test_the_hook_is_replaced_by_the_import_it_wrapped(monkeypatch: pytest.MonkeyPatch) -> None:
    wrapped = _importer("__lazy_import__")
    monkeypatch.setattr(builtins, "__import__", _importer("__feature_import__"))
    monkeypatch.setattr(builtins, "__orig_import__", wrapped, raising=False)
    assert remove_feature_import_hook()
    assert builtins.__import__ is wrapped


@pytest.mark.parametrize(
    ("current", "previous"),
    [
        ("some_other_import_hook", "__lazy_import__"),  # another hook is installed
        ("__feature_import__", None),  # nothing to put back
    ],
)
def test_anything_else_is_left_alone(
    monkeypatch: pytest.MonkeyPatch, current: str, previous: str | None
) -> None:
    installed = _importer(current)
    monkeypatch.setattr(builtins, "__import__", installed)
    if previous is None:
        monkeypatch.delattr(builtins, "__orig_import__", raising=False)
    else:
        monkeypatch.setattr(builtins, "__orig_import__", _importer(previous), raising=False)
    assert not remove_feature_import_hook()
    assert builtins.__import__ is installed
