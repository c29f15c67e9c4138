"""Walks of the letters: Alt+V opens View, and the letter Trust shows underlined runs
Trust — once View's T was Traces' and Trust's both, and pressed it only moved between
them (Qt runs an entry by its letter when the letter is its alone); a button's Alt+letter
in the Trust panel presses it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtWidgets import QApplication, QWidget

from gui.keyboard.driver import (
    Keys,
    Text,
    Until,
    Walk,
    WalkSpec,
    WalkSteps,
    focus_in,
    focus_name,
)
from gui.keyboard.walks_editor import GIT, main_home, opened
from memtab.components.window.mnemonics import mnemonic
from memtab.demo import MAIN_ID
from memtab.gui.window import keys
from memtab.store.home import Home
from memtab.trust.duplicates.records import DuplicateGroup
from support.demo_homes import copied_demo_home
from support.memory_home import MAIN


def _by_its_letter(
    walk: Walk, menu_key: str, action_id: str, ran: Callable[[], object]
) -> WalkSteps:
    """Open a menu by `menu_key`, press the letter `action_id`'s entry shows: note the
    letter, whether the menu closed on it and whether `ran()` then holds."""
    yield Keys(menu_key, until=QApplication.activePopupWidget)
    letter = mnemonic(walk.window.context.actions.action(action_id).text())
    walk.note(f"{action_id}:letter", letter)
    if letter is None:
        yield Keys("Escape", until=lambda: QApplication.activePopupWidget() is None)
        return
    yield Keys(letter)
    closed = QApplication.activePopupWidget() is None
    walk.note(f"{action_id}:menu_closed", closed)
    if not closed:  # the letter only moved to another entry of the menu
        yield Keys("Escape", until=lambda: QApplication.activePopupWidget() is None)
        walk.note(f"{action_id}:ran", bool(ran()))
        return
    yield Until(ran, f"{action_id} run by its letter")
    walk.note(f"{action_id}:ran", True)


def menu_letters(walk: Walk) -> WalkSteps:
    """View → Trust and Edit → Replace in file… (Redo enabled) by their letters, from the open
    file's text."""
    editor = walk.window.memory_tab.controller.editor
    yield from opened(walk, GIT)
    dock = walk.window.findChild(QWidget, "trustDock")
    yield from _by_its_letter(walk, "alt+v", "trust.panel", lambda: dock and dock.isVisible())
    yield Keys("Escape")  # the keyboard back from the Trust panel to the text
    yield Text("z")
    yield Keys("ctrl+z")  # Redo enabled: Edit's R was Redo's too
    walk.note("redo_enabled", walk.window.context.actions.action("files.redo").isEnabled())
    yield from _by_its_letter(
        walk,
        "alt+e",
        "editor.replace",
        lambda: editor.find_bar.replace_edit.isVisible(),
    )


def trust_letters(walk: Walk) -> WalkSteps:
    """View → Trust's key, then Alt+B, the letter Combine into… shows: it opens the review
    of the files' combined text (the demo's first group, two notes) — Alt+B was the
    conflict bar's Keep both in the whole window, a conflict shown or not
    (`gui.editor.tab.bar.BarKeys`: on only while the bar offers it)."""
    trust = walk.window.part(keys.TRUST)
    trust.find_now()  # not the start's delay
    yield Until(lambda: trust.report is not None and not trust.busy, "the trust report")
    yield Keys("ctrl+shift+t")
    yield Until(
        lambda: isinstance(trust.panel.selected(), DuplicateGroup), "a duplicate group selected"
    )
    walk.note("keep_both_on", walk.window.context.actions.action("editor.keep_both").isEnabled())
    yield Keys("alt+b", until=QApplication.activeModalWidget)
    asked = QApplication.activeModalWidget()
    walk.note("asked", asked.windowTitle() if asked is not None else None)
    if asked is not None:  # Escape typed before the window manager activates it is lost
        yield Until(asked.isActiveWindow, "the dialog active")
    yield Keys("Escape", until=lambda: QApplication.activeModalWidget() is None)


def trust_review_keys(walk: Walk) -> WalkSteps:
    """The review Combine into… opens (Alt+B on the panel's first group): Tab reaches each of
    its controls in turn, Escape closes it, and the keyboard is back on the group's row."""
    trust = walk.window.part(keys.TRUST)
    trust.find_now()  # not the start's delay
    yield Until(lambda: trust.report is not None and not trust.busy, "the trust report")
    yield Keys("ctrl+shift+t")
    yield Until(
        lambda: isinstance(trust.panel.selected(), DuplicateGroup), "a duplicate group selected"
    )
    group = trust.panel.selected()
    yield Keys("alt+b", until=lambda: trust.review is not None and trust.review.isActiveWindow())
    stops: list[str] = [focus_name()]
    for _ in range(8):
        yield Keys("Tab")
        stops.append(focus_name())
    walk.note("stops", stops)
    yield Keys("Escape", until=lambda: trust.review is None)
    yield Until(lambda: focus_in(trust.panel.tree), "the keyboard back in the panel")
    walk.note("back_on_row", focus_in(trust.panel.tree) and trust.panel.selected() == group)


def demo(folder: Path) -> Home:
    return copied_demo_home(folder)


WALKS = (
    WalkSpec("menu_letters", menu_letters, main_home, workspace_id=MAIN),
    WalkSpec("trust_letters", trust_letters, demo, workspace_id=MAIN_ID),
    WalkSpec("trust_review_keys", trust_review_keys, demo, workspace_id=MAIN_ID),
)
