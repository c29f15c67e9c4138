"""A real X display for the tests that need one: Qt's xcb platform under a fresh Xvfb.

The tests run Qt offscreen, whose one key scheme is no desktop's: what a key does in a
text field on X11 (Ctrl+D deletes), or which keys a desktop's theme binds, is seen only
on a real display, by a program of its own (`xcb_child_env` for its environment).

Where the keyboard goes is seen only with a window manager giving the window the focus
and keys typed on the X server, as a person's are (QTest hands a key to the widget it
names, whatever has the focus): `fresh_x_desktop` is Xvfb with openbox, and the program
presses keys with xdotool (`tests/gui/keyboard/`).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import time
from collections.abc import Iterator

import pytest

SCREEN = "1366x768x24"


@contextlib.contextmanager
def fresh_x_display(screen: str = SCREEN) -> Iterator[str]:
    """The name (":N") of a fresh Xvfb's display (`screen`: "WxHxDEPTH"), until the block
    ends; the test is skipped where Xvfb is not installed."""
    xvfb = shutil.which("Xvfb")
    if xvfb is None:
        pytest.skip("needs Xvfb (make test installs it: scripts/install-system-deps --test)")
    read, write = os.pipe()
    with subprocess.Popen(
        [xvfb, "-displayfd", str(write), "-screen", "0", screen, "-nolisten", "tcp"],
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


DESKTOP_TOOLS = ("openbox", "xdotool", "xprop")
"""What a desktop of `fresh_x_desktop` needs besides Xvfb."""
WM_START_S = 90  # a loaded 2-core machine can take seconds to start a program


@contextlib.contextmanager
def fresh_x_desktop(screen: str = SCREEN) -> Iterator[str]:
    """The name (":N") of a fresh Xvfb's display with openbox managing its windows, until
    the block ends; the test is skipped where Xvfb, openbox or xdotool is not installed."""
    missing = [tool for tool in DESKTOP_TOOLS if shutil.which(tool) is None]
    if missing:
        pytest.skip(
            f"needs {', '.join(missing)} (make test installs them: "
            "scripts/install-system-deps --test)"
        )
    with fresh_x_display(screen) as display:
        env = {**os.environ, "DISPLAY": display}
        manager = _start_window_manager(env)
        try:
            yield display
        finally:
            manager.terminate()
            manager.communicate(timeout=10)


WM_STARTS = 3
"""How often openbox is started before a test fails: on a loaded machine it has ended at
its start once (exit 1, saying nothing), and managed the same display when started again."""


def _start_window_manager(env: dict[str, str]) -> subprocess.Popen[str]:
    """openbox, managing the display `env` names."""
    ended: list[str] = []
    for _ in range(WM_STARTS):
        manager = subprocess.Popen(
            ["openbox", "--sm-disable"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        said = _wait_for_window_manager(manager, env)
        if said is None:
            return manager
        ended.append(said)
    raise AssertionError("; ".join(ended))


def _wait_for_window_manager(manager: subprocess.Popen[str], env: dict[str, str]) -> str | None:
    """Until openbox says it manages the screen (EWMH's `_NET_SUPPORTING_WM_CHECK`): None,
    or what it said when it ended at its start."""
    deadline = time.monotonic() + WM_START_S
    while time.monotonic() < deadline:
        if manager.poll() is not None:
            _, said = manager.communicate()
            return f"openbox ended ({manager.returncode}) at its start: {said}"
        looked = subprocess.run(
            ["xprop", "-root", "_NET_SUPPORTING_WM_CHECK"],
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        if "window id" in looked.stdout:
            return None
        time.sleep(0.05)  # a process outside the test's clock: polled, with a deadline
    manager.kill()
    manager.communicate()
    raise AssertionError(f"openbox did not manage the display within {WM_START_S} s")


def xcb_child_env(display: str, desktop: str | None = None) -> dict[str, str]:
    """The environment of a program that shows Qt windows on `display`, as on the desktop
    `desktop` names (XDG_CURRENT_DESKTOP; None: no desktop's theme)."""
    env = {**os.environ, "QT_QPA_PLATFORM": "xcb", "DISPLAY": display}
    env.pop("XDG_CURRENT_DESKTOP", None)
    env.pop("QT_QPA_PLATFORMTHEME", None)
    if desktop is not None:
        env["XDG_CURRENT_DESKTOP"] = desktop
    return env
