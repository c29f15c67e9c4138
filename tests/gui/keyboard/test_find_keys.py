"""F3 and Shift+F3 on a real display: one entry each in Edit (there were two, Find next
and Next search result), doing what the keyboard's place says — the open file's next
match in its text, the search's next matching line in the tree."""

from __future__ import annotations

from typing import Any

import pytest

from gui.keyboard.walked import walked

pytestmark = pytest.mark.slow  # slow: a window on a fresh Xvfb, a search, keys typed


@pytest.fixture(scope="module")
def walk() -> dict[str, Any]:
    seen = walked(["find_keys"])["find_keys"]
    assert "error" not in seen, seen["error"]
    return seen


def test_edit_has_one_entry_for_each_key(walk: dict[str, Any]) -> None:
    assert walk["edit:F3"] == ["Find next"]
    assert walk["edit:Shift+F3"] == ["Find previous"]


def test_in_the_text_f3_finds_in_the_file(walk: dict[str, Any]) -> None:
    assert walk["in_file:moved"] and walk["in_file:same_file"] and walk["in_file:back"]


def test_in_the_tree_f3_goes_to_the_next_matching_line(walk: dict[str, Any]) -> None:
    first, then = walk["in_tree:stepped"]
    assert first != then
    assert walk["in_tree:kept_keyboard"] and walk["in_tree:back"]
