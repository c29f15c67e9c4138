"""Commands a `Bash` sub-agent ran, from real Task calls of matthsena/reef-coder sessions
(tests/fixtures/shared/claude-code, tuned on): its report is the run's only trace, and
counts only in its own format — one fenced command the prompt asked for, then a word that
it passed."""

from __future__ import annotations

from memtab.transcripts.events import TranscriptToolCall
from memtab.writer.offline.extract import command_a_bash_agent_ran, extract_findings

from .events import calls

REEF = "/home/matheus/Desktop/agent-swarm"
PROMPT = (
    f"Run the TypeScript type check in the agent-swarm project:\n\ncd {REEF} && bunx tsc "
    "--noEmit\n\nReport any type errors found."
)
REPORT = (
    f"Running the TypeScript type check now.\n\n```bash\ncd {REEF} && bunx tsc --noEmit\n```\n\n"
    "The TypeScript type check completed successfully with no errors. The codebase is "
    "type-safe.\nagentId: a4e4e30 (for resuming to continue this agent's work if needed)"
)


def _task(prompt: str, report: str, kind: str = "Bash") -> TranscriptToolCall:
    arguments = {"subagent_type": kind, "prompt": prompt, "description": "Run type check"}
    return TranscriptToolCall(id="t1", name="Task", input=arguments, output=report)


def test_a_bash_agents_report_of_a_passing_command_is_its_run() -> None:
    assert command_a_bash_agent_ran(_task(PROMPT, REPORT)) == f"cd {REEF} && bunx tsc --noEmit"
    event = calls(_task(PROMPT, REPORT))
    event.cwd = REEF
    [command] = extract_findings([event]).commands
    assert (command.command, command.kind) == ("bunx tsc --noEmit", "type check")
    # "no type errors": a count of nothing that failed, with its kind named
    passed = REPORT.replace(
        "completed successfully with no errors. The codebase is type-safe.",
        "passed successfully. There were no type errors in the project.",
    )
    assert command_a_bash_agent_ran(_task(PROMPT, passed)) is not None


def test_what_is_not_a_bash_agents_run() -> None:
    failed = REPORT.replace(
        "completed successfully with no errors. The codebase is type-safe.",
        "found 2 errors:\nsrc/commands.ts(14,3): error TS2322: Type 'string' is not assignable.",
    )
    assert command_a_bash_agent_ran(_task(PROMPT, failed)) is None
    # another agent type: what it says it ran is prose about its study
    assert command_a_bash_agent_ran(_task(PROMPT, REPORT, kind="Explore")) is None
    # a command the prompt did not ask for
    assert command_a_bash_agent_ran(_task("Check the types.", REPORT)) is None
    # reef's /model session: the sub-agent wrote its calls out as text, never made them
    as_text = (
        'I\'ll run the type check command now.\n\n<function_calls>\n<invoke name="bash">\n'
        f'<parameter name="cmd">cd {REEF} && bunx tsc --noEmit 2>&1</parameter>\n</invoke>\n'
        "</function_calls>\n```bash\nbunx tsc --noEmit\n```\nIt completed successfully."
    )
    assert command_a_bash_agent_ran(_task(PROMPT, as_text)) is None
    # several commands in one report: which one passed is not said
    several = (
        f"```bash\ncd {REEF} && git status\n```\n\n```bash\ncd {REEF} && git add -A\n```\n\n"
        "The commands completed successfully."
    )
    assert command_a_bash_agent_ran(_task("1. git status\n2. git add -A", several)) is None
