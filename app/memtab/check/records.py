"""What a check finds, as records (docs/formats.md §19.2), defined once — the CLI prints
them (`memtab check --json`), the window shows them.

A `Finding` names the memory file (a virtual path, or another agent's file id), the line
(None: the whole file, or a project), its kind, what is wrong (`message`) and why Memtab
thinks so (`why`), and where the fix is obvious, the `fix`: the line as it should read.
A fix of a mux file becomes a plan op the user reviews (`check.fixes`).

They are records (`fs/records/__init__.py`), which the window builds on its check's worker and
keeps (every finding of the home); `CheckReport.to_json()` is what `--json` prints.
Fields are declared in the contract's order.
"""

from __future__ import annotations

from typing import Literal

from memtab.fs.records import Record

FindingKind = Literal[
    "missing-path",
    "missing-script",
    "missing-program",
    "broken-link",
    "disagreement",
    "code-disagrees",
    "stale",
    "project-missing",
    "codex-summary-version",
    "no-description",
    "hidden-text",
    "not-in-index",
]
FindingScope = Literal["global", "project", "workspace"]
Agent = Literal["mux", "claude-code", "codex", "loki", "gemini"]


class Place(Record, checked_when_built=False):
    """A line of a memory file (another memory a finding points at)."""

    path: str
    line: int | None = None
    text: str = ""
    workspace: str | None = None
    project: str | None = None


class Fix(Record, checked_when_built=False):
    """The obvious repair of a finding's line: `old_str` becomes `new_str` (the whole
    line, so a fix of one line never touches another). `plannable`: the file is mux's,
    so the fix can be a plan op (`memtab check --plan-out`); another agent's file is
    fixed by hand or by its agent."""

    description: str
    old_str: str
    new_str: str
    plannable: bool = False


class Finding(Record, checked_when_built=False):
    """One thing a memory says that is not true of the code (see the module doc)."""

    path: str
    line: int | None
    kind: FindingKind
    message: str
    why: str
    scope: FindingScope
    agent: Agent = "mux"
    subject: str = ""
    """What the finding is about: the path, script, program, link target, fact, or
    project named."""
    text: str = ""
    """The line as the file holds it ("" for a finding about a whole file or project)."""
    workspace: str | None = None
    project: str | None = None
    checkout: str | None = None
    """The directory the memory was checked against (None: none is known or on disk)."""
    fix: Fix | None = None
    related: tuple[Place, ...] = ()

    @property
    def sort_key(self) -> tuple[str, str, int, str, str]:
        return (self.project or "", self.path, self.line or 0, self.kind, self.subject)


class CheckReport(Record, checked_when_built=False):
    """What one check found, and over what."""

    findings: tuple[Finding, ...] = ()
    files_checked: int = 0
    projects: tuple[str, ...] = ()
    """The projects whose memory was checked (on this disk or not)."""
    problems: tuple[str, ...] = ()
    """What could not be read (a scope, a source, a checkout), one line each."""
    cancelled: bool = False
    stale_days: int = 0
