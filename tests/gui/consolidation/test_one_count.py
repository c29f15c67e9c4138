"""One count for one run (docs/formats.md §9.6): the review's button and Apply, the footer
and Runs… — and `memtab runs --json` — say how many files the run changed, the same
number. They counted three things: the review its rows, the footer each scope's ops,
Runs… the ops applied of those attempted."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.consolidation_support import tick
from gui.memory_tree_support import WindowFactory
from memtab.cli.main import main
from memtab.demo import MAIN_ID, create_demo_home
from memtab.gui.window import keys
from memtab.store.history.runs import RunsLog

pytestmark = pytest.mark.no_background_runs  # no writer, no check at start: none is tested here

make_window = support.make_window
_FILES = re.compile(r"(\d+) files? changed|changes to (\d+) files?|(no) file changed")


def count_in(text: str) -> int:
    found = _FILES.search(text)
    assert found is not None, text
    return 0 if found.group(3) else int(found.group(1) or found.group(2))


@pytest.mark.slow
def test_one_run_counts_the_same_on_the_review_the_footer_runs_and_the_cli(
    qtbot: QtBot, make_window: WindowFactory, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    demo = create_demo_home(tmp_path / "demo")
    window = make_window(demo, MAIN_ID)
    support.wait_watching(qtbot, window)
    footer = window.memory_tab.controller.footer
    footer.consolidate_button.click()  # type: ignore[attr-defined]
    qtbot.waitUntil(lambda: footer.review_dialog is not None, timeout=20_000)  # type: ignore[attr-defined]
    review = footer.review_dialog  # type: ignore[attr-defined]
    plan = review.plan
    assert len(plan.units) >= 2 and any(len(unit.indexes) > 1 for unit in plan.units)
    proposed_files = count_in(footer.status_text.full_text)  # type: ignore[attr-defined]
    assert footer.status_text.full_text.startswith("Review changes to ")  # type: ignore[attr-defined]
    assert count_in(review.apply_button.text()) == proposed_files
    # The user leaves one change out: every count is of the files the rest change.
    tick(qtbot, review, plan.units[0].indexes[0], False)
    accepted_files = count_in(review.apply_button.text())
    assert 0 < accepted_files < proposed_files
    review.apply_button.click()
    assert count_in(footer.progress_text.full_text) == accepted_files  # type: ignore[attr-defined]
    lines = ("Workspace", "Project", "Global")
    qtbot.waitUntil(
        lambda: all(footer.line_text(key).startswith("just now") for key in lines),  # type: ignore[attr-defined]
        timeout=20_000,
    )
    assert sum(count_in(footer.line_text(key)) for key in lines) == accepted_files  # type: ignore[attr-defined]

    (run, *_) = RunsLog(demo).runs(workspace_id=MAIN_ID)
    assert run.plan_id == plan.id
    runs = window.part(keys.HISTORY).open_runs()
    qtbot.waitUntil(lambda: bool(runs.runs) and runs.run_list.topLevelItem(0) is not None)
    row = runs.run_list.topLevelItem(0)
    assert runs.runs[0].id == run.id and row is not None
    assert count_in(row.text(2)) == accepted_files
    runs.close()

    capsys.readouterr()
    assert main(["--home", str(demo.root), "runs", "--workspace", MAIN_ID, "--json"]) == 0
    newest = json.loads(capsys.readouterr().out)["runs"][0]
    assert newest["id"] == run.id and newest["filesChanged"] == accepted_files
