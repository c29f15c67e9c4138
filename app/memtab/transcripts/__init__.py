"""Transcript readers for mux, Claude Code and Codex and the writer's event budget (also over a
stream, in bounded memory); on `fs` and `redact` alone, no Qt."""

from memtab.transcripts.budget import DEFAULT_MAX_JSON_CHARS, EventBudget, select_event_budget
from memtab.transcripts.claude import background_task, ended_task
from memtab.transcripts.codex import polled_session, running_session
from memtab.transcripts.events import (
    TRANSCRIPT_FORMATS,
    EventRole,
    TranscriptEvent,
    TranscriptFormat,
    TranscriptToolCall,
    compact_json,
    json_len,
)
from memtab.transcripts.reader import (
    SkippedLine,
    Transcript,
    TranscriptTail,
    detect_format,
    read_transcript,
)
from memtab.transcripts.window import NewestEvents, read_newest_events

__all__ = [
    "DEFAULT_MAX_JSON_CHARS",
    "TRANSCRIPT_FORMATS",
    "EventBudget",
    "EventRole",
    "NewestEvents",
    "SkippedLine",
    "Transcript",
    "TranscriptEvent",
    "TranscriptFormat",
    "TranscriptTail",
    "TranscriptToolCall",
    "background_task",
    "compact_json",
    "detect_format",
    "ended_task",
    "json_len",
    "polled_session",
    "read_newest_events",
    "read_transcript",
    "running_session",
    "select_event_budget",
]
