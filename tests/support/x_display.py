"""A real X display for the tests that need one: Qt's xcb platform under a fresh Xvfb.

The tests run Qt offscreen, whose one key scheme is no desktop's: what a key does in a
text field on X11 (Ctrl+D deletes), or which keys a desktop's theme binds, is seen only
on a real display, by a program of its own (`xcb_child_env` for its environment).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
from collections.abc import Iterator

import pytest

SCREEN = "1366x768x24"


@contextlib.contextmanager
def fresh_x_display() -> Iterator[str]:
    """The name (":N") of a fresh Xvfb's display, until the block ends; the test is
    skipped where Xvfb is not installed."""
    xvfb = shutil.which("Xvfb")
    if xvfb is None:
        pytest.skip("needs Xvfb (make test installs it: scripts/install-system-deps --test)")
    read, write = os.pipe()
    with subprocess.Popen(
        [xvfb, "-displayfd", str(write), "-screen", "0", SCREEN, "-nolisten", "tcp"],
        pass_fds=(write,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    ) as server:
        os.close(write)
        with os.fdopen(read) as said:
            number = said.readline().strip()
        try:
            assert number.isdigit(), "Xvfb did not say which display it opened"
            yield f":{number}"
        finally:
            server.terminate()
            server.wait(10)


def xcb_child_env(display: str, desktop: str | None = None) -> dict[str, str]:
    """The environment of a program that shows Qt windows on `display`, as on the desktop
    `desktop` names (XDG_CURRENT_DESKTOP; None: no desktop's theme)."""
    env = {**os.environ, "QT_QPA_PLATFORM": "xcb", "DISPLAY": display}
    env.pop("XDG_CURRENT_DESKTOP", None)
    env.pop("QT_QPA_PLATFORMTHEME", None)
    if desktop is not None:
        env["XDG_CURRENT_DESKTOP"] = desktop
    return env
