"""How recently each scope was consolidated, in the footer's words (no Qt): each scope's
line (`Workspace:`, `Project:` or `unavailable`, `Global:`), the last harvest's line and
error, the header's short summary, and the runs' summaries each once.

The footer shows what it is given (`gui/consolidation/footer.py`, `footer_lines.py`) and
never reads disk (docs/formats.md §9.6).
"""

from __future__ import annotations

from dataclasses import dataclass

from memtab import humanize
from memtab.components import glossary
from memtab.store.paths import Scope
from memtab.store.sidecars.journal import ConsolidationRecord, ConsolidationStatus

LINE_KEYS = ("Workspace", "Project", "Global", "Session", "Harvest")
NO_WORKSPACE = "no workspace selected"
WAITING = "…"
PROJECT_UNAVAILABLE = "unavailable"
PROJECT_UNAVAILABLE_TIP = "Multi-project workspaces have no project identity, so no project memory."


@dataclass(frozen=True)
class Line:
    """A scope's line: its text, its tooltip, and whether it is muted (not a run's)."""

    text: str
    tooltip: str = ""
    muted: bool = False


@dataclass(frozen=True)
class HarvestLine:
    """The last harvest's line, its tooltip, and its error (None: it did not fail)."""

    text: str
    tooltip: str
    error: str | None


def _record_line(record: ConsolidationRecord | None, scope: Scope) -> Line:
    return Line(
        humanize.coverage_text(record, scope),
        humanize.absolute_time(record.last_run_at) if record is not None else "",
    )


def scope_lines(status: ConsolidationStatus) -> dict[str, Line]:
    """Each scope's last run: `Workspace`, `Project` (unavailable for a multi-project
    workspace), `Global`."""
    project = (
        _record_line(status.project_record, Scope.PROJECT)
        if status.project_available
        else Line(PROJECT_UNAVAILABLE, PROJECT_UNAVAILABLE_TIP, muted=True)
    )
    return {
        "Workspace": _record_line(status.workspace_record, Scope.WORKSPACE),
        "Project": project,
        "Global": _record_line(status.global_record, Scope.GLOBAL),
    }


def harvest_line(status: ConsolidationStatus | None) -> HarvestLine | None:
    """The last harvest mux wrote (None: none)."""
    harvest = status.latest_harvest if status is not None else None
    if harvest is None:
        return None
    failed = harvest.status == "failed"
    return HarvestLine(
        humanize.harvest_text(harvest),
        f"mux harvest of summary {harvest.summary_message_id}, "
        f"attempt {harvest.attempt_count}; {humanize.absolute_time(harvest.sort_time or None)}"
        f"\n{glossary.HARVEST}",
        harvest.error if failed else None,
    )


def summaries_tooltip(status: ConsolidationStatus | None) -> str:
    """Each distinct run summary once, after the scopes whose last run it was."""
    if status is None:
        return ""
    scopes_of: dict[str, list[str]] = {}
    for label, record in (
        ("Workspace", status.workspace_record),
        ("Project", status.project_record),
        ("Global", status.global_record),
    ):
        if record is None or not record.summary.strip():
            continue
        scopes_of.setdefault(record.summary.strip(), []).append(label)
    if not scopes_of:
        return "No consolidation runs yet."
    return "\n".join(f"{', '.join(scopes)}: {summary}" for summary, scopes in scopes_of.items())


def header_summary(status: ConsolidationStatus) -> str:
    """The collapsed footer's word on the workspace's last run."""
    record = status.workspace_record
    return f"ran {humanize.relative_time(record.last_run_at)}" if record else "never run"
