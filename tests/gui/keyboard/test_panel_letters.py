"""A docked panel's Alt+letters are its own where the keyboard is, on a real display:
Trust and Check both have Alt+O (Open), and open together Qt only moved the focus between
the two buttons, pressing neither (`toolkit.panel_letters`)."""

from __future__ import annotations

from typing import Any

import pytest

from gui.keyboard.walked import walked

pytestmark = pytest.mark.slow  # slow: a window on a fresh Xvfb, two reports, keys typed


@pytest.fixture(scope="module")
def walk() -> dict[str, Any]:
    seen = walked(["panel_letters"])["panel_letters"]
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
