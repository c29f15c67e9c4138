"""A menu's entry runs by the letter it shows underlined, on a real display: View's T was
Traces' and Trust's, Edit's R Redo's and Replace in file's, and the letter only moved
between them (`components.window.mnemonics.menu_mnemonics`)."""

from __future__ import annotations

from typing import Any

import pytest

from gui.keyboard.walked import walked

pytestmark = pytest.mark.slow  # slow: three windows on a fresh Xvfb, keys typed (~12 s of CPU)


@pytest.fixture(scope="module")
def walks() -> dict[str, dict[str, Any]]:
    return walked(["menu_letters", "trust_letters", "trust_review_keys"])


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


def test_the_trust_review_is_walked_by_tab_and_escape_gives_the_row_back(
    walks: dict[str, dict[str, Any]],
) -> None:
    """Issue 94 point 3: each control of Combine's review takes the keyboard by Tab; once it
    closes, the keyboard is back on the group's row in the Trust panel."""
    walk = walks["trust_review_keys"]
    assert "error" not in walk, walk["error"]
    stops = walk["stops"]
    assert stops[0].endswith("Keep in")  # where to keep it, first
    for stop in ("What each file becomes", "Combine", "Cancel"):
        assert any(name.endswith(stop) for name in stops), (stop, stops)
    # the text written, whole (a file group's) or as its differences (a line said twice)
    assert any(name.endswith(("Text to keep", "Differences")) for name in stops), stops
    assert walk["back_on_row"]
