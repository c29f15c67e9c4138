"""Which of the offline writer's extractors made each note it writes (`measure.py
--by-extractor`): a `TranscriptDigest` that records where each finding entered it."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from memtab.redact import redact_secrets
from memtab.transcripts.events import TranscriptToolCall
from memtab.writer.job.run import load_writer_events
from memtab.writer.offline.extract import TranscriptDigest
from memtab.writer.offline.findings import OriginKind
from memtab.writer.offline.notes import (
    SOLVED_PROBLEMS,
    Note,
    render_command,
    render_tool,
)
from memtab.writer.offline.shell.command_scope import without_passthrough
from memtab.writer.offline.shell.commands import display_command
from memtab.writer.offline.solved_problems import Step
from quality.scoring import notes_written, unpacked

# The extractors, as measure.py names them, with the module each lives in.
USER_DIRECTIVES = "user's directives (directives.py)"
SAVED_DIRECTIVES = "agent's feedback memories (extract.memories_saved)"
SAVED_FINDINGS = "agent's saved memories (extract.memories_saved)"
ANSWER_END = "facts in final answers (answers.py)"
ANSWER_MID = "facts said mid-work (answers.py)"
AGENT_REPORTS = "facts in sub-agent reports (answers.py)"
HOOKS_PASSED = "hooks a commit passed (shell/outcomes.py)"
HOOKS_BROKEN = "a broken hook (solved_problems.broken_hook_note)"
SHELL_COMMANDS = "commands that worked (shell/)"
BASH_AGENT = "commands a Bash sub-agent ran (extract.command_a_bash_agent_ran)"
WORKFLOW_TOOLS = "workflow tools (findings.ToolUses)"
FIXES = "proved fixes (solved_problems.py)"
UNKNOWN = "unattributed"


class TracedDigest(TranscriptDigest):
    """A digest that remembers, for each finding it keeps, the extractor that first gave it."""

    def __init__(self) -> None:
        super().__init__()
        self.sources: dict[tuple[str, str], str] = {}
        self._in_call = False
        self._via_step = False

    def _keep(self, kept: list[str], found: Iterable[str], kind: OriginKind, origin: str) -> None:
        found = list(found)
        for item in found:
            if kind == "directive":
                source = SAVED_DIRECTIVES if self._in_call else USER_DIRECTIVES
            else:
                source = SAVED_FINDINGS  # a fact read in prose was recorded by `_keep_facts`
            self.sources.setdefault((kind, item), source)
        super()._keep(kept, found, kind, origin)

    def _keep_facts(
        self, found: Iterable[str], origin: str, *, told_the_user: bool, report: bool = False
    ) -> None:
        found = list(found)
        source = AGENT_REPORTS if report else ANSWER_END if told_the_user else ANSWER_MID
        for fact in found:
            self.sources.setdefault(("finding", fact), source)
        super()._keep_facts(found, origin, told_the_user=told_the_user, report=report)

    def _call(self, call: TranscriptToolCall, origin: str) -> None:
        self._in_call = True
        try:
            super()._call(call, origin)
        finally:
            self._in_call = False

    def _note_hooks(self, key: str, note: str | None, origin: str) -> None:
        if note is not None:
            source = HOOKS_BROKEN if key.startswith("broken") else HOOKS_PASSED
            self.sources.setdefault(("finding", note), source)
        super()._note_hooks(key, note, origin)

    def _note_command(self, step: Step) -> None:
        self._via_step = True
        try:
            super()._note_command(step)
        finally:
            self._via_step = False

    def _note_working(self, command: str, origin: str) -> None:
        shown = display_command(without_passthrough(command))
        if shown is not None:
            source = SHELL_COMMANDS if self._via_step else BASH_AGENT
            self.sources.setdefault(("command", shown), source)
        super()._note_working(command, origin)


def traced_notes(path: Path, scratch: Path) -> list[tuple[Note, str]]:
    """The notes `scoring.notes_for_transcript` writes from a transcript, each with the
    extractor that made it."""
    digest = TracedDigest()
    load_writer_events(unpacked(path, scratch), observe=digest.add)
    findings = digest.findings()
    by_text: dict[str, str] = {}
    for command in findings.commands:
        by_text[render_command(command)] = digest.sources.get(("command", command.command), UNKNOWN)
    for tool in findings.tools:
        by_text[render_tool(tool)] = WORKFLOW_TOOLS
    for kind, items in (("directive", findings.directives), ("finding", findings.findings)):
        for item in items:
            by_text[item] = digest.sources.get((kind, item), UNKNOWN)
    notes = notes_written(findings)
    by_text = {redact_secrets(text): source for text, source in by_text.items()}
    return [(note, _source(note, by_text)) for note in notes]


def _source(note: Note, by_text: dict[str, str]) -> str:
    if note.section == SOLVED_PROBLEMS:
        return FIXES
    return by_text.get(note.text, UNKNOWN)
