"""A docked panel's Alt+letters are its own where the keyboard is, on a real display:
Trust and Check both have Alt+O (Open), and open together Qt only moved the focus between
the two buttons, pressing neither (`toolkit.keyboard_return.PanelLetters`). Trust's key
toggles its panel, as Check's does."""

from __future__ import annotations

from typing import Any

import pytest

from gui.keyboard.walked import walked

pytestmark = pytest.mark.slow  # slow: three windows on a fresh Xvfb, two reports, keys typed


@pytest.fixture(scope="module")
def walks() -> dict[str, dict[str, Any]]:
    return walked(["panel_letters", "trust_toggle", "alt_in_text"])


@pytest.fixture
def walk(walks: dict[str, dict[str, Any]]) -> dict[str, Any]:
    seen = walks["panel_letters"]
    assert "error" not in seen, seen["error"]
    return seen


def test_each_panels_letter_presses_its_own_button(walk: dict[str, Any]) -> None:
    assert walk["both_shown"]
    assert walk["check_open_enabled"] and walk["trust_open_enabled"]
    assert walk["in_check"] == {"trust_open": 0, "check_open": 1}, walk["focus_after_check"]
    assert walk["in_trust"] == {"trust_open": 1, "check_open": 1}


def test_a_panels_letter_presses_nothing_from_the_text(walk: dict[str, Any]) -> None:
    assert walk["in_text"] == {"trust_open": 1, "check_open": 1}
    assert walk["text_kept_keyboard"] and walk["no_dialog"]


def test_trusts_key_toggles_the_panel_as_checks_does(walks: dict[str, dict[str, Any]]) -> None:
    # It only ever opened the panel: pressed in it, nothing closed it but the mouse.
    walk = walks["trust_toggle"]
    assert "error" not in walk, walk["error"]
    assert walk["checked"] and walk["from_text:in_panel"]
    assert walk["in_panel:closed"] and walk["in_panel:back_in_text"] and walk["unchecked"]


@pytest.mark.parametrize("key", ["alt+q", "alt+o", "alt+m"])
def test_an_alt_letter_no_key_takes_types_nothing_into_the_memory(
    walks: dict[str, dict[str, Any]], key: str
) -> None:
    # Qt's text typed its letter: Alt+O, no panel shown, put an "o" into the memory.
    walk = walks["alt_in_text"]
    assert "error" not in walk, walk["error"]
    assert walk[f"{key}:typed_nothing"] and walk["in_text"]
