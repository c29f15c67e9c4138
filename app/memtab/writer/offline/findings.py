"""What the offline writer finds in a transcript (`extract.TranscriptDigest`), as data: the
findings its rules keep (`Findings`) and, for the judge, every candidate's `Evidence`
(`candidates`, `judge`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from memtab.writer.offline.shell.workflow_tools import WorkflowTool
from memtab.writer.offline.solved_problems import SolvedProblem

FactSource = str  # "final" (a final answer), "answer" (mid-work), "report", "saved", "hooks"


@dataclass(frozen=True)
class WorkingCommand:
    """A project command that succeeded, and what kind of command it is (if known)."""

    command: str
    kind: str | None = None


OriginKind = Literal["goal", "directive", "decision", "finding", "command", "tool", "fix"]


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
    decisions: list[str] = field(default_factory=list)
    """The user's answers to the agent's questions, each with its question."""
    tools: list[WorkflowTool] = field(default_factory=list)
    origins: dict[tuple[str, str], tuple[str, ...]] = field(default_factory=dict, compare=False)
    """The message ids each finding was drawn from, by kind and key (docs/formats.md §20.1)."""
    evidence: dict[tuple[str, str], Evidence] = field(default_factory=dict, compare=False)
    """Of candidates (`TranscriptDigest.candidates`): each one's evidence, by kind and key."""

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
            or self.decisions
            or self.tools
        )


@dataclass(frozen=True)
class Evidence:
    """Where one candidate came from and what the rules made of it (the judge's input)."""

    kind: str
    """"goal", "directive", "decision", "command", "tool", "fix" or "finding"."""
    rules_kept: bool
    """Whether today's rules (every soft gate) keep it."""
    said: int = 1
    """How many times it was said, or (a command, a tool) run and succeeded."""
    position: float = 0.0
    """Where in the session it was first seen: 0 at the start, 1 at the end (in tool calls)."""
    source: FactSource = ""
    weight: int = 0
    """A finding's `answers.fact_weight` (firm statements, told in a final answer weigh more)."""
    after_failure: bool = False
    """Said right after a call that failed (the moment's trouble, often)."""
    rank_in_answer: int = 0
    """A finding's place among the facts of the answer it came from (0: the first)."""
    english: bool = True
    marked: bool = False
    """A finding carries a fact's marker or a conclusion's label (`answers.is_marked`)."""
    passed_fact_rules: bool = False
    """A finding the rules took, before the session's surest few were chosen."""
    names_read_file: bool = False
    """A finding names a file the session opened (a tool call's input shows it)."""
    names_edited_file: bool = False
    """A finding names a file the session edited."""
    subcommands: int = 0
    """A workflow tool: how many of its subcommands worked."""
    session_steps: int = 0
    """How many tool calls the session made."""
    changed_project: bool = False
    """Whether the session edited a file or ran a project command."""
