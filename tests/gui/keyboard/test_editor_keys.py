"""The editor's keys on a real display (issue 74): Ctrl+Tab puts the keyboard in the tab
it shows, so what is typed next lands in that file; Ctrl+S says "Saved"."""

from __future__ import annotations

from typing import Any

import pytest

from gui.keyboard.walked import walked

pytestmark = pytest.mark.slow  # slow: a window on a fresh Xvfb, keys typed (~3 s of CPU)


@pytest.fixture(scope="module")
def seen() -> dict[str, dict[str, Any]]:
    return walked(["ctrl_tab"])


def test_ctrl_tab_puts_the_keyboard_in_the_tab_it_shows(seen: dict[str, dict[str, Any]]) -> None:
    walk = seen["ctrl_tab"]
    assert "error" not in walk, walk.get("error")
    assert walk["shown"] == "/memories/global/tools/git.md"
    assert walk["in_text"], walk["focus"]
    assert walk["typed_into_text"]
    assert walk["back_shown"] == "/memories/global/tools/python.md" and walk["back_in_text"]


def test_ctrl_s_says_saved(seen: dict[str, dict[str, Any]]) -> None:
    assert seen["ctrl_tab"]["said_after_save"] == "Saved git.md"
