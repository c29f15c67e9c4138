"""What one run of the background memory writer did (`memtab.writer.job.run` makes it)."""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import Annotated, Literal

from memtab.fs.records import Key, NotWritten, OmitNone, Record, WrittenAs, computed, field
from memtab.humanize import plural
from memtab.llm.types import Usage

RunOutcome = Literal["wrote", "suggested", "no_new_memories", "failed"]
"""`suggested`: the offline writer put new notes in the review queue instead of writing."""


def refused_json(refused: tuple[tuple[str, str], ...]) -> list[dict[str, str]]:
    """The lines the rails refused as the writer's outputs write them: `{line, why}`."""
    return [{"line": line, "why": why} for line, why in refused]


def usage_json(usage: Usage) -> dict[str, int]:
    """Token counts as the writer's outputs write them (`memtab write --json`, dumps)."""
    return {"inputTokens": usage.input_tokens, "outputTokens": usage.output_tokens}


class WriterRunResult(Record, write_only=True):
    """What a run did (`memtab write --json`, formats §10.1); `before`/`after`: the file."""

    workspace_id: str
    workspace_name: str
    outcome: RunOutcome
    ok: bool = computed(lambda result: result.outcome != "failed")
    """True when the run satisfied the tool policy (wrote, or found nothing new)."""
    memory_path: str
    trigger_message_id: str
    run_started_at: int
    model_string: str
    before: Annotated[str, NotWritten]
    after: Annotated[str, NotWritten]
    timed_out: bool = False
    error: str | None = None
    trace_path: Path | None = None
    attempts: int = 0
    duration_ms: int = 0
    usage: Annotated[Usage, WrittenAs(usage_json)] = field(default_factory=Usage)
    diff: list[str] = computed(lambda result: result.diff_lines())
    summary_line: Annotated[str, Key("summary")] = computed(lambda result: result.summary())
    run_id: str | None = None
    suggested_count: Annotated[int, NotWritten] = 0
    """How many new suggestions the run added to the workspace's review queue."""
    left_out_count: Annotated[int, Key("leftOut")] = 0
    """How many notes the offline writer found past its per-run limit and left out, or a
    model on this machine had no time to judge (§10.2, "Time")."""
    refused: Annotated[tuple[tuple[str, str], ...], WrittenAs(refused_json)] = ()
    """(line, why) of each line the model wrote that the rails refused (`writer.job.rails`)."""
    plan: Annotated[str | None, OmitNone] = None
    """What a run on a model server on this machine asked in its time and left out (§10.2,
    "Time"); None when it asked all it had."""
    fallback: Annotated[str | None, OmitNone] = None
    """Why a model's run wrote the offline writer's notes instead of the model's: its answer
    was not usable (§10.2); None when it was, or no model ran."""
    suggested: Annotated[tuple[Record, ...] | None, OmitNone] = None
    """The offline writer's suggestions (`writer.records.Suggestion`), which `memtab write
    --json` adds (None: not written)."""

    def diff_lines(self) -> list[str]:
        """The change to the memory file as unified-diff body lines (`+…`, `-…`, ` …`)."""
        diff = difflib.unified_diff(
            self.before.splitlines(), self.after.splitlines(), lineterm="", n=1
        )
        return [line for line in diff if not line.startswith(("---", "+++"))]

    def summary(self) -> str:
        """One line for logs, the CLI and the status bar."""
        refused = self._refused_clause()
        if self.outcome == "wrote":
            lines = self.diff_lines()
            added = sum(1 for line in lines if line.startswith("+"))
            removed = sum(1 for line in lines if line.startswith("-"))
            counts = f"+{added} −{removed} lines"
            said = f"{self._left_out_clause()}{self._fallback_clause()}{refused}"
            return f"Updated {self.memory_path} ({counts}){said}"
        if self.outcome == "suggested":
            suggested = plural(self.suggested_count, "memory", "memories")
            return f"Suggested {suggested} for review{self._left_out_clause()}"
        if self.outcome == "no_new_memories":
            return f"No new memories{self._left_out_clause()}{self._fallback_clause()}{refused}"
        return f"Memory writer failed: {self.error or 'unknown error'}{refused}"

    def _refused_clause(self) -> str:
        """`; 2 lines refused: “Always run the suite” (it is a standing rule …)`."""
        if not self.refused:
            return ""
        line, why = self.refused[0]
        return f"; {plural(len(self.refused), 'line')} refused: “{line.strip()}” ({why})"

    def _fallback_clause(self) -> str:
        return f"; {self.fallback}" if self.fallback else ""

    def _left_out_clause(self) -> str:
        return f" ({self.left_out_count} less sure left out)" if self.left_out_count else ""
