"""What the check's findings say in the window: on tree rows, on the open file's lines, and as
the panel's rows (docs/formats.md §19.2). A finding's file is named as the CLI names it, also
its tree row's key; a whole-project or whole-file finding has no line."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from memtab.check.records import Finding
from memtab.components.tree.marks import MarkTone, RowMark
from memtab.components.tree.nodes import ref_key
from memtab.file_protocol.file_ref import MemoryFileRef, SourceError, parse_file_ref
from memtab.humanize import display_paths_in, plural
from memtab.store.paths import PathError

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
    counts: dict[str, int] = {}
    for finding in findings:
        ref = finding_ref(finding)
        if ref is not None:
            key = ref_key(ref)
            counts[key] = counts.get(key, 0) + 1
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
    name: str
    """The file's name — or the project's, for a finding about a project."""
    line: str
    kind: str
    message: str
    why: str
    fix: str
    """The obvious fix in words, "" when there is none."""
    fixable: bool
    """Whether the fix can be a plan op (a mux file's line)."""


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
