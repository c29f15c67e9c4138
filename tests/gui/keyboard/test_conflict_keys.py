"""The editor's conflict bar by keyboard, on a real display (issue 74 point 1): its
choices were mouse-only — Tab went from the text to its ✕, no Alt keys, no palette
command, Enter typed a newline, and File → Resolve conflicts… said "No conflicts"."""

from __future__ import annotations

from typing import Any

import pytest

from gui.keyboard.walked import walked

pytestmark = pytest.mark.slow  # slow: a window on a fresh Xvfb, keys typed (~3 s of CPU)


@pytest.fixture(scope="module")
def walk() -> dict[str, Any]:
    seen = walked(["conflict_bar"])["conflict_bar"]
    assert "error" not in seen, seen["error"]
    return seen


def test_the_bar_underlines_each_choices_letter(walk: dict[str, Any]) -> None:
    assert walk["labels"] == ["&Compare", "Keep &mine", "Keep &theirs"]


def test_f6_goes_to_the_bar_tab_through_it_and_escape_back(walk: dict[str, Any]) -> None:
    assert walk["f6_on_bar"] and walk["f6_focus"].endswith("Compare"), walk["f6_focus"]
    assert walk["tab_focus"].endswith("Keep mine"), walk["tab_focus"]
    assert walk["escape_back_in_text"]


def test_the_palette_has_the_choices_while_the_bar_offers_them(walk: dict[str, Any]) -> None:
    assert walk["palette:keep mine"][0] == "Conflict: Keep mine"
    assert walk["saved_mine"]


def test_alt_keys_and_resolve_conflicts_reach_the_choices(walk: dict[str, Any]) -> None:
    assert walk["alt_c_compares"] and walk["resolve_compares"]
    assert walk["palette:resolve conflicts"][0] == "Resolve conflicts"
    assert walk["kept_theirs"]


def test_the_alt_keys_are_on_only_while_the_bar_offers_them(walk: dict[str, Any]) -> None:
    # Always on, they took C, M, T and B from every panel, no conflict shown.
    assert walk["keys_on_before"] == []
    assert walk["keys_on_during"] == ["Alt+C", "Alt+M", "Alt+T", "Alt+B"]
    assert walk["keys_on_after"] == []
