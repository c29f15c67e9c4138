"""What the offline writer finds in a transcript (`extract.TranscriptDigest`), as data: the
findings its rules keep (`Findings`)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

from memtab.writer.offline.shell.commands import runs_a_task
from memtab.writer.offline.solved_problems import SolvedProblem

# A tool is part of the workflow once it worked this often, in this many subcommands — or
# when it runs one of the project's tasks.
MIN_TOOL_USES = 3
MIN_TOOL_SUBCOMMANDS = 2
MAX_TOOL_EXAMPLES = 4
MAX_TOOLS = 50  # tools, and subcommands of one: bounded on a transcript of any length


@dataclass(frozen=True)
class WorkflowTool:
    """A workflow tool Memtab does not know: its program and its invocations that worked."""

    program: str
    examples: tuple[str, ...]


class ToolUses:
    """Every tool program that worked in a session: its subcommands' shortest invocations
    (and the message each is in), and how often it worked."""

    def __init__(self) -> None:
        self._examples: dict[str, dict[str, tuple[str, str]]] = {}
        self.uses: dict[str, int] = {}

    def note(self, program: str, family: str, shown: str, origin: str) -> None:
        """One more run of `program` that worked (`family`: its subcommand's family)."""
        if program not in self._examples and len(self._examples) >= MAX_TOOLS:
            return
        examples = self._examples.setdefault(program, {})
        self.uses[program] = self.uses.get(program, 0) + 1
        known = examples.get(family)
        if (known is None and len(examples) < MAX_TOOLS) or (known and len(known[0]) > len(shown)):
            examples[family] = (shown, origin)

    def tools(self) -> Iterable[tuple[WorkflowTool, tuple[str, ...]]]:
        """The tools the session leaned on (`MIN_TOOL_USES` uses in `MIN_TOOL_SUBCOMMANDS`
        subcommands) or that run one of the project's tasks, each with the messages its
        examples are in."""
        for program, examples in self._examples.items():
            leaned_on = len(examples) >= MIN_TOOL_SUBCOMMANDS
            leaned_on = leaned_on and self.uses[program] >= MIN_TOOL_USES
            runs_tasks = any(runs_a_task(shown) for shown, _ in examples.values())
            if not leaned_on and not runs_tasks:
                continue
            kept = list(examples.values())[:MAX_TOOL_EXAMPLES]
            yield (
                WorkflowTool(program, tuple(shown for shown, _ in kept)),
                tuple(o for _, o in kept),
            )


@dataclass(frozen=True)
class WorkingCommand:
    """A project command that succeeded, and what kind of command it is (if known)."""

    command: str
    kind: str | None = None


OriginKind = Literal["directive", "finding", "command", "tool", "fix"]


@dataclass
class Findings:
    """Everything the offline writer would record from one transcript."""

    directives: list[str] = field(default_factory=list)
    commands: list[WorkingCommand] = field(default_factory=list)
    solved_problems: list[SolvedProblem] = field(default_factory=list)
    findings: list[str] = field(default_factory=list)
    tools: list[WorkflowTool] = field(default_factory=list)
    origins: dict[tuple[str, str], tuple[str, ...]] = field(default_factory=dict, compare=False)
    """The message ids each finding was drawn from, by kind and key (docs/formats.md §20.1)."""

    def origin_of(self, kind: OriginKind, key: str) -> tuple[str, ...]:
        """The ids of the messages a finding came from (none known: empty)."""
        return self.origins.get((kind, key), ())

    @property
    def empty(self) -> bool:
        return not (
            self.directives or self.commands or self.solved_problems or self.findings or self.tools
        )
