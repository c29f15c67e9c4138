"""The keyboard from the window's first frame on, on a real display: a menu's key typed the
moment the window shows — a home of 3 × 1,000 files, shown by its outline while its first scan
runs, before the step after the first paint has filled the menus — opens that menu once they
are filled; never lost (issue 97: Qt's menu bar opened the empty menu and the key was gone)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from support.x_display import fresh_x_desktop, xcb_child_env

pytestmark = pytest.mark.slow  # slow: 3,000 files written, a window on a fresh Xvfb (~10 s)

PROGRAM = Path(__file__).with_name("first_keys_program.py")


def typed_at_first_show(folder: Path, key: str, menu: str, width: int | None) -> dict[str, object]:
    """What `first_keys_program.py` saw: `key` typed as the window first showed."""
    with fresh_x_desktop() as display:
        child = subprocess.run(
            [sys.executable, str(PROGRAM), str(folder), key, menu, str(width or "placed"), "--big"],
            env=xcb_child_env(display),
            capture_output=True,
            text=True,
            timeout=180,
            check=False,
        )
    assert child.returncode == 0, child.stderr
    seen: dict[str, object] = json.loads(child.stdout.strip().splitlines()[-1])
    return seen


@pytest.mark.parametrize("width", [None, 683])
def test_a_menu_key_typed_as_the_window_shows_opens_its_menu(
    tmp_path: Path, width: int | None
) -> None:
    seen = typed_at_first_show(tmp_path, "alt+f", "File", width)
    assert seen["typed"]
    assert seen["assembled_when_typed"] is False  # the menus were not built yet
    assert seen["opened"] == "File", seen
