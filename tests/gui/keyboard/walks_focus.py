"""Walks of where the keyboard is once a dialog or a tab closes: after *Discard* in "Unsaved
changes" (a typed character, or the file deleted from a shell; by Alt+D or a click) it was in
the window's tab bar, where no key of the Memory tab works, until Tab or a click; after Runs…
it goes back where it was, and its Open trace puts it in the Traces tab's list. Beside a
terminal (683 px, one pane at a time) Ctrl+Shift+F typed into a search field the editor hid."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QApplication, QMessageBox

from gui.keyboard.driver import (
    Click,
    Keys,
    Text,
    Until,
    Walk,
    WalkSpec,
    WalkSteps,
    focus_in,
    focus_name,
)
from gui.keyboard.walks_editor import GIT, PYTHON, main_home, opened
from memtab.demo import MAIN_ID, create_demo_home
from memtab.gui.history.runs_dialog import RunsDialog
from memtab.gui.traces.feature import TracesTab
from memtab.gui.window.keys import HISTORY
from memtab.store.history.records import RunEntry
from memtab.store.history.runs import RunsLog
from memtab.store.home import Home
from memtab.store.paths import parse_file_path
from support.memory_home import MAIN

PREFERENCES = parse_file_path("/memories/global/preferences.md")
ZETA = parse_file_path("/memories/global/Zeta.md")
NOTES = parse_file_path("/memories/workspace/notes.md")


def shown(walk: Walk, *paths: object) -> WalkSteps:
    """The files opened, the last one shown with the keyboard in its text (narrow: the editor
    shown by its key, as a person beside a terminal does)."""
    editor = walk.window.memory_tab.controller.editor
    yield from opened(walk, *paths)
    if walk.window.memory_tab.panes.narrow:
        yield Keys("ctrl+e")
        text = editor.text_edit
        yield Until(lambda: text.isVisible() and focus_in(text), "the editor shown")


def at_home(walk: Walk) -> bool:
    """Whether the keyboard is in the open file's text or the tree, on a widget that shows,
    in the active window."""
    focused = QApplication.focusWidget()
    if focused is None or not focused.isVisible() or not walk.window.isActiveWindow():
        return False
    tab = walk.window.memory_tab
    return focus_in(tab.controller.editor.text_edit) or focus_in(tab.tree)


def _asked() -> bool:
    """Whether a dialog is up and has the keyboard (the window manager made it active)."""
    box = QApplication.activeModalWidget()
    return box is not None and box.isActiveWindow()


def _discard(walk: Walk, case: str, path: object, *, deleted: bool, by_mouse: bool) -> WalkSteps:
    """`path` shown with unsaved changes (typed, or its file deleted from a shell), Ctrl+W,
    Discard; then where the keyboard is, and whether Ctrl+Shift+F works from there."""
    editor = walk.window.memory_tab.controller.editor
    yield from shown(walk, path)
    if deleted:
        (walk.home.global_root / str(path).removeprefix("/memories/global/")).unlink()
        yield Until(lambda: editor.is_dirty, "the draft of a file deleted from a shell")
    else:
        yield Text("x")
    open_tabs = len(editor.tabs)
    yield Keys("ctrl+w", until=_asked)
    box = QApplication.activeModalWidget()
    walk.note(f"{case}:asked", box.windowTitle() if box is not None else None)
    assert isinstance(box, QMessageBox)
    closed = lambda: QApplication.activeModalWidget() is None  # noqa: E731
    if by_mouse:
        yield Click(lambda: box.button(QMessageBox.StandardButton.Discard), until=closed)
    else:
        yield Keys("alt+d", until=closed)
    yield Until(lambda: len(editor.tabs) == open_tabs - 1, "the tab closed")
    yield Until(lambda: at_home(walk), "the keyboard in the open file's text or the tree")
    walk.note(f"{case}:focus", focus_name())
    search = walk.window.memory_tab.controller.search_box.edit
    yield Keys("ctrl+shift+f")
    walk.note(f"{case}:search_key", focus_in(search) and search.isVisible())


def discards(walk: Walk) -> WalkSteps:
    """Discard in "Unsaved changes" four ways, another file open behind; then the last
    tab's, the keyboard going to the tree."""
    yield from opened(walk, PREFERENCES)
    yield from _discard(walk, "typed_keys", GIT, deleted=False, by_mouse=False)
    yield from _discard(walk, "typed_mouse", PYTHON, deleted=False, by_mouse=True)
    yield from _discard(walk, "deleted_keys", GIT, deleted=True, by_mouse=False)
    yield from _discard(walk, "deleted_mouse", ZETA, deleted=True, by_mouse=True)
    editor = walk.window.memory_tab.controller.editor
    yield Until(lambda: editor.current_path == PREFERENCES, "the file open behind")
    walk.note("behind", str(editor.current_path))
    yield from _discard(walk, "last_tab", PREFERENCES, deleted=False, by_mouse=False)


