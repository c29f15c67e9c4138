"""Walks of the editor's keys: Ctrl+Tab to a tab puts the keyboard in its text; a
conflict's bar is reached and answered by keys."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QApplication, QWidget

from gui.keyboard.driver import Keys, Text, Until, Walk, WalkSpec, WalkSteps, focus_in, focus_name
from memtab.fs.atomic import atomic_write_text
from memtab.gui.editor.tab.bar import CONFLICT_KEYS
from memtab.store.home import Home
from memtab.store.paths import parse_file_path
from support.memory_home import MAIN, make_home, memory

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
    yield Keys("ctrl+s")
    status = walk.window.statusBar()
    yield Until(lambda: not editor.is_dirty and status.currentMessage(), "the save said")
    walk.note("said_after_save", status.currentMessage())
    yield Keys("ctrl+shift+Tab")
    walk.note("back_shown", str(editor.current_path))
    walk.note("back_in_text", focus_in(editor.text_edit))


def _diff_dialog(walk: Walk) -> QWidget | None:
    tab = walk.window.memory_tab.controller.editor.current_tab
    return tab.prompts.diff_dialog if tab is not None else None


def _palette_finds(walk: Walk, typed: str) -> WalkSteps:
    """The palette opened, `typed` into it: what it lists noted as `palette:<typed>`; Enter
    runs the first (closing it)."""
    yield Keys("ctrl+shift+p", until=QApplication.activeModalWidget)
    yield Text(typed)
    dialog = QApplication.activeModalWidget()
    listed = getattr(dialog, "shown", [])
    walk.note(f"palette:{typed}", [entry.label for entry in listed])
    yield Keys("Return", until=lambda: QApplication.activeModalWidget() is None)


def conflict_bar(walk: Walk) -> WalkSteps:
    """A draft, the file changed from a shell, Ctrl+S: the bar's choices by keys."""
    editor = walk.window.memory_tab.controller.editor
    yield from opened(walk, GIT)
    walk.note("keys_on_before", _conflict_keys_on(walk))
    yield Text("draft ")
    atomic_write_text(
        walk.home.global_root / "tools" / "git.md", memory("Git conventions", "Squash.\n")
    )
    yield Keys("ctrl+s")
    bar = editor.current_tab.prompts.bar  # type: ignore[union-attr]
    yield Until(lambda: "Compare" in _plain_labels(bar), "the bar")
    walk.note("labels", _labels(bar))
    walk.note("keys_on_during", _conflict_keys_on(walk))
    yield Keys("F6")
    walk.note("f6_focus", focus_name())
    walk.note("f6_on_bar", focus_in(bar))
    yield Keys("Tab")
    walk.note("tab_focus", focus_name())
    yield Keys("Escape")
    walk.note("escape_back_in_text", focus_in(editor.text_edit))
    yield from _palette_finds(walk, "keep mine")
    walk.note("bar_after_palette", _labels(bar))  # Keep mine ran: the draft saved over
    yield Until(lambda: not editor.is_dirty, "the draft kept")
    walk.note("saved_mine", "draft" in (walk.home.global_root / "tools" / "git.md").read_text())
    # Another change under another draft: Alt+C compares, Alt+T keeps theirs.
    yield Text("again ")
    atomic_write_text(
        walk.home.global_root / "tools" / "git.md", memory("Git conventions", "Merge.\n")
    )
    yield Until(lambda: "Compare" in _plain_labels(bar), "the bar")
    yield Keys("alt+c")
    yield Until(lambda: _diff_dialog(walk) is not None, "the compare window")
    walk.note("alt_c_compares", True)
    yield Keys("Escape", until=lambda: _diff_dialog(walk) is None)
    yield from _palette_finds(walk, "resolve conflicts")
    yield Until(lambda: _diff_dialog(walk) is not None, "Resolve conflicts…'s compare window")
    walk.note("resolve_compares", True)
    yield Keys("Escape", until=lambda: _diff_dialog(walk) is None)
    yield Until(walk.window.isActiveWindow, "the window active again")
    yield Keys("alt+t")
    yield Until(lambda: "Merge." in editor.buffer_text(), "theirs in the editor")
    walk.note("kept_theirs", "again" not in editor.buffer_text())
    yield Until(lambda: "Compare" not in _plain_labels(bar), "the conflict's choices gone")
    walk.note("bar_after", _plain_labels(bar))
    walk.note("keys_on_after", _conflict_keys_on(walk))


def _conflict_keys_on(walk: Walk) -> list[str]:
    """The conflict's Alt keys enabled now (`gui.editor.tab.bar.CONFLICT_KEYS`)."""
    actions = walk.window.context.actions
    return [
        key for action_id, _choice, key in CONFLICT_KEYS if actions.action(action_id).isEnabled()
    ]


def _plain_labels(bar: QWidget) -> list[str]:
    return [label.replace("&", "") for label in _labels(bar)]


def _labels(bar: QWidget) -> list[str]:
    ids = bar.action_ids() if not bar.isHidden() else []  # type: ignore[attr-defined]
    return [bar.button(i).text() for i in ids]  # type: ignore[attr-defined]


WALKS = (
    WalkSpec("ctrl_tab", ctrl_tab_types_into_the_tab_it_shows, main_home, workspace_id=MAIN),
    WalkSpec("conflict_bar", conflict_bar, main_home, workspace_id=MAIN),
)
