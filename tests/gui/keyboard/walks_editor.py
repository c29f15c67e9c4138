"""Walks of the editor's keys: Ctrl+Tab to a tab puts the keyboard in its text."""

from __future__ import annotations

from pathlib import Path

from gui.keyboard.driver import Keys, Text, Until, Walk, WalkSpec, WalkSteps, focus_in, focus_name
from memtab.store.home import Home
from memtab.store.paths import parse_file_path
from support.memory_home import MAIN, make_home

GIT = parse_file_path("/memories/global/tools/git.md")
PYTHON = parse_file_path("/memories/global/tools/python.md")


def main_home(folder: Path) -> Home:
    return make_home(folder)


def opened(walk: Walk, *paths: object) -> WalkSteps:
    """The files opened in kept tabs, the last one shown, its text with the keyboard."""
    editor = walk.window.memory_tab.controller.editor
    for path in paths:
        editor.open_file(path, keep=True)  # type: ignore[arg-type]
        yield Until(lambda p=path: editor.current_path == p and not editor.is_reading, f"{path}")
    editor.text_edit.take_keyboard()
    yield Until(lambda: focus_in(editor.text_edit), "the keyboard in the text")


def ctrl_tab_types_into_the_tab_it_shows(walk: Walk) -> WalkSteps:
    editor = walk.window.memory_tab.controller.editor
    yield from opened(walk, GIT, PYTHON)
    yield Keys("ctrl+Tab")
    walk.note("shown", str(editor.current_path))
    walk.note("focus", focus_name())
    walk.note("in_text", focus_in(editor.text_edit))
    before = editor.buffer_text()
    yield Text("zq")
    walk.note("typed_into_text", editor.buffer_text() != before)
    yield Keys("ctrl+shift+Tab")
    walk.note("back_shown", str(editor.current_path))
    walk.note("back_in_text", focus_in(editor.text_edit))


WALKS = (WalkSpec("ctrl_tab", ctrl_tab_types_into_the_tab_it_shows, main_home, workspace_id=MAIN),)
