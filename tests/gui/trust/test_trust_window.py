"""Memory every agent can trust, in the window, on the demo (issue 72 points 2, 5 and 7):
with no file open the room lists what needs the user, each item a key from its file and
line; View → Trust takes the keyboard; Move takes a leak where it belongs and Edit → Undo
brings it back; a file an agent writes is counted in again."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QEvent, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.memory_tree_support import (
    WindowFactory,
    action,
    trust_looked,
    trust_review,
    wait_for,
    wait_for_look,
    wait_idle,
)
from memtab.components.trust.room import RoomSection, Target
from memtab.components.window.mnemonics import mnemonic
from memtab.demo import MAIN_ID, acme_api, webapp
from memtab.fs.atomic import atomic_write_text
from memtab.gui.first_paint.main_window import MainWindow
from memtab.gui.trust.feature import TrustFeature
from memtab.gui.trust.panel import FOUND_ROLE
from memtab.gui.trust.room_view import TARGET_ROLE
from memtab.gui.window import keys
from memtab.store.home import Home
from memtab.trust.duplicates.records import DuplicateGroup
from support.demo_homes import claude_memory, copied_demo_home

make_window = support.make_window

LEAK = "/memories/global/frontend-build.md"


@pytest.fixture
def demo(tmp_path: Path) -> Home:
    return copied_demo_home(tmp_path / "demo")


def looked_at(
    qtbot: QtBot, make_window: WindowFactory, demo: Home
) -> tuple[MainWindow, TrustFeature]:
    return trust_looked(qtbot, make_window, demo, MAIN_ID)


def room_rows(trust: TrustFeature) -> list[str]:
    listed = trust.room.list
    return [listed.item(row).text() for row in range(listed.count())]


def test_with_no_file_open_the_room_says_what_needs_you(
    qtbot: QtBot, make_window: WindowFactory, demo: Home
) -> None:
    window, trust = looked_at(qtbot, make_window, demo)
    assert trust.room.isVisible()
    titles = [section.title for section in trust.room.sections]
    assert titles[-3:] == ["Said twice", "Disagreeing", "In the wrong place"]
    rows = room_rows(trust)
    leak = f"frontend-build.md:6 and 1 more names {webapp(demo)} — belongs in project"
    assert any(leak.startswith(row.strip().removesuffix("…")) for row in rows)  # cut at 110
    assert any("API's port: 8000 (dev-setup.md:8) vs 8080" in row for row in rows)
    assert trust.room.headline.text().endswith("to look at")

    # Alt+3 puts the keyboard in the room; Enter on the leak opens its file at its line.
    action(window, "trust.room").trigger()
    listed = trust.room.list
    assert listed.hasFocus()
    row = next(i for i, text in enumerate(rows) if "frontend-build.md:6" in text)
    listed.setCurrentRow(row)
    target = listed.item(row).data(TARGET_ROLE)
    assert target == Target(path=LEAK, line=6, workspace=None, project=None)
    qtbot.keyClick(listed, Qt.Key.Key_Return)
    editor = window.part(keys.EDITOR)
    wait_for(qtbot, lambda: editor.current_ref is not None and editor.current_ref.key == LEAK)
    link = window.part(keys.EDITOR_LINK)
    wait_for(qtbot, lambda: link.highlighted_lines == (5,))
    assert not trust.room.isVisible()


def test_the_panel_takes_the_keyboard(qtbot: QtBot, make_window: WindowFactory, demo: Home) -> None:
    """Its key puts the keyboard in its list, on a finding (Escape gives it back: walked on
    a real display, tests/gui/keyboard/test_panel_keys.py)."""
    window, trust = looked_at(qtbot, make_window, demo)
    tree = window.memory_tab.tree
    tree.setFocus()
    wait_for(qtbot, tree.hasFocus)
    action(window, "trust.panel").trigger()
    panel = trust.panel
    assert trust.dock.isVisible() and panel.tree.hasFocus()
    assert panel.selected() is not None


def test_move_takes_the_leak_to_its_project_and_ctrl_z_brings_it_back(
    qtbot: QtBot, make_window: WindowFactory, demo: Home
) -> None:
    _window, trust = looked_at(qtbot, make_window, demo)
    [leak] = [x for x in trust.report.leaks if x.place.path == LEAK]  # type: ignore[union-attr]
    panel = trust.panel
    leaving = demo.global_root / "frontend-build.md"
    text = leaving.read_text()
    panel.move_requested.emit(leak)
    review = trust_review(qtbot, trust)
    arrived = demo.project_root(webapp(demo)) / "frontend-build.md"
    assert leaving.exists() and not arrived.exists()  # nothing moves before it is accepted
    moves = review.moves.text()
    assert moves.startswith(
        f"Moves frontend-build.md from mux's global memory into project {webapp(demo)}'s mux memory"
    )
    assert f"mux sessions outside project {webapp(demo)} will no longer read it" in moves
    qtbot.keyClick(review, Qt.Key.Key_M, Qt.KeyboardModifier.AltModifier)  # &Move
    wait_for(qtbot, lambda: arrived.exists() and not leaving.exists())
    assert arrived.read_text() == text
    wait_for(qtbot, lambda: not any(x.place.path == LEAK for x in trust.report.leaks))  # type: ignore[union-attr]
    # Ctrl+Z in the panel is Edit → Undo: the move, as one step.
    panel.tree.setFocus()
    qtbot.keyClick(panel.tree, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    wait_for(qtbot, lambda: leaving.exists() and not arrived.exists())
    wait_for(qtbot, lambda: any(x.place.path == LEAK for x in trust.report.leaks))  # type: ignore[union-attr]


def test_what_an_agent_writes_is_counted_in_again(
    qtbot: QtBot, make_window: WindowFactory, demo: Home
) -> None:
    _window, trust = looked_at(qtbot, make_window, demo)
    copy = demo.project_root(acme_api(demo)) / "environment-copy.md"
    assert not any("environment" in row for row in room_rows(trust))
    atomic_write_text(copy, (demo.global_root / "environment.md").read_text())

    def groups() -> list[DuplicateGroup]:
        report = trust.report
        duplicates = report.duplicates if report is not None else ()
        return [g for g in duplicates if any("environment" in m.path for m in g.members)]

    wait_for(qtbot, groups, 20_000)
    assert [g.kind for g in groups()] == ["copy"]
    rows = room_rows(trust)
    said_twice = rows.index(next(r for r in rows if r.startswith("Said twice")))
    assert any("environment" in row for row in rows[said_twice:])
    # ...and the agent's change is listed as changed since you last looked.
    assert any(row.strip().startswith("environment-copy.md — ") for row in rows[:said_twice])


def test_a_copy_of_a_disagreeing_line_is_a_place_of_its_side_not_another_pair(
    qtbot: QtBot, make_window: WindowFactory, demo: Home
) -> None:
    """The demo's port said again in global memory (a rule copied into another memory):
    still one disagreement — counted once in the room, its row saying the side's other
    place, and in the panel each place a row under it after the value it says, the keys
    still on it."""
    window, trust = looked_at(qtbot, make_window, demo)
    action(window, "trust.panel").trigger()
    tree = trust.panel.tree
    [part] = [
        tree.topLevelItem(i)
        for i in range(3)
        if tree.topLevelItem(i).text(0).startswith("Disagreeing")  # type: ignore[union-attr]
    ]
    tree.setCurrentItem(part.child(0))  # type: ignore[union-attr]
    atomic_write_text(demo.global_root / "ports.md", "# Ports\n\n- The API runs on port 8000.\n")

    def said_twice() -> bool:
        report = trust.report
        found = report.contradictions if report is not None else ()
        return any(len(side.places) == 2 for c in found for side in (c.first, c.second))

    wait_for(qtbot, said_twice, 20_000)
    assert trust.report is not None
    [found] = trust.report.contradictions
    rows = room_rows(trust)
    assert "Disagreeing — 1 disagreement" in rows
    [row] = [r for r in rows if r.strip().startswith("API's port")]  # the disagreement's
    assert re.search(r"API's port: 8000 \((ports|dev-setup)\.md:\d and 1 more\) vs 8080", row)
    # The tree is made again; the keys stay on the contradiction, its newest place another.
    listed = tree.currentItem()
    assert listed is not None and listed.data(0, FOUND_ROLE) == found
    assert listed.parent().text(0) == "Disagreeing · 1"
    children = sorted(listed.child(i).text(0).split(" (")[0] for i in range(listed.childCount()))
    assert children == [
        "8000 · /memories/global/ports.md:3",
        "8000 · /memories/workspace/dev-setup.md:8",
        f"8080 · {claude_memory(demo)}:memory/reference_local-services.md:9",
    ]


def test_combine_into_takes_the_rule_out_of_the_other_memory_and_undo_puts_it_back(
    qtbot: QtBot, make_window: WindowFactory, demo: Home
) -> None:
    window, trust = looked_at(qtbot, make_window, demo)
    report = trust.report
    assert report is not None
    rule = "Use `uv pip` inside existing venvs; it is much faster than pip."
    [group] = [g for g in report.duplicates if g.kind == "rule" and g.members[0].text == rule]
    scratch = demo.workspace_root(MAIN_ID) / "scratch.md"
    before = scratch.read_text()
    assert rule in before
    panel = trust.panel
    trust.open_panel()
    rows = panel.tree.topLevelItem(0)
    assert rows is not None
    row = next(
        rows.child(i)
        for i in range(rows.childCount())
        if rows.child(i).data(0, FOUND_ROLE) == group
    )
    panel.tree.setCurrentItem(row)
    assert panel.combine_button.isEnabled() and not panel.compare_button.isHidden()
    qtbot.mouseClick(panel.combine_button, Qt.MouseButton.LeftButton)
    review = trust_review(qtbot, trust)
    assert review.keep.count() == 2  # each member (one is in global memory already)
    assert review.keep.currentText().startswith("python.md")  # every session reads it there
    assert review.file_rows() == [
        "python.md — mux, global — keeps line 8",
        "scratch.md — mux, workspace a1b2c3d4e5 — loses line 4",
    ]
    assert rule in scratch.read_text()  # nothing yet
    qtbot.keyClick(review, Qt.Key.Key_O, Qt.KeyboardModifier.AltModifier)  # C&ombine
    wait_for(qtbot, lambda: rule not in scratch.read_text())
    assert (demo.global_root / "tools" / "python.md").read_text().count(rule) == 1
    wait_for(qtbot, lambda: group.key not in {g.key for g in trust.report.duplicates})  # type: ignore[union-attr]
    action(window, "files.undo").trigger()
    wait_for(qtbot, lambda: scratch.read_text() == before)


def test_the_first_look_waits_for_the_window_s_start(
    qtbot: QtBot, make_window: WindowFactory, demo: Home
) -> None:
    window = make_window(demo, MAIN_ID)
    trust = window.part(keys.TRUST)
    # Not before FIRST_LOOK_DELAY_MS: the room says it is looking, the counts unknown.
    assert trust.first_look_pending and trust.report is None and not trust.busy
    said = trust.room.headline.text()  # the Inbox's count may be in already
    assert said == "Looking at the memory…" or said.endswith("to look at so far, still looking…")
    wait_for(qtbot, lambda: trust.report is not None)
    quiet = make_window(demo, MAIN_ID, start_check=False)
    late = quiet.part(keys.TRUST)
    wait_idle(qtbot, quiet)
    assert not late.first_look_pending and late.report is None and not late.busy
    late.open_panel()
    wait_for(qtbot, lambda: late.report is not None)


def test_the_panel_leaves_the_tree_its_rows_in_a_window_beside_a_terminal(
    qtbot: QtBot, make_window: WindowFactory, demo: Home
) -> None:
    # It took the height all its rows wanted, 308 of 728 px, and left the tree 51 px.
    window = make_window(demo, MAIN_ID)
    window.resize(683, 728)
    window.show()
    trust = window.part(keys.TRUST)
    trust.find_now()
    wait_for_look(qtbot, trust)
    tree = window.memory_tab.tree
    trust.open_panel()
    dock = trust.dock
    wait_for(qtbot, lambda: dock.isVisible() and dock.height() >= dock.minimumSizeHint().height())
    assert dock.height() <= window.height() // 3 + 1
    wait_for(qtbot, lambda: tree.viewport().height() >= 2 * tree.sizeHintForRow(0))


def test_no_button_of_the_panel_has_a_letter_the_whole_window_has(
    qtbot: QtBot, make_window: WindowFactory, demo: Home
) -> None:
    # Alt+B was the conflict bar's Keep both wherever the keyboard was, never Combine
    # into…; Alt+M and Alt+T (Keep mine, Keep theirs) never Move's. With no conflict
    # shown, the bar's keys are off, and with one the panel's letters win in the panel
    # (toolkit.keyboard_return.PanelLetters): Combine into… has its B back, Take the line out
    # its T.
    window, trust = looked_at(qtbot, make_window, demo)
    window_wide = {mnemonic(menu.title()) for menu in window.menuBar().findChildren(QMenu)}
    for one in window.findChildren(QAction):
        if one.isEnabled():
            keys_ = [key.toString() for key in one.shortcuts()]
            window_wide |= {key[-1].lower() for key in keys_ if re.fullmatch(r"Alt\+\w", key)}
    trust.open_panel()
    panel = trust.panel
    buttons = [panel.open_button, panel.combine_button, panel.keep_button, panel.compare_button]
    seen: set[str] = set()
    for part in range(panel.tree.topLevelItemCount()):
        rows = panel.tree.topLevelItem(part)
        assert rows is not None
        for index in range(rows.childCount()):
            panel.tree.setCurrentItem(rows.child(index))
            for button in [*buttons, panel.move_button]:
                letter = mnemonic(button.text())
                if button.isEnabled() and letter is not None:
                    seen.add(button.text())
                    assert letter not in window_wide, button.text()
    assert {"Com&bine into…", "&Take the line out"} <= seen, seen
    # The Check panel shows beside it: a letter of both is each panel's own where the
    # keyboard is (tests/gui/keyboard/test_panel_letters.py); these two differ anyway.
    check = window.part(keys.CHECK)
    check.show_panel()
    assert mnemonic(check.panel.check_button.text()) != mnemonic(panel.combine_button.text())


def test_the_room_outlives_the_tabs_it_was_shown_beside(
    qtbot: QtBot, make_window: WindowFactory, demo: Home
) -> None:
    """Issue 81 point 1: two kept tabs and a preview; the preview closed (its file deleted),
    the room is still the room — counted again, and shown once no file is open."""
    window, trust = looked_at(qtbot, make_window, demo)
    editor = window.part(keys.EDITOR)
    link = window.part(keys.EDITOR_LINK)
    for name, keep in (("preferences.md", True), ("environment.md", True), ("tools/git.md", False)):
        node = support.node(window, f"file:/memories/global/{name}")
        assert node is not None
        link.open_node(node, keep=keep)
        path = f"/memories/global/{name}"
        wait_for(qtbot, lambda p=path: (ref := editor.current_ref) is not None and ref.key == p)
    editor.close_tab(editor.tabs[-1])
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)  # the closed tab
    trust.find_now()
    wait_for(qtbot, lambda: not trust.busy)
    for tab in list(editor.tabs):
        editor.close_tab(tab)
    wait_for(qtbot, trust.room.isVisible)
    assert trust.room.headline.text().endswith("to look at")


def test_the_demo_s_room_leads_with_what_the_demo_was_given_to_show(
    qtbot: QtBot, make_window: WindowFactory, demo: Home
) -> None:
    """Issue 81 point 8: the demo's room led with "The project /home/dev/src/acme-api is not
    on this disk" (twice): its projects are checkouts in the demo home, and what the check
    finds there is what the demo means to show — a path moved and a script gone from
    dev-setup.md, the port two memories disagree on, a Gemini CLI note never pointed to."""
    _window, trust = looked_at(qtbot, make_window, demo)

    def stale() -> RoomSection | None:
        return next((s for s in trust.room.sections if s.key == "stale" and s.known), None)

    wait_for(qtbot, lambda: (section := stale()) is not None and section.count > 0)
    section = stale()
    assert section is not None
    assert [item.text.split(" — ")[0] for item in section.items] == [
        "dev-setup.md:6",
        "dev-setup.md:7",
        "reference_local-services.md:9",
        "review-checklist.md",
    ]
    assert section.count == 4 and section.more == ""
    assert not any("not on this disk" in row for row in room_rows(trust))
