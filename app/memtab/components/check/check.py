"""The check in the window, without Qt (`gui/check/` keeps the timer, jobs, dock and list):
which batches check again, the status line, what the selection allows, `PanelState` for a
panel built late, what findings say on rows, lines and the panel (docs/formats.md §19.2)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from memtab.check.records import CheckReport, Finding
from memtab.components.activity.change_batch import ChangeBatch
from memtab.components.tree.marks import MarkTone, RowMark
from memtab.components.tree.nodes import ref_key
from memtab.file_protocol.file_ref import MemoryFileRef, SourceError, parse_file_ref
from memtab.humanize import display_paths_in, plural
from memtab.store.home import MEMTAB_KINDS, PathKind
from memtab.store.paths import PathError, VirtualPath

KIND_WORDS: dict[str, str] = {
    "missing-path": "Path not found",
    "missing-script": "Script not defined",
    "missing-program": "Program not installed",
    "broken-link": "Broken link",
    "disagreement": "Memories disagree",
    "code-disagrees": "The code says otherwise",
    "stale": "Stale",
    "project-missing": "Project not on this disk",
    "codex-summary-version": "Codex summary without v1",
    "no-description": "Cannot be recalled well",
    "hidden-text": "Hidden text",
    "not-in-index": "Never found by Gemini CLI",
}
"""A finding's kind in the panel's words (docs/formats.md §19.3)."""


def finding_ref(finding: Finding) -> MemoryFileRef | None:
    """The memory file a finding is in (None: a project, not a file)."""
    try:
        return parse_file_ref(finding.path)
    except (PathError, SourceError):
        return None


def shown_in(
    findings: Iterable[Finding], workspace_id: str | None, project_path: str | None
) -> list[Finding]:
    """The findings in files the tree shows for a workspace: another agent's (its file id
    names one file), the global scope's, the workspace's project's and its own."""
    return [
        finding
        for finding in findings
        if finding.agent != "mux"
        or (
            finding.workspace in (None, workspace_id)
            and (finding.scope != "project" or finding.project == project_path)
        )
    ]


ROW_MARK_DETAIL = "The check found lines to look at: open the file to see them (View → Check)"


def row_marks(findings: Iterable[Finding]) -> dict[str, RowMark]:
    """The mark of each file row with findings ("2 to check"), by row key."""
    refs = (finding_ref(finding) for finding in findings)
    counts = Counter(ref_key(ref) for ref in refs if ref is not None)
    return {
        key: RowMark(f"{count} to check", MarkTone.CHECK, ROW_MARK_DETAIL)
        for key, count in counts.items()
    }


def line_notes(findings: Iterable[Finding], ref: MemoryFileRef) -> dict[int, list[str]]:
    """The open file's findings by line (0-based), each in one line of words."""
    notes: dict[int, list[str]] = {}
    for finding in findings:
        if finding.line is not None and finding_ref(finding) == ref:
            notes.setdefault(finding.line - 1, []).append(finding.message)
    return notes


@dataclass(frozen=True)
class PanelRow:
    """One row of the Check panel."""

    file: str
    name: str  # The file's name — or the project's, for a finding about a project.
    line: str
    kind: str
    message: str
    why: str
    fix: str  # The obvious fix in words, "" when there is none.
    fixable: bool  # Whether the fix can be a plan op (a mux file's line).


def panel_row(finding: Finding) -> PanelRow:
    """What the panel shows of `finding` — a path under the user's home from `~`, as the
    window shows every path (the status bar, What each agent recalls)."""
    fix = finding.fix
    about_project = finding.kind == "project-missing" and finding.project
    shown = finding.project if about_project else finding.path
    ref = None if about_project else finding_ref(finding)
    # Another agent's file by its name, not its file id ("gemini:memory-…:x.md").
    name = ref.name if ref is not None else (shown or finding.path).rstrip("/").rsplit("/", 1)[-1]
    return PanelRow(
        file=finding.path,
        name=name,
        line=str(finding.line) if finding.line is not None else "",
        kind=KIND_WORDS.get(finding.kind, finding.kind),
        message=display_paths_in(finding.message),
        why=display_paths_in(finding.why),
        fix=display_paths_in(fix.description) if fix is not None else "",
        fixable=fix is not None and fix.plannable and finding.agent == "mux",
    )


def summary(count: int, files_checked: int, problems: int) -> str:
    """The panel's status line after a check."""
    found = plural(count, "finding") if count else "Nothing to check"
    text = f"{found} · {plural(files_checked, 'memory file')} checked"
    return f"{text} · {plural(problems, 'part')} not read" if problems else text


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
    """The Check panel's status line and last findings, kept until the panel is built."""

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
    return SelectionView(len(rows) == 1, any(row.fixable for row in rows), why)


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
