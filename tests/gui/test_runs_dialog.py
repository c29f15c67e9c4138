"""RunsDialog and collect_runs: what the consolidator did, run by run and op by op."""

from __future__ import annotations

import pytest
from pytestqt.qtbot import QtBot

from memtab.fs.clock import now_ms
from memtab.gui.memory_tab.runs_dialog import (
    RunEntry,
    RunsDialog,
    collect_runs,
    op_state,
    op_target,
    usage_line,
)
from memtab.store.journal import ConsolidationRecord, ConsolidationStatus, JournalOp

HOUR = 3_600_000
NOW = now_ms()

APPLIED = JournalOp("str_replace", "/memories/workspace/notes.md", True)
REJECTED = JournalOp(
    "delete", "/memories/project/architecture.md", False, note="pinned files may not be deleted"
)
PROPOSED = JournalOp("create", "/memories/global/git.md", False, note="dry-run")
RENAMED = JournalOp("rename", "/memories/workspace/a.md", True, new_path="/memories/workspace/b.md")

MAIN_RUN = ConsolidationRecord(
    NOW - 3 * HOUR, "manual", "Merged notes.", (APPLIED, REJECTED), 18240, 1312
)
OTHER_RUN = ConsolidationRecord(NOW - HOUR, "launch", "Promoted git habits.", (RENAMED,))
DRY_RUN = ConsolidationRecord(NOW - 30 * HOUR, "manual", "Would add git notes.", (PROPOSED,))
EMPTY_RUN = ConsolidationRecord(NOW - 50 * HOUR, "launch", "no changes needed", ())


def status(
    workspace: ConsolidationRecord | None = MAIN_RUN,
    project: ConsolidationRecord | None = MAIN_RUN,
    global_record: ConsolidationRecord | None = OTHER_RUN,
) -> ConsolidationStatus:
    return ConsolidationStatus(workspace, project, global_record, project is not None, None)


def test_collect_runs_merges_the_same_run_seen_from_several_scopes() -> None:
    runs = collect_runs(status())
    assert runs == [
        RunEntry(OTHER_RUN, ("Global",)),
        RunEntry(MAIN_RUN, ("Workspace", "Project")),
    ]


def test_collect_runs_adds_recent_runs_newest_first() -> None:
    runs = collect_runs(status(global_record=MAIN_RUN), [DRY_RUN, ("Archive of x", EMPTY_RUN)])
    assert [run.record for run in runs] == [MAIN_RUN, DRY_RUN, EMPTY_RUN]
    assert runs[0].labels == ("Workspace", "Project", "Global")
    assert runs[1].labels == ("Earlier run",)
    assert runs[2].labels == ("Archive of x",)


def test_collect_runs_of_nothing() -> None:
    assert collect_runs(None) == []
    assert collect_runs(status(None, None, None)) == []


def test_op_states_and_targets() -> None:
    assert op_state(APPLIED) == "Applied"
    assert op_state(REJECTED) == "Rejected"
    assert op_state(PROPOSED) == "Proposed (dry run)"
    assert op_target(RENAMED) == "/memories/workspace/a.md → /memories/workspace/b.md"
    assert usage_line(MAIN_RUN) == "18,240 input · 1,312 output tokens"
    assert usage_line(OTHER_RUN) == ""


@pytest.fixture
def dialog(qtbot: QtBot) -> RunsDialog:
    widget = RunsDialog()
    qtbot.addWidget(widget)
    return widget


def ops_rows(dialog: RunsDialog) -> list[tuple[str, str, str, list[str]]]:
    rows = []
    for index in range(dialog.ops.topLevelItemCount()):
        item = dialog.ops.topLevelItem(index)
        assert item is not None
        notes = [item.child(c).text(0) for c in range(item.childCount())]
        rows.append((item.text(0), item.text(1), item.text(2), notes))
    return rows


def test_dialog_shows_each_run_with_its_ops_states_and_notes(
    dialog: RunsDialog, qtbot: QtBot, qtmodeltester: object
) -> None:
    dialog.set_runs(collect_runs(status(), [DRY_RUN]), "fix-token-refresh")
    assert dialog.windowTitle() == "Consolidation runs — fix-token-refresh"
    assert dialog.accessibleName() == "Consolidation runs"
    assert dialog.run_list.accessibleName() == "Runs"
    assert dialog.ops.accessibleName() == "Operations"
    assert dialog.run_list.count() == 3
    first = dialog.run_list.item(0)
    assert first is not None
    assert first.text() == "1 h ago · launch · 1 change\nGlobal"
    assert dialog.run_list.currentRow() == 0
    assert dialog.summary.text() == "Promoted git habits."
    assert ops_rows(dialog) == [
        ("Applied", "rename", "/memories/workspace/a.md → /memories/workspace/b.md", [])
    ]

    dialog.run_list.setCurrentRow(1)
    assert dialog.summary.text() == "Merged notes."
    assert ops_rows(dialog) == [
        ("Applied", "str_replace", "/memories/workspace/notes.md", []),
        (
            "Rejected",
            "delete",
            "/memories/project/architecture.md",
            ["↳ pinned files may not be deleted"],
        ),
    ]
    assert "18,240 input · 1,312 output tokens" in dialog._meta.text()
    assert "1 change applied" in dialog._meta.text()

    dialog.run_list.setCurrentRow(2)
    assert ops_rows(dialog) == [("Proposed (dry run)", "create", "/memories/global/git.md", [])]

    qtmodeltester.check(dialog.run_list.model())  # type: ignore[attr-defined]
    qtmodeltester.check(dialog.ops.model())  # type: ignore[attr-defined]


def test_dialog_keeps_the_selected_run_when_refreshed(dialog: RunsDialog) -> None:
    dialog.set_runs(collect_runs(status()))
    dialog.run_list.setCurrentRow(1)
    newer = ConsolidationRecord(NOW, "manual", "Newest.", ())
    dialog.set_runs(collect_runs(status(), [newer]))
    assert dialog.runs[dialog.run_list.currentRow()].record == MAIN_RUN


def test_dialog_says_when_a_run_changed_nothing(dialog: RunsDialog) -> None:
    dialog.set_runs([RunEntry(EMPTY_RUN, ("Workspace",))])
    assert dialog.summary.text() == "no changes needed"
    assert dialog.ops.topLevelItemCount() == 0
    assert not dialog.ops.isVisibleTo(dialog)


def test_dialog_empty_state(dialog: RunsDialog) -> None:
    dialog.set_runs([])
    assert dialog.run_list.count() == 0
    assert not dialog.run_list.isVisibleTo(dialog)
