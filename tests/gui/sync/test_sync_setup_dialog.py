"""File → Sync…: the remote, what syncs, Test connection and the first sync with its
progress — each on a worker, cancel leaving nothing half-made — then the set-up shown,
changed or stopped. Local bare repositories as remotes; a git that dawdles on a fetch
stands for a slow network."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from memtab.components.sync.setup import scope_choices
from memtab.gui.context import WindowContext
from memtab.gui.sync.service import WindowSync
from memtab.gui.sync.setup_dialog import SyncSetupDialog
from memtab.store.sidecars.registry import Workspace
from memtab.sync.repository.layout import load_config
from support.gui_clock import FakeGuiClock
from support.sync_machines import Machine

NOTES = "/memories/global/notes.md"
Opener = Callable[..., SyncSetupDialog]


@pytest.fixture
def open_setup(qtbot: QtBot) -> Iterator[Opener]:
    made: list[tuple[SyncSetupDialog, WindowSync, WindowContext]] = []

    def open_on(machine: Machine, git_program: str | None = None) -> SyncSetupDialog:
        context = WindowContext(machine.home)
        sync = WindowSync(machine.home, context.jobs, clock=FakeGuiClock(), git_program=git_program)
        dialog = SyncSetupDialog(context, sync)
        context.owned_by(dialog)  # the dialog is the window here
        qtbot.addWidget(dialog)
        made.append((dialog, sync, context))
        dialog.reload()
        dialog.show()
        settle(qtbot, dialog)
        return dialog

    yield open_on
    for dialog, sync, context in made:
        dialog.shutdown()
        sync.shutdown()
        context.shutdown()
        sync.deleteLater()  # it is the window's in the app: with it go the test's slots


def settle(qtbot: QtBot, dialog: SyncSetupDialog) -> None:
    qtbot.waitUntil(lambda: not dialog.busy, timeout=60_000)


def slow_git(tmp_path: Path, slow_fetch: int = 0, slow_push: int = 0) -> str:
    """A git whose `slow_fetch`-th fetch, or `slow_push`-th push, waits 30 s (a slow
    network) before it runs; each command's count is in `tmp_path / "fetches"`, `"pushes"`."""
    script = tmp_path / "slow-git"
    lines = ["#!/bin/sh", 'for arg in "$@"; do']
    for command, count, slow in (("fetch", "fetches", slow_fetch), ("push", "pushes", slow_push)):
        counter = tmp_path / count
        lines += [
            f'  if [ "$arg" = {command} ]; then',
            f'    n=$(( $(cat "{counter}" 2>/dev/null || echo 0) + 1 )); echo $n > "{counter}"',
            f"    if [ $n = {slow} ]; then sleep 30; fi",
            "  fi",
        ]
    lines += ["done", f'exec {shutil.which("git")} "$@"', ""]
    script.write_text("\n".join(lines))
    script.chmod(0o755)
    return str(script)


def test_set_up_test_and_first_sync_in_the_dialog(
    qtbot: QtBot, open_setup: Opener, tmp_path: Path, remote: Path, beta: Machine
) -> None:
    alpha = Machine.create(tmp_path, "alpha")
    alpha.write(NOTES, "# Notes\n- set up in the window\n")
    dialog = open_setup(alpha)
    assert dialog.remote.hasFocus() or dialog.focusWidget() is dialog.remote  # type away
    assert dialog.primary.text() == "&Start first sync" and not dialog.primary.isEnabled()
    assert [box.text() for box in dialog.boxes] == ["Global memory"]
    assert dialog.boxes[0].isChecked()
    assert not dialog.stop.isVisible()

    dialog.remote.setText(str(remote))
    dialog.test.click()
    settle(qtbot, dialog)
    assert (
        dialog.message.text()
        == f"✓ Reached {remote}: an empty repository; the first sync fills it."
    )
    assert load_config(alpha.home).targets == ()  # a test changes nothing

    lines: list[str] = []
    dialog._sync.progress.connect(lines.append)
    # The watcher saw the set-up written: a look waits behind the first sync.
    dialog._sync.progress.connect(lambda _line: dialog._sync.look_again())
    dialog.primary.click()
    assert dialog.busy and dialog.cancel.isVisible() and dialog.progress.isVisible()
    settle(qtbot, dialog)
    assert "Recording the changes among 1 memory file here" in lines
    said = dialog.message.text()
    assert said.startswith("Synced: this machine's memory sent, 0 files brought in.")
    assert not dialog.cancel.isVisible() and not dialog.progress.isVisible()
    beta.sync()
    assert beta.text(NOTES) == "# Notes\n- set up in the window\n"

    qtbot.waitUntil(lambda: dialog.primary.text() == "&Save changes", timeout=30_000)
    assert dialog.current.text().startswith(f"Syncing with {remote} (branch main)")
    assert dialog.stop.isVisible() and not dialog.primary.isEnabled()  # nothing changed yet