def home_with_a_run(folder: Path) -> Home:
    """The test home, with a run that changed git.md (Runs… opens it)."""
    home = main_home(folder)
    at = int((home.global_root / "tools" / "git.md").stat().st_mtime * 1000)
    op = {"command": "str_replace", "path": str(GIT), "applied": True}
    run = {"id": "run-walk", "at": at, "kind": "consolidation", "trigger": "manual"}
    run |= {"workspaceId": MAIN, "summary": "Tightened git.md.", "ops": [op]}
    RunsLog(home).append(RunEntry.read_or_raise(run))
    return home


def _runs_dialog(walk: Walk) -> RunsDialog | None:
    return walk.window.part(HISTORY).runs_dialog


def runs(walk: Walk) -> WalkSteps:
    """Runs… from the open file's text and Escape: the keyboard back in the text; Runs…
    from the tree, its change opened (the window shows the file), Escape: the keyboard
    where it belongs."""
    editor = walk.window.memory_tab.controller.editor
    yield from shown(walk, NOTES)
    yield Keys("ctrl+shift+r")
    yield Until(lambda: (d := _runs_dialog(walk)) is not None and d.isActiveWindow(), "Runs…")
    dialog = _runs_dialog(walk)
    assert dialog is not None
    walk.note("in_runs", focus_in(dialog))
    yield Keys("Escape")
    yield Until(walk.window.isActiveWindow, "the window active again")
    yield Until(lambda: at_home(walk), "the keyboard back in the text")
    walk.note("back_in_text", focus_in(editor.text_edit))
    tree = walk.window.memory_tab.tree
    yield Keys("ctrl+0")  # Files: the keyboard in the tree
    yield Until(lambda: focus_in(tree), "the keyboard in the tree")
    yield Keys("ctrl+shift+r")
    yield Until(lambda: dialog.isActiveWindow() and dialog.detail is not None, "the run shown")
    dialog.select_op(0)
    yield Keys("alt+o")  # Open file: the window shows git.md
    yield Until(lambda: editor.current_path == GIT, "git.md opened")
    dialog.activateWindow()
    yield Until(dialog.isActiveWindow, "Runs… active again")
    yield Keys("Escape")
    yield Until(walk.window.isActiveWindow, "the window active again")
    yield Until(lambda: at_home(walk), "the keyboard in the open file's text or the tree")
    walk.note("after_open", focus_name())


def demo_home(folder: Path) -> Home:
    return create_demo_home(folder)


def runs_trace(walk: Walk) -> WalkSteps:
    """Runs… on the demo's newest run (the writer's that timed out), Open trace (Alt+T): the
    Traces tab on its dump, the keyboard in the list of dumps — it was in the tab bar. Then
    Ctrl+Shift+F: the Memory tab in front, its field with the keyboard."""
    yield Keys("ctrl+shift+r")
    yield Until(lambda: (d := _runs_dialog(walk)) is not None and d.isActiveWindow(), "Runs…")
    dialog = _runs_dialog(walk)
    assert dialog is not None
    yield Until(lambda: dialog.detail is not None and not dialog.busy, "the newest run shown")
    detail = dialog.detail
    walk.note("run", f"{detail.run.kind} {detail.run.status}" if detail is not None else None)
    walk.note("trace_on", dialog.trace_button.isEnabled())
    yield Keys("alt+t")
    window = walk.window
    yield Until(lambda: window.isActiveWindow() and window.shown_traces_tab, "the Traces tab")
    traces = window.shown_traces_tab
    assert isinstance(traces, TracesTab)
    yield Until(lambda: focus_in(traces.list_view), "the keyboard in the list of dumps")
    walk.note("focus", focus_name())
    selected = traces.selected_path()
    walk.note("selected", selected.name if selected is not None else None)
    walk.note("trace", detail.trace.name if detail is not None and detail.trace else None)
    search = window.memory_tab.controller.search_box.edit
    yield Keys("ctrl+shift+f")  # from the Traces tab: the Memory tab's field, shown
    walk.note("search_shows", search.isVisible() and focus_in(search))


def search_beside_a_terminal(walk: Walk) -> WalkSteps:
    """683 px, a file shown: Ctrl+Shift+F shows the files and the field with the keyboard,
    and what is typed goes there."""
    tab = walk.window.memory_tab
    yield from shown(walk, GIT)
    walk.note("narrow", tab.panes.narrow)
    search = tab.controller.search_box.edit
    yield Keys("ctrl+shift+f")
    walk.note("field_shows", search.isVisible())
    walk.note("in_field", focus_in(search))
    yield Text("ruff")
    walk.note("typed", search.text())
    walk.note("tree_shows", tab.tree.isVisible())


WALKS = (
    WalkSpec("discards", discards, main_home, workspace_id=MAIN),
    WalkSpec("discards_narrow", discards, main_home, width=683, workspace_id=MAIN),
    WalkSpec("runs_closed", runs, home_with_a_run, workspace_id=MAIN),
    WalkSpec("runs_closed_narrow", runs, home_with_a_run, width=683, workspace_id=MAIN),
    WalkSpec("search_narrow", search_beside_a_terminal, main_home, width=683, workspace_id=MAIN),
    WalkSpec("runs_trace", runs_trace, demo_home, workspace_id=MAIN_ID),
    WalkSpec("runs_trace_narrow", runs_trace, demo_home, width=683, workspace_id=MAIN_ID),
)
