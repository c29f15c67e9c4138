"""The test side of the keyboard walks: run some in a program of their own on a fresh
desktop (Xvfb and openbox), read what each saw."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from support.x_display import fresh_x_desktop, xcb_child_env

PROGRAM = Path(__file__).with_name("walk_program.py")


def walked(names: Iterable[str], screen: str = "1366x768x24") -> dict[str, dict[str, Any]]:
    """What each walk of `names` saw, by name (a walk that failed says so: "error")."""
    wanted = list(names)
    with fresh_x_desktop(screen) as display:
        child = subprocess.run(
            [sys.executable, str(PROGRAM), *wanted],
            env=xcb_child_env(display),
            capture_output=True,
            text=True,
            timeout=120 + 60 * len(wanted),
            check=False,
        )
    assert child.returncode == 0, child.stderr
    seen: dict[str, dict[str, Any]] = json.loads(child.stdout.strip().splitlines()[-1])
    assert set(seen) == set(wanted), (seen, child.stderr)
    return seen


def walk_of(seen: dict[str, dict[str, Any]], name: str) -> dict[str, Any]:
    """What the walk `name` saw; it failed the test when the walk itself failed."""
    walk = seen[name]
    assert "error" not in walk, walk["error"]
    return walk
