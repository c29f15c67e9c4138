"""The demo home's history, replayed through the store with the actors, runs and times of a real
one, so blame and the History panel have something true to show (docs/formats.md §14.2, §20)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memtab import __version__
from memtab.fs.atomic import atomic_write_json, atomic_write_text
from memtab.resources import resource_path
from memtab.store.history.jsonlines import JsonLinesFile
from memtab.store.history.recorder import HistoryRecorder, Observation, RecordedChange
from memtab.store.history.records import RunEntry
from memtab.store.history.runs import RunsLog, journal_fingerprint, new_run_id
from memtab.store.history.versions import scope_key
from memtab.store.home import PROVENANCE_LOCK, Home
from memtab.store.paths import Scope, parse_file_path
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.journal import Journal
from memtab.store.sidecars.registry import Workspace, load_registry
from memtab.traces.names import trace_file_name
from memtab.traces.schema import (
    AttemptRecord,
    DumpRecord,
    EventsSummaryRecord,
    ToolExecutionRecord,
)

NOTES = "/memories/workspace/notes.md"
TODO = "/memories/workspace/todo.md"
REFRESH_RACE = "/memories/workspace/refresh-race.md"
NOTES_AT, TODO_AT = parse_file_path(NOTES), parse_file_path(TODO)

# The lines each change brought, as the seed files hold them now.
WRITER_LINES = (
    "- Always run `make check` before pushing (user directive).\n"
    "- `pytest tests/integration -k refresh` needs `make db-up`; it failed with "
    '"connection refused" until the container ran.\n'
)
MERGED_LINE = (
    "- Token refresh race: fixed by locking the refresh-token row `SELECT … FOR UPDATE`.\n"
)
FIRST_RACE_LINE = "- Token refresh race: two tabs refreshing at once rotate the same token.\n"
USER_TODO_LINE = "- Ask security to review the family-revocation log message.\n"
REFRESH_RACE_NOTE = (
    "# Refresh race\n\n"
    "- Two tabs refreshing at once get 401: both rotate the same refresh token.\n" + MERGED_LINE
)

MINUTE = 60_000
HOUR = 60 * MINUTE
DAY = 24 * HOUR
WRITER_TRIGGER = "assistant-0001"
WRITER_MODEL = ("anthropic", "claude-haiku-4-5")
CONSOLIDATION_MODEL = ("anthropic", "claude-sonnet-4-5")


@dataclass(frozen=True)
class Branch:
    """The demo workspace whose history is replayed, and the session its writer read."""

    workspace_id: str
    first_turn: list[dict[str, Any]]
    """The session's first two messages (mux's `chat.jsonl` lines): the writer's window."""


class SeedChangedError(Exception):
    """The seed no longer holds the lines the history replays (the demo says so)."""


def write_demo_history(home: Home, now: int, branch: Branch) -> None:
    """Replay how some memory files got there; SeedChangedError when the seed no longer fits."""
    _Replay(home, now, branch).run()


