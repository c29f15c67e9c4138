"""`memtab sweep --json`: the report's JSON, key by key and in order (docs/formats.md §9)."""

from __future__ import annotations

import json

from memtab.consolidation.sweep import SweepReport, SweepRun, SweepSkip
from memtab.store.sidecars.journal import ConsolidationRecord


def test_a_sweep_report_keeps_its_keys_in_order() -> None:
    record = ConsolidationRecord(last_run_at=3, trigger="launch", summary="s")
    report = SweepReport(
        runs=(
            SweepRun(workspace_id="w1", reason="stale", record=record),
            SweepRun(workspace_id="w2", reason="stale", error="it broke"),
        ),
        skipped=(SweepSkip(workspace_id="w3", kind="busy", reason="running"),),
    )
    assert json.dumps(report.to_json()) == (
        '{"runs": [{"workspaceId": "w1", "reason": "stale", "ok": true, '
        f'"record": {json.dumps(record.to_json())}}}, '
        '{"workspaceId": "w2", "reason": "stale", "ok": false, "error": "it broke"}], '
        '"skipped": [{"workspaceId": "w3", "kind": "busy", "reason": "running"}]}'
    )
    assert SweepReport().to_json() == {"runs": [], "skipped": []}
