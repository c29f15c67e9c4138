"""What the offline writer finds in a transcript (`extract.TranscriptDigest`), as data: the
findings its rules keep (`Findings`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from memtab.writer.offline.shell.workflow_tools import WorkflowTool
from memtab.writer.offline.solved_problems import SolvedProblem


@dataclass(frozen=True)
class WorkingCommand:
    """A project command that succeeded, and what kind of command it is (if known)."""

    command: str
    kind: str | None = None


OriginKind = Literal["goal", "directive", "finding", "command", "tool", "fix"]


@dataclass
class Findings:
    """Everything the offline writer would record from one transcript."""

    directives: list[str] = field(default_factory=list)
    commands: list[WorkingCommand] = field(default_factory=list)
    solved_problems: list[SolvedProblem] = field(default_factory=list)
    findings: list[str] = field(default_factory=list)
    goal: str | None = None
    """What the user set out to do, from their first message (kept when the session did
    project work)."""
    tools: list[WorkflowTool] = field(default_factory=list)
    origins: dict[tuple[str, str], tuple[str, ...]] = field(default_factory=dict, compare=False)
    """The message ids each finding was drawn from, by kind and key (docs/formats.md §20.1)."""

    def origin_of(self, kind: OriginKind, key: str) -> tuple[str, ...]:
        """The ids of the messages a finding came from (none known: empty)."""
        return self.origins.get((kind, key), ())

    @property
    def empty(self) -> bool:
        return not (
            self.directives
            or self.commands
            or self.solved_problems
            or self.findings
            or self.goal
            or self.tools
        )
