"""Edit → Undo takes back the last thing done, a consolidation run included (issue 81 point
4): right after Consolidate now, Ctrl+Z reverts the run (as Runs… → Revert does), not the
Trust move made before it; Redo makes the run's changes again, and the next Undo takes
back the move."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.memory_tree_support import WindowFactory, action, refresh_menus, wait_for, wait_for_look
from memtab.consolidation.review.review_setting import save_review_mode
from memtab.demo import MAIN_ID, webapp
from memtab.gui.window import keys
from memtab.store.history.runs import RunsLog
from memtab.store.home import Home
from support.demo_homes import copied_demo_home

make_window = support.make_window

LEAK = "/memories/global/frontend-build.md"


def memory_texts(home: Home) -> dict[str, str]:
    """Every memory file of the home's scopes, by path, with its text (a file removed
    between the listing and its read, as a redo in progress removes one, is left out)."""
    texts = {}
    for path in home.global_root.parent.rglob("*.md"):
        try:
            texts[str(path)] = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            continue
    return texts


@pytest.mark.slow  # slow: a consolidation run in a child process, reverted and made again
def test_undo_right_after_consolidate_now_takes_back_the_run(
    qtbot: QtBot, make_window: WindowFactory, tmp_path: Path
) -> None:
    demo = copied_demo_home(tmp_path / "demo")
    window = make_window(demo, MAIN_ID, start_writer=False)  # no other change meanwhile
    window.show()
    trust = window.part(keys.TRUST)
    trust.find_now()
    wait_for_look(qtbot, trust)
    # A Trust move first: the leak to the webapp's memory.
    [leak] = [x for x in trust.report.leaks if x.place.path == LEAK]  # type: ignore[union-attr]
    trust.panel.move_requested.emit(leak)
    wait_for(qtbot, lambda: trust.review is not None and trust.review.isVisible())
    trust.review.accept_button.click()  # type: ignore[union-attr]  # the move reviewed
    arrived = demo.project_root(webapp(demo)) / "frontend-build.md"
    wait_for(qtbot, arrived.exists)
    wait_for(qtbot, lambda: not trust.busy)
    before_run = memory_texts(demo)
    # Then Consolidate now, applied at once.
    save_review_mode("apply-directly")
    consolidation = window.part(keys.CONSOLIDATION)
    with qtbot.waitSignal(consolidation.run_finished, timeout=60_000):
        window.part(keys.FOOTER).consolidate_button.click()
    after_run = memory_texts(demo)
    assert after_run != before_run
    run = RunsLog(demo).runs(kind="consolidation")[0]
    refresh_menus(qtbot, window)
    assert action(window, "files.undo").text() == "&Undo consolidation run"
    assert action(window, "files.undo").statusTip() == "consolidation run"  # its hover line

    action(window, "files.undo").trigger()  # Ctrl+Z
    wait_for(qtbot, lambda: RunsLog(demo).runs(kind="revert"))  # logged once it is done
    [revert] = RunsLog(demo).runs(kind="revert")
    assert revert.reverts == run.id  # as Runs… → Revert records it
    assert memory_texts(demo) == before_run
    assert arrived.exists()  # the move stays

    refresh_menus(qtbot, window)
    action(window, "files.redo").trigger()
    wait_for(qtbot, lambda: memory_texts(demo) == after_run)
    refresh_menus(qtbot, window)
    action(window, "files.undo").trigger()
    wait_for(qtbot, lambda: memory_texts(demo) == before_run)
    refresh_menus(qtbot, window)
    action(window, "files.undo").trigger()  # now the move
    left = demo.global_root / "frontend-build.md"
    wait_for(qtbot, lambda: left.exists() and not arrived.exists())
