"""The consolidation footer's words without Qt: each scope's line (a multi-project
workspace's project unavailable), the last harvest's line and its error, the header's
word, and each run summary once after the scopes it was the last run of."""

from __future__ import annotations

from memtab.components.consolidation.consolidation import (
    PROJECT_UNAVAILABLE,
    harvest_line,
    header_summary,
    scope_lines,
    summaries_tooltip,
)
from memtab.fs.clock import now_ms
from memtab.store.sidecars.journal import (
    ConsolidationRecord,
    ConsolidationStatus,
    HarvestRecord,
    JournalOp,
)

HOUR = 3_600_000


def _record(summary: str, applied: int = 1) -> ConsolidationRecord:
    ops = tuple(
        JournalOp(command="str_replace", path=f"/memories/workspace/n{i}.md", applied=True)
        for i in range(applied)
    )
    return ConsolidationRecord(
        last_run_at=now_ms() - 3 * HOUR, trigger="manual", summary=summary, ops=ops
    )


def _status(**fields: object) -> ConsolidationStatus:
    values: dict[str, object] = {
        "workspace_record": None,
        "project_record": None,
        "global_record": None,
        "project_available": True,
        "latest_harvest": None,
    }
    values.update(fields)
    return ConsolidationStatus(**values)  # type: ignore[arg-type]


def test_each_run_summary_is_said_once_after_its_scopes() -> None:
    merged = _record("Merged the testing notes.")
    status = _status(workspace_record=merged, project_record=merged, global_record=_record(" "))
    assert summaries_tooltip(status) == "Workspace, Project: Merged the testing notes."
    assert summaries_tooltip(_status()) == "No consolidation runs yet."
    assert summaries_tooltip(None) == ""
    assert header_summary(status) == "ran 3 h ago"
    assert header_summary(_status()) == "never run"


def test_a_multi_project_workspace_has_no_project_line() -> None:
    lines = scope_lines(_status(project_available=False, workspace_record=_record("x", 2)))
    assert lines["Project"].text == PROJECT_UNAVAILABLE and lines["Project"].muted
    assert not lines["Workspace"].muted and lines["Workspace"].tooltip
    assert lines["Global"].tooltip == ""  # never run: no time to show


def test_the_last_harvest_says_its_error_only_when_it_failed() -> None:
    assert harvest_line(None) is None and harvest_line(_status()) is None

    def harvest(status: str, error: str | None) -> HarvestRecord:
        return HarvestRecord(
            summary_message_id="msg-1",
            status=status,
            completed_at=now_ms() - HOUR,
            attempt_count=2,
            error=error,
        )

    failed = harvest_line(_status(latest_harvest=harvest("failed", "model down")))
    assert failed is not None and failed.error == "model down"
    assert failed.tooltip.startswith("mux harvest of summary msg-1, attempt 2; ")
    done = harvest_line(_status(latest_harvest=harvest("completed", "stale")))
    assert done is not None and done.error is None