class _Replay:
    """One replay of the demo's history into a home."""

    def __init__(self, home: Home, now: int, branch: Branch) -> None:
        self.home = home
        self.now = now
        self.branch = branch
        self.workspace: Workspace = load_registry(home).require_workspace(branch.workspace_id)

    def run(self) -> None:
        notes_now, todo_now = self._read(NOTES), self._read(TODO)
        if (
            WRITER_LINES not in notes_now
            or MERGED_LINE not in notes_now
            or USER_TODO_LINE not in todo_now
        ):
            raise SeedChangedError("The demo seed no longer holds the lines its history replays")
        before_writer = notes_now.replace(WRITER_LINES, "")
        first_notes = before_writer.replace(MERGED_LINE, FIRST_RACE_LINE)
        first_todo = todo_now.replace(USER_TODO_LINE, "")

        seen_at = self.now - 2 * DAY
        files = {NOTES: first_notes, TODO: first_todo, REFRESH_RACE: REFRESH_RACE_NOTE}
        for path, text in files.items():
            atomic_write_text(self._physical(path), text)
        key = scope_key(Scope.WORKSPACE, project_path=None, workspace_id=self.workspace.id)
        HistoryRecorder(
            self.home,
            actor="external",
            run_id=None,
            workspace_id=self.workspace.id,
            clock=lambda: seen_at,
        ).observe(key, [Observation(path, text.encode()) for path, text in files.items()])

        user_at = self.now - 5 * HOUR
        user = MemoryStore(self.home, self.workspace, clock=lambda: user_at)
        user.save(TODO_AT, todo_now, user.read(TODO_AT).sha256)
        os.utime(self._physical(TODO), (user_at / 1000, user_at / 1000))

        self._consolidate(before_writer)
        self._write(before_writer, notes_now)

    def _consolidate(self, merged: str) -> None:
        """The journal's run for the workspace: merge, then delete, each with its reason
        (docs/formats.md §8)."""
        record = Journal(self.home).load().workspaces[self.workspace.id]
        started = record.last_run_at - 70_000
        run_id = new_run_id(started)
        store = MemoryStore(
            self.home,
            self.workspace,
            actor="consolidator",
            run_id=run_id,
            clock=lambda: record.last_run_at - 20_000,
        )
        with store.collecting_changes() as merging:
            store.save(NOTES_AT, merged, store.read(NOTES_AT).sha256)
        with store.collecting_changes() as deleting:
            store.delete(parse_file_path(REFRESH_RACE))
        changes = {NOTES: merging, REFRESH_RACE: deleting}
        ops = [
            _op(op.command, op.path, op.applied, changes.get(op.path, []) if op.applied else [])
            | ({"newPath": op.new_path} if op.new_path is not None else {})
            | ({"note": op.note} if op.note is not None else {})
            for op in record.ops
        ]
        run = self._run(run_id, record.last_run_at, "consolidation", record.trigger, record.summary)
        provider, model = CONSOLIDATION_MODEL
        run |= {
            "provider": provider,
            "model": model,
            "startedAt": started,
            "journalFingerprint": journal_fingerprint(record),
            "usage": {"inputTokens": record.input_tokens, "outputTokens": record.output_tokens},
            "ops": ops,
        }
        RunsLog(self.home).file.append([run])

    def _write(self, before: str, after: str) -> None:
        """A model's writer run over the session's first turn: two lines, a dump, their
        provenance."""
        started = self.now - 66 * MINUTE
        wrote_at = started + 7_000
        run_id = new_run_id(started)
        store = MemoryStore(
            self.home, self.workspace, actor="writer", run_id=run_id, clock=lambda: wrote_at
        )
        with store.collecting_changes() as written:
            store.save(NOTES_AT, after, store.read(NOTES_AT).sha256)
        os.utime(self._physical(NOTES), (wrote_at / 1000, wrote_at / 1000))
        dump_name = trace_file_name(started, WRITER_TRIGGER)
        atomic_write_json(
            self.home.trace_dir(self.workspace.id) / dump_name,
            self._dump(started, before, after),
        )
        provider, model = WRITER_MODEL
        run = self._run(
            run_id, started + 9_000, "writer", WRITER_TRIGGER, f"Updated {NOTES} (+2 −0 lines)"
        )
        run |= {
            "provider": provider,
            "model": model,
            "startedAt": started,
            "usage": {"inputTokens": 4210, "outputTokens": 188},
            "ops": [_op("memory_write", change.path, True, [change]) for change in written],
            "traceDump": dump_name,
        }
        RunsLog(self.home).file.append([run])
        events = self.branch.first_turn
        record = {
            "at": started + 9_000,
            "kind": "writer-run",
            "versions": [change.after.id for change in written],
            "runId": run_id,
            "workspaceId": self.workspace.id,
            "memoryPath": NOTES,
            "window": {
                "firstMessageId": events[0]["id"],
                "lastMessageId": events[-1]["id"],
                "messageCount": len(events),
                "transcriptPath": str(self.home.transcript_path(self.workspace.id)),
            },
            "traceDump": dump_name,
            "notes": [],  # a model's run: its lines are drawn from the window
        }
        provenance = JsonLinesFile(
            self.home.provenance_log_path, self.home.lock_path(PROVENANCE_LOCK), dict
        )
        provenance.append([record])

    def _run(self, run_id: str, at: int, kind: str, trigger: str, summary: str) -> dict[str, Any]:
        """A line of the runs log, as `RunEntry` writes it (docs/formats.md §14.3)."""
        return {
            "id": run_id,
            "at": at,
            "kind": kind,
            "trigger": trigger,
            "workspaceId": self.workspace.id,
            "projectPath": self.workspace.project_identity,
            "summary": summary,
            "status": "ok",
            "error": None,
            "source": "memtab",
            "provider": None,
            "model": None,
            "startedAt": None,
            "journalFingerprint": None,
            "planId": None,
            "usage": None,
            "ops": [],
        }

    def _dump(self, started: int, before: str, after: str) -> dict[str, Any]:
        """The run's trace dump, as Memtab writes one for a successful run (§10.3)."""
        events = self.branch.first_turn
        user_message = "Update the memory file from the transcript events above."
        return {
            "schemaVersion": 1,
            "runStartedAt": started,
            "workspaceId": self.workspace.id,
            "workspaceName": self.workspace.name,
            "triggerMessageId": WRITER_TRIGGER,
            "modelString": ":".join(WRITER_MODEL),
            "timeoutMs": 120_000,
            "timedOut": False,
            "didWriteMemory": True,
            "satisfiedMemoryToolPolicy": True,
            "projectPath": self.workspace.project_identity,
            "workspacePath": self.workspace.path,
            "memoryPath": NOTES,
            "systemPrompt": "You maintain the workspace memory file. Record durable facts.",
            "existingMemory": before,
            "eventsSummary": {"originalCount": 2, "trimmedCount": 2, "maxJsonChars": 80_000},
            "events": events,
            "userMessage": user_message,
            "attempts": [
                {
                    "attemptIndex": 1,
                    "messages": [{"role": "user", "text": user_message}],
                    "stepResults": [
                        {
                            "text": "",
                            "toolCalls": [
                                {"id": "toolu_11", "name": "memory_read", "arguments": {}}
                            ],
                            "stopReason": "tool_use",
                            "usage": {"inputTokens": 3980, "outputTokens": 40},
                        },
                        {
                            "text": "",
                            "toolCalls": [
                                {
                                    "id": "toolu_12",
                                    "name": "memory_write",
                                    "arguments": {"old_string": before, "new_string": after},
                                }
                            ],
                            "stopReason": "tool_use",
                            "usage": {"inputTokens": 230, "outputTokens": 148},
                        },
                    ],
                    "toolExecutions": [
                        {
                            "toolName": "memory_read",
                            "toolCallId": "toolu_11",
                            "input": {},
                            "output": {"exists": True, "content": before},
                            "startedAt": started + 2_100,
                            "durationMs": 2,
                        },
                        {
                            "toolName": "memory_write",
                            "toolCallId": "toolu_12",
                            "input": {"old_string": before, "new_string": after},
                            "output": {"success": True},
                            "startedAt": started + 6_900,
                            "durationMs": 4,
                        },
                    ],
                    "finishReason": "tool_use",
                    "wrote": True,
                    "noNewMemories": False,
                    "aborted": False,
                }
            ],
            "outcome": "wrote",
            "memoryFile": str(self._physical(NOTES)),
            "memtab": {"version": __version__},
        }

    def _physical(self, path: str) -> Path:
        return self.home.workspace_root(self.workspace.id) / path.removeprefix(
            "/memories/workspace/"
        )

    def _read(self, path: str) -> str:
        return self._physical(path).read_text(encoding="utf-8")


