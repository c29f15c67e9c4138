"""Recognize a transcript's format from its first records."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from memtab.transcripts.events import TRANSCRIPT_FORMATS, TranscriptFormat

_CODEX_ENVELOPE_TYPES = ("session_meta", "turn_context", "response_item", "event_msg", "compacted")
_CODEX_LEGACY_TYPES = ("message", "function_call", "function_call_output", "reasoning")
_CLAUDE_TYPES = ("user", "assistant", "summary", "system")
# Records examined; the first records always say enough.
DETECTION_WINDOW = 50


def record_format(record: Any) -> TranscriptFormat | None:
    """The format one record clearly belongs to, or None when it says nothing."""
    if not isinstance(record, dict):
        return None
    kind = record.get("type")
    if isinstance(record.get("parts"), list) and record.get("role") in ("user", "assistant"):
        return "mux"
    if "payload" in record and kind in _CODEX_ENVELOPE_TYPES:
        return "codex"
    if "sessionId" in record or "leafUuid" in record:
        return "claude"
    if "uuid" in record and kind in _CLAUDE_TYPES:
        return "claude"
    if kind in _CLAUDE_TYPES and isinstance(record.get("message"), dict):
        return "claude"
    if kind in _CODEX_LEGACY_TYPES and "message" not in record:
        return "codex"
    return None


def detect_format(records: Iterable[Any]) -> TranscriptFormat | None:
    """The format most of the first `DETECTION_WINDOW` records vote for (None: no votes)."""
    votes = dict.fromkeys(TRANSCRIPT_FORMATS, 0)
    for index, record in enumerate(records):
        if index >= DETECTION_WINDOW:
            break
        found = record_format(record)
        if found is not None:
            votes[found] += 1
    best = max(TRANSCRIPT_FORMATS, key=lambda name: votes[name])
    return best if votes[best] > 0 else None
