"""Walks of the docked panels' letters: Trust and Check open together, both with Alt+O
(Open) — Qt only moved the focus between the two buttons and pressed neither. Each
panel's letter presses its own button while the keyboard is in it, and neither from the
open file's text (`toolkit.keyboard_return.PanelLetters`)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QAbstractButton, QApplication, QWidget

from gui.keyboard.driver import Keys, Until, Walk, WalkSpec, WalkSteps, focus_in, focus_name
from gui.keyboard.walks_editor import main_home, opened
from gui.keyboard.walks_menus import demo
from memtab.demo import MAIN_ID
from memtab.gui.window import keys
from memtab.store.paths import parse_file_path
from support.memory_home import MAIN

ZETA = parse_file_path("/memories/global/Zeta.md")


def _counted(button: QAbstractButton) -> Callable[[], int]:
    """How many times `button` was pressed from now on."""
    pressed = [0]

    def count() -> None:
        pressed[0] += 1

    button.clicked.connect(count)
    return lambda: pressed[0]


def _presses(walk: Walk, name: str, counts: dict[str, Callable[[], int]]) -> None:
    walk.note(name, {button: count() for button, count in counts.items()})


def panel_letters(walk: Walk) -> WalkSteps:
    """Trust and Check open below the editor; Alt+O in each, then in the text."""
    trust, check = walk.window.part(keys.TRUST), walk.window.part(keys.CHECK)
    trust.find_now()  # not the start's delay
    check.check_now()
    yield Until(lambda: trust.report is not None and not trust.busy, "the trust report")
    yield Until(lambda: check.report is not None and not check.busy, "the check report")
    yield Keys("ctrl+shift+k")
    check_dock, trust_dock = (walk.window.findChild(QWidget, n) for n in ("checkDock", "trustDock"))
    assert check_dock is not None and trust_dock is not None
    yield Until(lambda: focus_in(check_dock), "the keyboard in the Check panel")
    yield Keys("ctrl+shift+t")
    yield Until(lambda: focus_in(trust_dock), "the keyboard in the Trust panel")
    counts = {
        "trust_open": _counted(trust.panel.open_button),
        "check_open": _counted(check.panel.open_button),
    }
    # In Check: a finding selected, its Open enabled; Alt+O opens it.
    check.panel.list.setFocus()
    yield Until(lambda: focus_in(check_dock), "the keyboard in the Check panel again")
    walk.note("findings", check.panel.list.topLevelItemCount())
    yield Keys("Down", "Home")
    walk.note("both_shown", check_dock.isVisible() and trust_dock.isVisible())
    walk.note("check_open_enabled", check.panel.open_button.isEnabled())
    yield Keys("alt+o")
    _presses(walk, "in_check", counts)
    walk.note("focus_after_check", focus_name())
    # In Trust: a place selected, its Open enabled; Alt+O opens it.
    yield Keys("ctrl+shift+t")
    yield Until(lambda: focus_in(trust_dock), "the keyboard in the Trust panel again")
    walk.note("trust_open_enabled", trust.panel.open_button.isEnabled())
    yield Keys("alt+o")
    _presses(walk, "in_trust", counts)
    # In the open file's text: neither panel's Open, the keyboard stays in the text.
    text = walk.window.memory_tab.controller.editor.text_edit
    text.take_keyboard()  # type: ignore[attr-defined]
    yield Until(lambda: focus_in(text), "the keyboard in the text")
    yield Keys("alt+o")
    _presses(walk, "in_text", counts)
    walk.note("text_kept_keyboard", focus_in(text))
    walk.note("no_dialog", QApplication.activeModalWidget() is None)


def trust_toggle(walk: Walk) -> WalkSteps:
    """Ctrl+Shift+T from the text opens Trust with the keyboard; from the text again, with
    Trust shown, the keyboard goes back to it; in it, the key closes it, the keyboard back
    in the text (it only ever opened: a toggle, as Check's key is)."""
    trust = walk.window.part(keys.TRUST)
    dock = trust.dock
    yield from opened(walk, ZETA)
    text = walk.window.memory_tab.controller.editor.text_edit  # the open file's
    yield Keys("ctrl+shift+t")
    yield Until(lambda: focus_in(dock), "the keyboard in the Trust panel")
    walk.note("checked", trust.panel_action.isChecked())
    text.take_keyboard()  # type: ignore[attr-defined]
    yield Until(lambda: focus_in(text), "the keyboard in the text")
    yield Keys("ctrl+shift+t")
    yield Until(lambda: focus_in(dock) and dock.isVisible(), "the keyboard in Trust again")
    walk.note("from_text:in_panel", True)
    yield Keys("ctrl+shift+t")
    yield Until(lambda: not dock.isVisible(), "the Trust panel closed")
    walk.note("in_panel:closed", True)
    yield Until(lambda: focus_in(text), "the keyboard back in the text")
    walk.note("in_panel:back_in_text", True)
    walk.note("unchecked", not trust.panel_action.isChecked())


def alt_in_text(walk: Walk) -> WalkSteps:
    """Alt+letters no shortcut takes, in the open file's text: Alt+Q (no menu's), Alt+O
    (no panel shown), Alt+M (no conflict shown: the bar's Keep mine is off)."""
    editor = walk.window.memory_tab.controller.editor
    yield from opened(walk, ZETA)
    text = editor.buffer_text()
    for key in ("alt+q", "alt+o", "alt+m"):
        yield Keys(key)
        walk.note(f"{key}:typed_nothing", editor.buffer_text() == text and not editor.is_dirty)
    walk.note("in_text", focus_in(editor.text_edit))


WALKS = (
    WalkSpec("panel_letters", panel_letters, demo, workspace_id=MAIN_ID),
    WalkSpec("trust_toggle", trust_toggle, main_home, workspace_id=MAIN),
    WalkSpec("alt_in_text", alt_in_text, main_home, workspace_id=MAIN),
)
