"""RunsDialog on its own: every run from the log, newest first, each op with its state,
a failed run's error, mux's runs (not revertible, and why), the empty states."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from memtab.components.history.runs import OpState, usage_line
from memtab.fs.clock import now_ms
from memtab.gui.history.runs_dialog import EMPTY_TEXT, RunsDialog
from memtab.gui.tasks.jobs import JobService
from memtab.store.history.records import RunEntry, RunOp, TokenUsage
from memtab.store.history.runs import MUX_SOURCE, RunsLog
from memtab.store.home import Home

HOUR = 3_600_000
NOW = now_ms()
WS = "a1a1a1a1a1"

APPLIED = RunOp(command="str_replace", path="/memories/workspace/notes.md", applied=True)
REJECTED = RunOp(
    command="delete",
    path="/memories/project/a.md",
    applied=False,
    note="pinned files may not be deleted",
)
PROPOSED = RunOp(command="create", path="/memories/global/git.md", applied=False, note="dry-run")


def run(
    run_id: str, hours_ago: float, *ops: RunOp, kind: str = "consolidation", **fields: object
) -> RunEntry:
    defaults: dict[str, object] = {
        "trigger": "manual",
        "workspace_id": WS,
        "summary": f"summary of {run_id}",
    }
    defaults.update(fields)
    at = int(NOW - hours_ago * HOUR)
    return RunEntry.read_or_raise({"id": run_id, "at": at, "kind": kind, "ops": ops, **defaults})


@pytest.fixture
def home(tmp_path: Path) -> Home:
    return Home(tmp_path / "home")


@pytest.fixture
def dialog(qtbot: QtBot, home: Home, jobs: JobService) -> Iterator[RunsDialog]:
    widget = RunsDialog(home, jobs)
    qtbot.addWidget(widget)
    widget.set_workspaces([(WS, "fix-token-refresh")], None)
    yield widget
    widget.shutdown()


def show(qtbot: QtBot, dialog: RunsDialog) -> None:
    with qtbot.waitSignal(dialog.loaded, timeout=5000):
        dialog.reload()
    qtbot.waitUntil(lambda: not dialog.busy, timeout=5000)


def op_rows(dialog: RunsDialog) -> list[tuple[str, str]]:
    rows = []
    for index in range(dialog.ops.topLevelItemCount()):
        item = dialog.ops.topLevelItem(index)
        assert item is not None
        rows.append((item.text(0), item.text(1)))
    return rows


def test_every_run_newest_first_with_its_ops(
    qtbot: QtBot, dialog: RunsDialog, home: Home, qtmodeltester: object
) -> None:
    log = RunsLog(home)
    log.append(run("run-old", 30, PROPOSED, summary="Would add git notes."))
    log.append(run("run-main", 3, APPLIED, REJECTED, usage=TokenUsage.of(18240, 1312)))
    log.append(run("run-writer", 1, APPLIED, kind="writer", trigger="msg-7"))
    show(qtbot, dialog)
    assert [r.id for r in dialog.runs] == ["run-writer", "run-main", "run-old"]
    first = dialog.run_list.topLevelItem(0)
    assert first is not None and first.text(1) == "Memory writer"
    assert (first.text(2), first.text(3)) == ("1 file changed", "fix-token-refresh")
    assert dialog.select_run("run-main")
    qtbot.waitUntil(lambda: dialog.detail is not None and dialog.detail.run.id == "run-main")
    assert op_rows(dialog) == [
        (OpState.APPLIED.value, "Edited notes.md"),
        (OpState.REJECTED.value, "Not applied — delete a.md: pinned files may not be deleted"),
    ]
    assert "18,240 input · 1,312 output tokens" in dialog._meta.text()
    dialog.select_op(1)
    assert "not applied" in dialog.diff.text
    assert dialog.select_run("run-old")
    qtbot.waitUntil(lambda: dialog.detail is not None and dialog.detail.run.id == "run-old")
    assert op_rows(dialog)[0][0] == OpState.PROPOSED.value


def test_a_failed_run_and_a_mux_run(qtbot: QtBot, dialog: RunsDialog, home: Home) -> None:
    log = RunsLog(home)
    log.append(run("run-mux", 2, APPLIED, source=MUX_SOURCE, trigger="launch"))
    log.append(run("run-failed", 1, status="failed", error="anthropic: 529 overloaded"))
    show(qtbot, dialog)
    qtbot.waitUntil(lambda: dialog.detail is not None)
    assert dialog.detail is not None and dialog.detail.run.id == "run-failed"
    assert "Failed: anthropic: 529 overloaded" in dialog.summary.text()
    assert "this run changed no file" in dialog.revert_button.toolTip()
    assert not dialog.revert_button.isEnabled()
    assert dialog.select_run("run-mux")
    qtbot.waitUntil(lambda: dialog.detail is not None and dialog.detail.run.id == "run-mux")
    assert dialog.run_list.currentItem().text(1) == "Consolidation by mux · launch"  # type: ignore[union-attr]
    assert "from mux's journal" in dialog._meta.text()
    assert not dialog.revert_button.isEnabled()
    assert "mux made this run" in dialog.revert_button.toolTip()
    dialog.failed_only.setChecked(True)
    qtbot.waitUntil(lambda: [r.id for r in dialog.runs] == ["run-failed"], timeout=5000)


def test_empty_states(qtbot: QtBot, dialog: RunsDialog, home: Home) -> None:
    show(qtbot, dialog)
    assert dialog.runs == [] and dialog._empty.text() == EMPTY_TEXT
    RunsLog(home).append(run("run-x", 1, APPLIED))
    dialog.trigger_filter.setCurrentIndex(dialog.trigger_filter.findData("launch"))
    qtbot.waitUntil(lambda: not dialog.busy, timeout=5000)
    assert dialog._empty.text() == "No runs match these filters."


def test_usage_line() -> None:
    assert usage_line(run("r", 1)) == ""
    assert usage_line(run("r", 1, usage=TokenUsage.of(5, None))) == "5 input · 0 output tokens"


def test_a_writer_run_that_suggested_says_so(qtbot: QtBot, dialog: RunsDialog, home: Home) -> None:
    log = RunsLog(home)
    log.append(run("run-quiet", 2, kind="writer", summary="No new memories"))
    log.append(run("run-suggested", 1, kind="writer", summary="Suggested 5 memories for review"))
    show(qtbot, dialog)
    rows = [dialog.run_list.topLevelItem(i) for i in range(2)]
    assert [row.text(2) for row in rows if row is not None] == [
        "suggested 5 memories for review",
        "no new memories",
    ]
    qtbot.waitUntil(lambda: dialog.detail is not None)
    assert dialog.diff.text == "This run changed no file: it suggested 5 memories for review."


def test_reopened_it_selects_the_newest_run(qtbot: QtBot, dialog: RunsDialog, home: Home) -> None:
    log = RunsLog(home)
    log.append(run("run-old", 3, APPLIED))
    log.append(run("run-new", 2, APPLIED))
    show(qtbot, dialog)
    assert dialog.select_run("run-old")
    log.append(run("run-newest", 1, APPLIED))
    show(qtbot, dialog)  # a reload while it is open keeps the user's choice
    assert dialog.run_list.currentItem().data(0, Qt.ItemDataRole.UserRole) == "run-old"  # type: ignore[union-attr]
    with qtbot.waitSignal(dialog.loaded, timeout=5000):
        dialog.reload(newest=True)  # opened again
    assert dialog.run_list.currentItem().data(0, Qt.ItemDataRole.UserRole) == "run-newest"  # type: ignore[union-attr]


def test_a_run_no_longer_logged_is_said_over_the_run_shown_instead(
    qtbot: QtBot, dialog: RunsDialog, home: Home
) -> None:
    RunsLog(home).append(run("run-kept", 1, APPLIED))
    with qtbot.waitSignal(dialog.loaded, timeout=5000):
        dialog.show_run("run-pruned")
    qtbot.waitUntil(lambda: dialog.detail is not None, timeout=5000)
    assert dialog.detail is not None and dialog.detail.run.id == "run-kept"
    assert dialog.note.full_text == "The run run-pruned is no longer in the runs log"
    RunsLog(home).append(run("run-next", 0.5, APPLIED))
    show(qtbot, dialog)
    assert dialog.select_run("run-next")
    assert dialog.note.full_text == ""  # said of the run shown instead, not of the next
