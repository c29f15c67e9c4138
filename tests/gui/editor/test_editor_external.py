"""Open in external editor and the real path: what runs, and what a failure says."""

from __future__ import annotations

import stat
from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices, QGuiApplication
from PySide6.QtWidgets import QLabel, QToolButton
from pytestqt.qtbot import QtBot

from gui import editor_support
from gui.editor_support import NOTES, open_loaded, type_at_end
from memtab.components.editor.external import EditorLaunch
from memtab.components.editor.session import BarKind
from memtab.gui.editor.editor import EditorPanel
from memtab.gui.toolkit import external_editor as editor_external
from memtab.store.scopes.memory import MemoryStore

store = editor_support.store
own_writes = editor_support.own_writes
panel = editor_support.panel

WAIT_MS = 5000


def script(tmp_path: Path, body: str) -> Path:
    """An executable shell script standing in for the user's editor."""
    path = tmp_path / "fake editor"
    path.write_text(f"#!/bin/sh\n{body}\n", encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


@pytest.fixture
def no_editor_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("VISUAL", "EDITOR", "TERMINAL"):
        monkeypatch.delenv(name, raising=False)


def test_the_real_path_is_shown_and_copied(
    qtbot: QtBot, panel: EditorPanel, store: MemoryStore
) -> None:
    assert not panel.editor_actions.copy_real_path_action.isEnabled()
    open_loaded(qtbot, panel, NOTES)
    real = store.physical(NOTES)
    assert panel.real_path == real
    assert panel.editor_actions.copy_real_path_action.isEnabled()
    panel.editor_actions.copy_real_path_action.trigger()
    assert QGuiApplication.clipboard().text() == str(real)
    # The "more" menu and the path's context menu carry the commands.
    more = next(
        button
        for button in panel.findChildren(QToolButton)
        if button.accessibleName() == "More file actions"
    )
    menu = more.menu()
    assert menu is not None
    assert panel.editor_actions.open_external_action in menu.actions()
    assert panel.editor_actions.copy_real_path_action in menu.actions()
    assert panel.editor_actions.find_action in menu.actions()
    path_label = next(
        label
        for label in panel.findChildren(QLabel)
        if label.accessibleName() == "Memory file path"
    )
    assert panel.editor_actions.copy_real_path_action in path_label.actions()


def test_visual_opens_the_real_path(
    panel: EditorPanel,
    store: MemoryStore,
    qtbot: QtBot,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    no_editor_variables: None,
) -> None:
    received = tmp_path / "received"
    # Written aside and renamed: `received` exists only once it holds the whole path (a
    # shell's `>` creates it empty first, which the wait below could see under load).
    editor = script(
        tmp_path, f'printf "%s" "$1" > "{received}.part" && mv "{received}.part" "{received}"'
    )
    monkeypatch.setenv("VISUAL", f"'{editor}'")
    monkeypatch.setenv("EDITOR", "definitely-not-an-editor")  # $VISUAL comes first
    open_loaded(qtbot, panel, NOTES)
    with qtbot.waitSignal(panel.editor_actions._opener.opened, timeout=WAIT_MS) as opened:
        panel.editor_actions.open_external_action.trigger()
    assert opened.args == [f"{editor.name} (from $VISUAL)"]
    qtbot.waitUntil(received.exists, timeout=WAIT_MS)
    assert received.read_text(encoding="utf-8") == str(store.physical(NOTES))
    # The editor exited at once with status 0: the watch ends without a complaint.
    qtbot.waitUntil(lambda: not panel.editor_actions._opener._watched, timeout=WAIT_MS)
    assert not panel.message_bar.isVisibleTo(panel)


def test_an_editor_failing_at_once_says_so(
    panel: EditorPanel,
    qtbot: QtBot,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    no_editor_variables: None,
) -> None:
    monkeypatch.setenv("EDITOR", f"'{script(tmp_path, 'exit 3')}'")  # quoted: it has a space
    open_loaded(qtbot, panel, NOTES)
    panel.editor_actions.open_in_external_editor()
    qtbot.waitUntil(lambda: panel.message_bar.isVisibleTo(panel), timeout=WAIT_MS)
    assert panel.message_bar.kind is BarKind.ERROR
    assert panel.message_bar.text == "fake editor (from $EDITOR) exited with status 3 at once."


def test_an_editor_that_is_not_installed_says_so(
    qtbot: QtBot, panel: EditorPanel, monkeypatch: pytest.MonkeyPatch, no_editor_variables: None
) -> None:
    monkeypatch.setenv("VISUAL", "no-such-editor --wait")
    open_loaded(qtbot, panel, NOTES)
    panel.editor_actions.open_in_external_editor()
    assert panel.message_bar.kind is BarKind.ERROR
    assert "$VISUAL names no-such-editor, which is not installed" in panel.message_bar.text


def test_a_program_that_cannot_start_says_so(
    qtbot: QtBot,
    panel: EditorPanel,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    no_editor_variables: None,
) -> None:
    not_executable = tmp_path / "editor.txt"
    not_executable.write_text("not a program", encoding="utf-8")
    monkeypatch.setenv("EDITOR", str(not_executable))
    monkeypatch.setattr(editor_external, "editor_launch", _launch_of(not_executable))
    open_loaded(qtbot, panel, NOTES)
    panel.editor_actions.open_in_external_editor()
    assert panel.message_bar.kind is BarKind.ERROR
    assert panel.message_bar.text.startswith("Could not start editor.txt: Permission denied")


def _launch_of(program: Path) -> Callable[..., EditorLaunch]:
    def launch(path: Path, *_args: object, **_kwargs: object) -> EditorLaunch:
        return EditorLaunch((str(program), str(path)), program.name)

    return launch


@pytest.mark.parametrize("opens", [True, False])
def test_without_an_editor_the_desktop_default_opens_it(
    qtbot: QtBot,
    panel: EditorPanel,
    store: MemoryStore,
    monkeypatch: pytest.MonkeyPatch,
    no_editor_variables: None,
    opens: bool,
) -> None:
    asked: list[QUrl] = []

    def open_url(url: QUrl) -> bool:
        asked.append(url)
        return opens

    monkeypatch.setattr(QDesktopServices, "openUrl", open_url)
    open_loaded(qtbot, panel, NOTES)
    panel.editor_actions.open_in_external_editor()
    assert [url.toLocalFile() for url in asked] == [str(store.physical(NOTES))]
    if opens:
        assert not panel.message_bar.isVisibleTo(panel)
    else:
        assert panel.message_bar.kind is BarKind.ERROR
        assert panel.message_bar.text.startswith("No application is set up to open notes.md")


def test_opening_a_draft_externally_says_the_draft_is_not_in_it(
    panel: EditorPanel,
    qtbot: QtBot,
    monkeypatch: pytest.MonkeyPatch,
    no_editor_variables: None,
) -> None:
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda _url: True)
    open_loaded(qtbot, panel, NOTES)
    type_at_end(qtbot, panel, "draft")
    panel.editor_actions.open_in_external_editor()
    assert panel.message_bar.kind is BarKind.INFO
    assert "your unsaved changes here are not in it" in panel.message_bar.text


def test_an_editor_that_keeps_running_is_left_alone(
    panel: EditorPanel,
    qtbot: QtBot,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    no_editor_variables: None,
) -> None:
    monkeypatch.setattr(editor_external, "WATCH_EXIT_MS", 200)  # one look, then let go
    monkeypatch.setenv("EDITOR", f"'{script(tmp_path, 'exec sleep 30')}'")
    open_loaded(qtbot, panel, NOTES)
    panel.editor_actions.open_in_external_editor()
    opener = panel.editor_actions._opener
    qtbot.waitUntil(lambda: not opener._watched, timeout=WAIT_MS)
    assert not panel.message_bar.isVisibleTo(panel)
    (process,) = opener._detached  # still running, not watched, not killed
    assert process.poll() is None
    process.kill()
    process.wait()
