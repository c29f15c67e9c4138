"""A menu's entry runs by the letter it shows underlined, on a real display: View's T was
Traces' and Trust's, Edit's R Redo's and Replace in file's, and the letter only moved
between them (`components.window.mnemonics.menu_mnemonics`)."""

from __future__ import annotations

from typing import Any

import pytest

from gui.keyboard.walked import walked

pytestmark = pytest.mark.slow  # slow: two windows on a fresh Xvfb, keys typed (~8 s of CPU)


@pytest.fixture(scope="module")
def walks() -> dict[str, dict[str, Any]]:
    return walked(["menu_letters", "trust_letters"])


@pytest.fixture
def seen(walks: dict[str, dict[str, Any]]) -> dict[str, Any]:
    walk = walks["menu_letters"]
    assert "error" not in walk, walk["error"]
    return walk


@pytest.mark.parametrize("action_id", ["trust.panel", "editor.replace"])
def test_an_entry_runs_by_the_letter_it_shows(seen: dict[str, Any], action_id: str) -> None:
    assert seen["redo_enabled"]
    assert seen[f"{action_id}:letter"] is not None
    assert seen[f"{action_id}:menu_closed"] and seen[f"{action_id}:ran"]


def test_combine_into_runs_by_its_letter_in_the_trust_panel(
    walks: dict[str, dict[str, Any]],
) -> None:
    # Alt+B: the conflict bar's Keep both took it from the whole window, no conflict shown.
    walk = walks["trust_letters"]
    assert "error" not in walk, walk["error"]
    assert not walk["keep_both_on"]
    assert walk["asked"] == "Combine duplicates"  # whole files: the review of their text
