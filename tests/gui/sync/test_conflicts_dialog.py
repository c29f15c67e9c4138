"""Resolve conflicts…: a sync conflict and file-sync conflict copies, each opened in the
three-way view and decided through the engine."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from pytestqt.qtbot import QtBot

from memtab.components.editor.session import (
    KEEP_MINE,
    MERGE,
    OVERWRITE,
    RELOAD,
    TAKE_THEIRS,
    OpenFile,
    Situation,
)
from memtab.file_protocol.file_ref import MemoryFileRef
from memtab.gui.context import WindowContext
from memtab.gui.sync.conflicts_dialog import ConflictsDialog
from memtab.gui.sync.service import WindowSync
from memtab.store.paths import parse_virtual_path
from support.gui_clock import FakeGuiClock
from support.sync_machines import Machine

NOTES = "/memories/global/notes.md"


@pytest.fixture
def dialog_on(qtbot: QtBot) -> Iterator[object]:
    made: list[tuple[ConflictsDialog, WindowSync, WindowContext]] = []

    def open_on(machine: Machine) -> ConflictsDialog:
        context = WindowContext(machine.home)
        sync = WindowSync(machine.home, context.jobs, clock=FakeGuiClock())
        dialog = ConflictsDialog(context, sync)
        context.owned_by(dialog)  # the dialog is the window here
        qtbot.addWidget(dialog)
        made.append((dialog, sync, context))
        dialog.reload()
        qtbot.waitUntil(lambda: not dialog.busy, timeout=30_000)
        return dialog

    yield open_on
    for dialog, sync, context in made:
        dialog.shutdown()
        sync.shutdown()
        context.shutdown()
        sync.deleteLater()  # it is the window's in the app: with it go the test's slots


def wait(qtbot: QtBot, dialog: ConflictsDialog) -> None:
    qtbot.waitUntil(lambda: not dialog.busy, timeout=30_000)


# slow: two machines syncing through a git remote (git processes, ~0.5 s of CPU)
@pytest.mark.slow
def test_a_sync_conflict_opens_three_ways_and_the_merged_text_is_kept(
    qtbot: QtBot, dialog_on: object, alpha: Machine, beta: Machine
) -> None:
    alpha.conflict_with(beta, NOTES)

    dialog = dialog_on(alpha)  # type: ignore[operator]
    assert [item.key for item in dialog.items] == [NOTES]
    wait(qtbot, dialog)
    view = dialog.view
    assert view.base.text.toPlainText() == "one\ntwo\nthree\n"
    assert view.mine.text.toPlainText() == "one\ntwo from alpha\nthree\n"
    assert view.theirs.text.toPlainText() == "one\ntwo from beta\nthree\n"
    assert view.merged_text() == "one\ntwo from alpha\nthree\n"  # mine, to edit
    assert view.texts is not None and view.texts.mine_changed == {1}
    assert dialog.buttons["merged"].isEnabled()

    view.merged.setPlainText("one\ntwo from both\nthree\n")
    dialog.decide("merged")
    wait(qtbot, dialog)
    assert alpha.text(NOTES) == "one\ntwo from both\nthree\n"
    assert alpha.conflicts() == [] and dialog.items == []
    alpha.sync()
    beta.sync()
    assert beta.text(NOTES) == "one\ntwo from both\nthree\n"


# slow: two machines syncing through a git remote (git processes, ~0.5 s of CPU)
@pytest.mark.slow
def test_keep_theirs_takes_the_other_machines_text(
    qtbot: QtBot, dialog_on: object, alpha: Machine, beta: Machine
) -> None:
    alpha.publish(NOTES, "one\n", beta)
    beta.write(NOTES, "beta\n")
    beta.sync()
    alpha.write(NOTES, "alpha\n")
    alpha.sync()
    dialog = dialog_on(alpha)  # type: ignore[operator]
    wait(qtbot, dialog)
    dialog.decide("theirs")
    wait(qtbot, dialog)
    assert alpha.text(NOTES) == "beta\n"
    assert "kept theirs" in dialog.message.text()


def test_a_conflict_copy_is_listed_beside_its_original_and_merged(
    qtbot: QtBot, dialog_on: object, alpha: Machine
) -> None:
    alpha.write(NOTES, "shared\nmine only\n")
    copy = alpha.home.global_root / "notes.sync-conflict-20261122-143000-ABCDEF7.md"
    copy.write_text("shared\ntheirs only\n")
    dialog = dialog_on(alpha)  # type: ignore[operator]
    copy_path = "/memories/global/notes.sync-conflict-20261122-143000-ABCDEF7.md"
    assert [item.key for item in dialog.items] == [copy_path]
    assert dialog.items[0].title == "notes.md\nconflict copy (Syncthing)"
    assert dialog.items[0].detail == (
        f"{copy_path}: conflict copy (Syncthing) of /memories/global/notes.md, "
        "20261122-143000, by ABCDEF7"
    )
    wait(qtbot, dialog)
    assert dialog.view.texts is not None and dialog.view.texts.base is None
    assert dialog.buttons["theirs"].text() == "Keep &theirs"  # the copy is theirs
    dialog.buttons["both"].click()
    wait(qtbot, dialog)
    # Keep both shows what it keeps first: nothing is decided yet.
    assert dialog.view.merged_text() == "shared\nmine only\ntheirs only\n"
    assert "what Keep both keeps" in dialog.view.note.text()
    assert alpha.text(NOTES) == "shared\nmine only\n" and copy.exists()
    dialog.buttons["both"].click()
    wait(qtbot, dialog)
    assert alpha.text(NOTES) == "shared\nmine only\ntheirs only\n"
    assert not copy.exists() and dialog.items == []


# slow: two machines syncing through a git remote (git processes, ~0.5 s of CPU)
@pytest.mark.slow
def test_keep_both_shown_then_edited_is_shown_again_before_it_is_kept(
    qtbot: QtBot, dialog_on: object, alpha: Machine, beta: Machine
) -> None:
    alpha.conflict_with(beta, NOTES)
    dialog = dialog_on(alpha)  # type: ignore[operator]
    wait(qtbot, dialog)
    both = "one\ntwo from alpha\ntwo from beta\nthree\n"
    dialog.decide("both")
    assert dialog.view.merged_text() == both
    assert alpha.conflicts() != []  # shown, not kept
    dialog.view.merged.setPlainText("one\nmy own two\nthree\n")
    dialog.decide("both")  # the text was changed: Keep both shows its result again
    assert dialog.view.merged_text() == both and alpha.conflicts() != []
    dialog.decide("both")
    wait(qtbot, dialog)
    assert alpha.text(NOTES) == both and alpha.conflicts() == []


def test_a_copy_of_memory_meta_is_merged_by_rule(
    qtbot: QtBot, dialog_on: object, alpha: Machine
) -> None:
    alpha.write(NOTES, "x\n")
    copy = alpha.home.root / "memory-meta.json.sync-conflict-20261122-143000-ABCDEF7"
    copy.write_text(json.dumps({"version": 1, "files": {}}))
    dialog = dialog_on(alpha)  # type: ignore[operator]
    keys = [item.kind for item in dialog.items]
    assert keys == ["sidecar"]
    wait(qtbot, dialog)
    assert not dialog.buttons["merged"].isVisibleTo(dialog)
    dialog.decide("both")
    wait(qtbot, dialog)
    assert not copy.exists()
    assert list((alpha.home.memtab_dir / "conflict-copies").iterdir())


def test_the_editor_and_the_dialog_say_the_same_words_for_the_same_choices(
    qtbot: QtBot, dialog_on: object, alpha: Machine
) -> None:
    dialog = dialog_on(alpha)  # type: ignore[operator]
    words = {decision: plain(button.text()) for decision, button in dialog.buttons.items()}
    editor = OpenFile(MemoryFileRef.of_mux(parse_virtual_path(NOTES)))
    bar = {action: plain(label) for action, label in editor.changed_on_disk_choices()}
    assert (bar[KEEP_MINE], bar[TAKE_THEIRS]) == (words["mine"], words["theirs"])
    refused = {action: plain(label) for action, label in editor.conflict_choices("changed")}
    assert (refused[OVERWRITE], refused[RELOAD]) == (words["mine"], words["theirs"])
    for situation in (Situation.CONFLICT, Situation.CHANGED_ON_DISK):
        editor.situation = situation
        compare = {action: plain(label) for action, label in editor.diff_choices(True)}
        assert compare[MERGE] == words["both"]
        assert set(compare.values()) == {words["both"], words["mine"], words["theirs"]}
    # The copies' decisions say the same as sync's ("theirs" is the copy).
    alpha.write(NOTES, "shared\nmine only\n")
    (alpha.home.global_root / "notes.sync-conflict-20261122-143000-ABCDEF7.md").write_text("x\n")
    dialog.reload()
    wait(qtbot, dialog)
    assert {d: plain(b.text()) for d, b in dialog.buttons.items()} == words


def plain(label: str) -> str:
    return label.replace("&", "")
