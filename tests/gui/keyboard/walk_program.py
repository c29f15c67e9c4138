"""Run as a program by the keyboard tests (`walked`): the walks named on its command line,
each on a fresh window on the display $DISPLAY names, printing what they saw as JSON."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # tests/: the support package

from gui.keyboard import (
    walks_editor,
    walks_find,
    walks_focus,
    walks_inbox,
    walks_letters,
    walks_menus,
    walks_panels,
)
from gui.keyboard.driver import run_walks

WALKS = {
    spec.name: spec
    for spec in (
        *walks_editor.WALKS,
        *walks_panels.WALKS,
        *walks_inbox.WALKS,
        *walks_menus.WALKS,
        *walks_letters.WALKS,
        *walks_find.WALKS,
        *walks_focus.WALKS,
    )
}

if __name__ == "__main__":
    run_walks(WALKS[name] for name in sys.argv[1:])