def _op(command: str, path: str, applied: bool, changes: list[RecordedChange]) -> dict[str, Any]:
    """An op of a run, with the versions it made, as `RunOp` writes it."""
    versions = [
        {
            "path": change.path,
            "beforeVersion": change.before.id if change.before else None,
            "beforeSha256": change.before.sha256 if change.before else None,
            "afterVersion": change.after.id,
            "afterSha256": change.after.sha256,
            "deleted": change.after.deleted,
        }
        for change in changes
    ]
    return {"command": command, "path": path, "applied": applied, "versions": versions}


def write_failed_trace_dump(
    home: Home, now: int, branch: Branch, workspace_name: str, project_path: str
) -> None:
    """The dump of a writer run on `branch` that timed out 54 minutes ago, written through the
    dump's records."""
    started = now - 54 * MINUTE
    memory_path = "/memories/workspace/notes.md"
    notes = (resource_path("demo") / "workspace/main/notes.md").read_text(encoding="utf-8")
    attempt = AttemptRecord(
        attempt_index=0,
        messages=({"role": "user", "content": "Update the memory file from the events."},),
        step_results=({"finishReason": "tool-calls", "text": ""},),
        tool_executions=(
            ToolExecutionRecord(
                tool_name="memory_read",
                tool_call_id="toolu_01",
                input={},
                output={"exists": True, "content": notes},
                started_at=started + 1_200,
                duration_ms=3,
            ),
            ToolExecutionRecord(
                tool_name="memory_write",
                tool_call_id="toolu_02",
                input={"old_string": "- Always run", "new_string": "- Always run"},
                error="old_string matched 0 times (expected 1)",
                started_at=started + 6_900,
                duration_ms=2,
            ),
        ),
        finish_reason="aborted",
        wrote=False,
        no_new_memories=False,
        aborted=True,
        error="Timed out after 10000 ms",
    )
    dump = DumpRecord(
        schema_version=1,
        run_started_at=started,
        workspace_id=branch.workspace_id,
        workspace_name=workspace_name,
        trigger_message_id="assistant-0001",
        model_string="anthropic:claude-haiku-4-5",
        timeout_ms=10_000,
        timed_out=True,
        did_write_memory=False,
        satisfied_memory_tool_policy=False,
        project_path=project_path,
        workspace_path=f"{project_path}/.worktrees/{workspace_name}",
        memory_path=memory_path,
        system_prompt="You maintain the workspace memory file. Record durable facts.",
        existing_memory=notes,
        events_summary=EventsSummaryRecord(
            original_count=2, trimmed_count=2, max_json_chars=80_000
        ),
        events=tuple(branch.first_turn),
        user_message="Update the memory file from the transcript events above.",
        attempts=(attempt,),
    )
    path = home.trace_dir(branch.workspace_id) / trace_file_name(started, "assistant-0001")
    atomic_write_json(path, dump.to_document())
    error = "Timed out after 10000 ms"  # the attempt's, as the dump says
    run = RunEntry(
        id=new_run_id(started),
        at=started + 10_000,
        kind="writer",
        trigger="assistant-0001",
        workspace_id=branch.workspace_id,
        project_path=project_path,
        summary=f"Memory writer failed: {error}",
        status="failed",
        error=error,
        provider="anthropic",
        model="claude-haiku-4-5",  # the dump's `modelString`
        started_at=started,
        trace_dump=path.name,
    )
    RunsLog(home).append(run)  # Runs… lists it beside its trace
