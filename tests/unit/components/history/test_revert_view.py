"""What "Revert this run" says without Qt: the summary, a row for each file restored or left
alone (with why, in that order), and what the diff pane says before and after a file left
alone is selected."""

from __future__ import annotations

from memtab.components.history.diff import (
    ALL_BACK,
    LEFT_ALONE,
    RESTORED,
    SELECT_LEFT_ALONE,
    RevertRow,
    first_message,
    refusal_message,
    revert_rows,
    revert_summary,
)
from memtab.store.history.runs import RunEntry
from memtab.store.restore.from_history import Refusal, RevertResult

RUN = RunEntry(id="run-1", at=5, kind="consolidation")
CHANGED = Refusal(path="/memories/global/b.md", reason="changed after the run by you")


def result(restored: list[str], refused: list[Refusal]) -> RevertResult:
    return RevertResult(run=RUN, restored=restored, refused=refused)


def test_the_summary_counts_what_was_restored_and_left_alone() -> None:
    assert revert_summary(result(["/memories/global/a.md"], [])) == "Restored 1 file."
    both = revert_summary(result(["/memories/global/a.md"], [CHANGED]))
    assert both.startswith("Restored 1 file; left 1 file alone")
    assert revert_summary(result([], [CHANGED])).startswith("Left 1 file alone — select one")
    assert revert_summary(result([], [])).startswith("Nothing to revert")


def test_rows_say_restored_files_first_then_those_left_alone_with_why() -> None:
    rows = revert_rows(result(["/memories/global/a.md"], [CHANGED]))
    assert rows == [
        RevertRow(RESTORED, "a.md"),
        RevertRow(LEFT_ALONE, "b.md", CHANGED.reason, 0),
    ]


def test_the_pane_asks_for_a_file_left_alone_and_shows_its_diff_or_why() -> None:
    assert first_message(result([], [CHANGED])) == SELECT_LEFT_ALONE
    assert first_message(result(["/memories/global/a.md"], [])) == ALL_BACK
    assert refusal_message(CHANGED) == f"b.md: {CHANGED.reason}"
    with_diff = Refusal(path=CHANGED.path, reason=CHANGED.reason, diff="@@ -1 +1 @@\n-a\n+b\n")
    assert refusal_message(with_diff) is None
