"""mux / xum `sessions/<ws>/chat.jsonl`: one complete message per line (docs/formats.md §11.2);
text deltas joined, reasoning dropped, unknown parts skipped."""

from __future__ import annotations

from typing import Any

from memtab.transcripts.events import (
    EventRole,
    RecordParser,
    SourceLine,
    TranscriptEvent,
    TranscriptToolCall,
    as_dict,
    as_int,
    as_list,
    as_str,
    clean_text,
    compact_json,
    parse_timestamp,
)

# Fields of a tool's output object that carry its text, best first.
_OUTPUT_TEXT_FIELDS = ("output", "stdout", "content", "result", "text", "diff", "message")


def _tool_input(value: Any) -> dict[str, Any] | str:
    if isinstance(value, dict):
        return value
    if isinstance(value, str):
        return clean_text(value)
    return {} if value is None else compact_json(value)


def _apply_output(call: TranscriptToolCall, output: Any) -> None:
    """Normalize a mux tool output (bash: `{success, output, exitCode, error, ...}`)."""
    if isinstance(output, str):
        call.output = clean_text(output)
        return
    if not isinstance(output, dict):
        call.output = "" if output is None else compact_json(output)
        return
    text = next(
        (output[key] for key in _OUTPUT_TEXT_FIELDS if isinstance(output.get(key), str)), None
    )
    stderr = output.get("stderr")
    if isinstance(stderr, str) and stderr:
        text = f"{text}\n{stderr}" if text else stderr
    call.output = clean_text(text) if text is not None else compact_json(output)
    call.error = as_str(output.get("error"))
    call.exit_code = as_int(output.get("exitCode", output.get("exit_code")))
    success = output.get("success")
    call.is_error = (
        success is False
        or (call.exit_code is not None and call.exit_code != 0)
        or (bool(call.error) and success is not True)
    )


def _tool_call(part: dict[str, Any], name: str) -> TranscriptToolCall:
    call = TranscriptToolCall(
        id=as_str(part.get("toolCallId")), name=name, input=_tool_input(part.get("input"))
    )
    state = part.get("state")
    if state == "output-error" or "errorText" in part:
        call.is_error = True
        call.error = as_str(part.get("errorText")) or "tool call failed"
        call.output = call.error
    elif "output" in part:
        _apply_output(call, part.get("output"))
    return call


def _role(record_role: str, metadata: dict[str, Any]) -> EventRole | None:
    mux_metadata = as_dict(metadata.get("muxMetadata"))
    compacted = metadata.get("compacted")
    if (compacted is not None and compacted is not False) or mux_metadata.get(
        "type"
    ) == "compaction-summary":
        return "summary"
    if record_role == "user":
        # Synthetic user turns (e.g. the [CONTINUE] sentinel) are not the human's words.
        return "system" if metadata.get("synthetic") is True else "user"
    if record_role == "assistant":
        return "assistant"
    return "system" if record_role == "system" else None


class MuxParser(RecordParser):
    """Parser for mux `chat.jsonl`: every line is a finished message, so nothing is held."""

    format = "mux"

    def _on_release(self, event: TranscriptEvent) -> None:
        """Nothing to settle: a mux line is a finished message and is never held."""

    def feed(self, record: dict[str, Any], line: SourceLine, offset: int) -> None:
        """Turn one message line into one event."""
        metadata = as_dict(record.get("metadata"))
        role = _role(as_str(record.get("role")), metadata)
        if role is None:
            self.ignored_records += 1
            return
        message_id = as_str(record.get("id")) or f"mux-{line.digest()}"
        parts = [part for part in as_list(record.get("parts")) if isinstance(part, dict)]
        texts: list[str] = []
        calls: list[TranscriptToolCall] = []
        for part in parts:
            kind = part.get("type")
            if kind == "text":
                texts.append(as_str(part.get("text")))
            elif kind == "dynamic-tool":
                calls.append(_tool_call(part, as_str(part.get("toolName"))))
            elif isinstance(kind, str) and kind.startswith("tool-"):
                calls.append(_tool_call(part, kind.removeprefix("tool-")))
        workspace_id = as_str(record.get("workspaceId"))
        if workspace_id and self.session_id is None:
            self.session_id = workspace_id
        self._emit(
            TranscriptEvent(
                id=message_id,
                role=role,
                source="mux",
                text="".join(texts),
                tool_calls=calls,
                timestamp=parse_timestamp(metadata.get("timestamp")),
                message_id=message_id,
                history_sequence=as_int(metadata.get("historySequence")),
                model=as_str(metadata.get("model")) or None,
                completed_turn=(
                    role == "assistant"
                    and bool(parts)
                    and metadata.get("partial") is not True
                    and not metadata.get("error")
                ),
            )
        )
