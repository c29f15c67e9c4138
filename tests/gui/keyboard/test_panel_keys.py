"""A panel opened by its key takes the keyboard, and Escape gives it back (issue 74 point 2),
on a real display: Ctrl+Shift+K then ↓ ↓ Enter once inserted a blank line into the open
memory, the keyboard left in its text. Shift+F10 and the Menu key open the context menu of
what has the keyboard (tier 3)."""

from __future__ import annotations

from typing import Any

import pytest

from gui.keyboard.walked import walk_of, walked

pytestmark = pytest.mark.slow  # slow: nine windows on a fresh Xvfb, keys typed (~15 s of CPU)

Seen = dict[str, dict[str, Any]]


@pytest.fixture(scope="module")
def seen() -> Seen:
    return walked(
        [
            "check_panel",
            "history_panel",
            "trust_panel",
            "needs_you_room",
            "blame",
            "inbox_key",
            "inbox_narrow",
            "loads",
            "context_menu_keys",
        ]
    )


@pytest.mark.parametrize("name", ["check_panel", "history_panel", "trust_panel"])
def test_a_dock_takes_the_keyboard_and_escape_gives_it_back(seen: Seen, name: str) -> None:
    walk = walk_of(seen, name)
    assert walk["in_panel"], walk["focus"]
    assert walk["text_kept"]  # ↓ ↓ Enter went to the panel, not into the memory
    assert walk["back_in_text"] and walk["panel_stays"]


def test_what_needs_you_takes_the_keyboard_and_escape_gives_it_back(seen: Seen) -> None:
    walk = walk_of(seen, "needs_you_room")
    assert walk["in_room"] and walk["no_file_opened"] and walk["back_in_tree"]


def test_the_blame_takes_the_keyboard_into_the_text_and_its_card_has_a_key(seen: Seen) -> None:
    walk = walk_of(seen, "blame")
    assert walk["in_text"] and walk["back_in_tree"] and walk["blame_shown"]
    assert walk["card"] == "blameCard"
    assert walk["card_closed"] and walk["back_in_text_after_card"]


def test_a_key_puts_the_keyboard_in_the_inbox_and_escape_back(seen: Seen) -> None:
    walk = walk_of(seen, "inbox_key")
    assert walk["in_list"], walk["focus"]
    assert walk["selected"]
    assert walk["back_in_text"]


def test_beside_a_terminal_the_inbox_key_and_escape_switch_the_panes(seen: Seen) -> None:
    walk = walk_of(seen, "inbox_narrow")
    assert walk["narrow"] and walk["in_list"]
    assert walk["editor_shown"] and walk["back_in_text"]


def test_what_each_agent_loads_opens_by_its_key_with_the_keyboard(seen: Seen) -> None:
    walk = walk_of(seen, "loads")
    assert walk["in_dialog"], walk["focus"]
    assert walk["dialog_closed"] and walk["back_in_text"]


@pytest.mark.parametrize("key", ["shift+F10", "Menu"])
def test_a_key_opens_the_context_menu_of_the_row_with_the_keyboard(seen: Seen, key: str) -> None:
    walk = walk_of(seen, "context_menu_keys")
    assert walk[f"tree:{key}"][:2] == ["Pin", "History"]  # the file row's menu
    assert walk[f"tree_at_row:{key}"]  # by the row, not where the pointer is


def test_shift_f10_opens_the_texts_menu_in_the_editor(seen: Seen) -> None:
    walk = walk_of(seen, "context_menu_keys")
    assert any(title.startswith("Paste") for title in walk["text:shift+F10"])