def test_a_remote_that_cannot_be_used_says_what_to_do_and_nothing_is_set_up(
    qtbot: QtBot, open_setup: Opener, tmp_path: Path
) -> None:
    alpha = Machine.create(tmp_path, "alpha")
    dialog = open_setup(alpha)
    dialog.remote.setText(str(tmp_path / "nowhere.git"))
    dialog.test.click()
    settle(qtbot, dialog)
    assert dialog.message.text().startswith(f"There is no git repository at {tmp_path}")
    dialog.remote.setText(f"ext::sh -c touch% {tmp_path / 'ran'}")
    dialog.primary.click()
    settle(qtbot, dialog)
    assert "does not use git's remote helpers" in dialog.message.text()
    assert not (tmp_path / "ran").exists()
    assert load_config(alpha.home).targets == ()
    assert dialog.primary.text() == "&Start first sync"


def test_cancel_while_setting_up_keeps_nothing(
    qtbot: QtBot, open_setup: Opener, tmp_path: Path, remote: Path
) -> None:
    alpha = Machine.create(tmp_path, "alpha")
    dialog = open_setup(alpha, slow_git(tmp_path, slow_fetch=1))
    dialog.remote.setText(str(remote))
    dialog.primary.click()
    qtbot.waitUntil(lambda: (tmp_path / "fetches").exists(), timeout=30_000)
    dialog.cancel.click()
    settle(qtbot, dialog)
    assert dialog.message.text() == "Stopped: nothing was changed."
    assert load_config(alpha.home).targets == ()
    assert not (alpha.home.sync_dir / "memory").exists()


def test_cancel_during_the_first_sync_keeps_the_set_up_and_loses_nothing(
    qtbot: QtBot, open_setup: Opener, tmp_path: Path, remote: Path, beta: Machine
) -> None:
    alpha = Machine.create(tmp_path, "alpha")
    alpha.write(NOTES, "mine\n")
    # the first sync's push: an empty remote takes it, so nothing is fetched (sync/engine.py)
    dialog = open_setup(alpha, slow_git(tmp_path, slow_push=1))
    dialog.remote.setText(str(remote))
    lines: list[str] = []
    dialog._sync.progress.connect(lines.append)
    dialog.primary.click()
    qtbot.waitUntil(
        lambda: (
            (tmp_path / "pushes").exists() and any(line.startswith("Pushing") for line in lines)
        ),
        timeout=30_000,
    )
    dialog.cancel.click()
    settle(qtbot, dialog)
    assert dialog.message.text().startswith("Stopped. Sync is set up")
    assert [target.remote for target in load_config(alpha.home).targets] == [str(remote)]
    assert alpha.text(NOTES) == "mine\n"
    alpha.service.git_program = None
    alpha.sync()  # the next sync goes on from what was recorded
    beta.sync()
    assert beta.text(NOTES) == "mine\n"


def test_the_set_up_is_shown_changed_and_stopped(
    qtbot: QtBot, open_setup: Opener, alpha: Machine, tmp_path: Path
) -> None:
    dialog = open_setup(alpha)
    assert dialog.remote.text().endswith("remote.git") and dialog.boxes[0].isChecked()
    assert dialog.primary.text() == "&Save changes" and not dialog.primary.isEnabled()
    other = tmp_path / "other.git"
    subprocess.run(["git", "init", "--bare", "--quiet", str(other)], check=True)
    dialog.remote.setText(str(other))
    assert dialog.primary.isEnabled()
    dialog.primary.click()
    settle(qtbot, dialog)
    assert [target.remote for target in load_config(alpha.home).targets] == [str(other)]

    dialog.stop.click()
    settle(qtbot, dialog)
    assert dialog.message.text().startswith("Memory is no longer synced")
    assert load_config(alpha.home).targets == ()
    qtbot.waitUntil(lambda: dialog.primary.text() == "&Start first sync", timeout=30_000)
    assert not dialog.stop.isVisible()


def test_it_offers_the_shown_projects_and_workspaces_memory() -> None:
    workspace = Workspace("ws1", "main", "/src/app", "/src/app", "app", ("/src/app",))
    choices = scope_choices(workspace, None)
    assert [choice.label for choice in choices] == [
        "Global memory",
        "This project's memory (app)",
        "This workspace's memory (main)",
    ]
    assert [choice.scope.label for choice in choices] == [
        "global",
        "project:/src/app",
        "workspace:ws1",
    ]


def test_it_fits_beside_a_terminal(open_setup: Opener, tmp_path: Path) -> None:
    dialog = open_setup(Machine.create(tmp_path, "alpha"))
    assert dialog.minimumSizeHint().width() <= 683 - 40
    assert dialog.width() <= 683


def test_tab_goes_through_what_syncs_before_the_buttons(open_setup: Opener, tmp_path: Path) -> None:
    """Its checkboxes are made when the set-up is read, after the buttons: Tab reached them
    after Close (issue 74)."""
    dialog = open_setup(Machine.create(tmp_path, "alpha"))
    assert dialog.boxes
    stops = []
    widget = dialog.test.nextInFocusChain()
    while widget is not dialog.test and len(stops) < 50:
        if widget.focusPolicy() & Qt.FocusPolicy.TabFocus and dialog.isAncestorOf(widget):
            stops.append(widget)
        widget = widget.nextInFocusChain()
    boxes = [stops.index(box) for box in dialog.boxes]
    buttons = [stops.index(button) for button in (dialog.primary, dialog.close_button)]
    assert max(boxes) < min(buttons)
    assert boxes == sorted(boxes) and boxes[0] == 0  # right after Test connection, in order
