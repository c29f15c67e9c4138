"""A menu's entry runs by the letter it shows underlined, on a real display: View's T was
Traces' and Trust's, Edit's R Redo's and Replace in file's, and the letter only moved
between them (`components.window.mnemonics.menu_mnemonics`)."""

from __future__ import annotations

from typing import Any

import pytest

from gui.keyboard.walked import walked

pytestmark = pytest.mark.slow  # slow: a window on a fresh Xvfb, keys typed (~5 s of CPU)


@pytest.fixture(scope="module")
def seen() -> dict[str, Any]:
    walk = walked(["menu_letters"])["menu_letters"]
    assert "error" not in walk, walk["error"]
    return walk


@pytest.mark.parametrize("action_id", ["trust.panel", "editor.replace"])
def test_an_entry_runs_by_the_letter_it_shows(seen: dict[str, Any], action_id: str) -> None:
    assert seen["redo_enabled"]
    assert seen[f"{action_id}:letter"] is not None
    assert seen[f"{action_id}:menu_closed"] and seen[f"{action_id}:ran"]
