"""The check in the window without Qt (`gui/check/` keeps the timer, jobs, dock and list):
which watcher batches check again (memory, the registry, a checkout, another agent's memory),
the status line, what the selection allows, where Open leads, and `PanelState`, kept here so
a panel built late shows at once what the checks until then said."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from memtab.check.records import CheckReport, Finding
from memtab.components.activity.change_batch import ChangeBatch
from memtab.components.check.marks import finding_ref, panel_row, summary
from memtab.store.home import MEMTAB_KINDS, PathKind
from memtab.store.paths import VirtualPath

# Not `WORKSPACE_DIR`: a workspace's folder (or `sessions/`) holds its memory, and one
# moved away or back is named alone in a watcher's batch — its files going or coming.
NOT_CHECKED_KINDS = MEMTAB_KINDS | {
    PathKind.CHAT_TRANSCRIPT,
    PathKind.WRITER_STATE,
    PathKind.WRITER_TRACES,
    PathKind.MEMORY_META,
    PathKind.CONSOLIDATION_JOURNAL,
    PathKind.EXTENSION_METADATA,
}
"""Paths whose changes change nothing the check reads (Memtab's own files among them)."""
NO_WORKSPACE = "Fixes change a workspace's memory: none is shown"
MAKING_FIXES = "Making the fixes' plan…"
FIX_TIP = "Review the selected findings' fixes as a plan, like Consolidate now's"
NOT_CHECKED_YET = "Not checked yet."


@dataclass
class PanelState:
    """What the Check panel shows: its status line and the last report's findings (kept
    while the panel is not built; it is filled from them when it is)."""

    status: str = NOT_CHECKED_YET
    findings: tuple[Finding, ...] = ()


def rechecks(batch: ChangeBatch) -> bool:
    """Whether `batch` may change what the check finds."""
    return not batch.kinds <= NOT_CHECKED_KINDS


def report_status(report: CheckReport) -> str:
    """The panel's status line after `report`: what it found, and what it could not read."""
    status = summary(len(report.findings), report.files_checked, len(report.problems))
    if report.problems:
        status += "\n" + "\n".join(f"Not checked: {p}" for p in report.problems)
    return status


def not_checked(message: str) -> str:
    """The status line when the check failed."""
    return f"Could not check: {message}"


def fixes_ready(later: int) -> str:
    """The status bar when a plan of fixes is ready to review (`later`: fixes left out)."""
    return f"Review the fixes ({later} more after these)" if later else "Review the fixes"


def finding_tip(finding: Finding) -> str:
    """A finding row's tooltip: its file, message, why and fix."""
    row = panel_row(finding)
    tip = f"{row.file}\n{row.message}\nWhy: {row.why}"
    return tip + (f"\nFix: {row.fix}" if row.fix else "")


def finding_key(finding: Finding) -> tuple[str, int | None, str, str]:
    """What keeps a finding selected when the list is read again."""
    return finding.path, finding.line, finding.kind, finding.subject


@dataclass(frozen=True)
class SelectionView:
    """What the panel allows and says for the findings selected."""

    open_enabled: bool
    fix_enabled: bool
    why: str


def selection_view(chosen: Sequence[Finding]) -> SelectionView:
    """The buttons and the why box for `chosen`."""
    rows = [panel_row(f) for f in chosen]
    why = ""
    if len(rows) == 1:
        row = rows[0]
        fix = f"\nFix: {row.fix}" if row.fix else ""
        hand = "" if row.fixable or not row.fix else " (by hand or by its agent)"
        why = f"Why: {row.why}{fix}{hand}"
    return SelectionView(
        open_enabled=len(rows) == 1, fix_enabled=any(row.fixable for row in rows), why=why
    )


def fixable(chosen: Sequence[Finding]) -> tuple[Finding, ...]:
    """The findings of `chosen` whose fix a plan can make."""
    return tuple(f for f in chosen if panel_row(f).fixable)


@dataclass(frozen=True)
class FindingPlace:
    """Where Open leads: a file of a workspace at lines, or only words (`path` None)."""

    path: VirtualPath | None
    workspace_id: str | None = None
    lines: tuple[int, ...] = ()
    words: str = ""


def finding_place(finding: Finding, shown_workspace_id: str | None) -> FindingPlace:
    """Where opening `finding` leads, the workspace shown being `shown_workspace_id`."""
    ref = finding_ref(finding)
    path = ref.virtual_path if ref is not None else None
    if path is None:  # a project, or another agent's file: the tree shows where
        return FindingPlace(None, words=f"{finding.message} ({finding.project or finding.path})")
    lines = (finding.line - 1,) if finding.line is not None else ()  # blocks count from 0
    return FindingPlace(path, finding.workspace or shown_workspace_id, lines)
