"""Codex `~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl` (docs/formats.md §11.4), envelope and
legacy: messages said twice read once, injected context as "system", a message and its calls as
one event, turns completed by `final_answer` or `task_complete`."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from memtab.fs.jsonfile import JsonError, parse_json
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

_CALL_TYPES = ("function_call", "custom_tool_call", "local_shell_call")
_OUTPUT_TYPES = ("function_call_output", "custom_tool_call_output")
# Response items read but deliberately not turned into events.
_DROPPED_ITEM_TYPES = ("reasoning", "web_search_call", "ghost_snapshot")
_RESPONSE_ITEM_TYPES = ("message", *_CALL_TYPES, *_OUTPUT_TYPES, *_DROPPED_ITEM_TYPES)
_INJECTED_USER_PREFIXES = (
    "<environment_context>",
    "<user_instructions>",
    "<permissions instructions>",
    "# AGENTS.md instructions",
    "<turn_aborted>",
)
_EXIT_CODE = re.compile(r"^(?:Process exited with code|Exit code:?) (-?\d+)", re.MULTILINE)
# A command still running when its call returned: its end comes in a later `write_stdin` poll.
_RUNNING = re.compile(r"^Process running with session ID (\d+)\s*$", re.MULTILINE)
_HEADER_CHARS = 300  # Codex's header lines (`Chunk ID`, `Wall time`, …) before `Output:`
# A code-mode cell that printed its tool's result: the exit code, or the session still running.
_CELL_EXIT_CODE = re.compile(r'^\{"chunk_id":[^\n]*?,"exit_code":(-?\d+),', re.MULTILINE)
_CELL_SESSION = re.compile(r'^\{"chunk_id":[^\n]*?,"session_id":(\d+),', re.MULTILINE)
_CELL_POLL = re.compile(r"\btools\.write_stdin\(\{\s*session_id\s*:\s*(\d+)")


def running_session(call: TranscriptToolCall) -> str | None:
    """The session id of a Codex command that had not ended when its call returned."""
    if call.exit_code is not None or call.is_error or not call.output or call.command is None:
        return None  # (a poll of a session says so too: it is no command)
    found = _RUNNING.search(call.output[:_HEADER_CHARS])
    if found is None and isinstance(call.input, str):
        found = _CELL_SESSION.search(call.output)
    return found.group(1) if found else None


def polled_session(call: TranscriptToolCall) -> str | None:
    """The session a Codex `write_stdin` call polled; its result carries the command's later
    output."""
    if isinstance(call.input, str):  # a code-mode cell: `tools.write_stdin({session_id:1, …})`
        cell = _CELL_POLL.findall(call.input)
        return cell[0] if len(cell) == 1 and "tools.exec_command" not in call.input else None
    if call.name != "write_stdin":
        return None
    session = call.input.get("session_id")
    if isinstance(session, bool) or not isinstance(session, int | str):
        return None
    return str(session)


@dataclass(slots=True)
class _RecentMessage:
    """The last message of a role, to drop its copy from the other record kind."""

    text: str
    kind: str  # "item" (response_item) or "event" (event_msg)
    event: TranscriptEvent
    paired: bool = False


def _content_text(content: Any) -> str:
    if isinstance(content, str):
        return clean_text(content)
    pieces: list[str] = []
    for item in as_list(content):
        part = as_dict(item)
        if isinstance(part.get("text"), str):
            pieces.append(as_str(part.get("text")))
        elif part.get("type") in ("input_image", "image"):
            pieces.append("[image]")
    return "\n\n".join(piece for piece in pieces if piece)


def _arguments(value: Any) -> dict[str, Any] | str:
    """A call's `arguments`: a JSON string of an object (kept as text when it is not)."""
    if isinstance(value, dict):
        return value
    text = (
        as_str(value) if isinstance(value, str) else ("" if value is None else compact_json(value))
    )
    try:
        parsed = parse_json(text, nan_as_null=True)
    except JsonError:
        return text
    return parsed if isinstance(parsed, dict) else text


def _printed_command_output(text: str, start: int) -> str:
    """What a code-mode cell's command printed, out of the result the cell printed at `start`;
    `text` when the cell printed more than that."""
    try:
        result = parse_json(text[start:], nan_as_null=True)
    except JsonError:
        return text
    output = result.get("output") if isinstance(result, dict) else None
    return output if isinstance(output, str) else text


def _apply_output(call: TranscriptToolCall, output: Any) -> None:
    success: Any = None
    if isinstance(output, dict):
        success = output.get("success")
        output = output.get("content", output)
    if isinstance(output, str):
        text = output
    elif isinstance(output, list):
        text = _content_text(output)
    else:
        text = "" if output is None else compact_json(output)
    exit_code: int | None = None
    if text.startswith("{"):
        # Older exec outputs: '{"output": "...", "metadata": {"exit_code": 1, ...}}'.
        try:
            wrapped = parse_json(text, nan_as_null=True)
        except JsonError:
            wrapped = None
        if isinstance(wrapped, dict) and isinstance(wrapped.get("output"), str):
            text = wrapped["output"]
            exit_code = as_int(as_dict(wrapped.get("metadata")).get("exit_code"))
    if exit_code is None:
        found = _EXIT_CODE.search(text)
        if found is None and isinstance(call.input, str) and "tools." in call.input:
            found = _CELL_EXIT_CODE.search(text)  # a code-mode cell that printed its result
            if found is not None:
                text = _printed_command_output(text, found.start())
        exit_code = int(found.group(1)) if found else None
    call.output = clean_text(text)
    if exit_code is not None:
        call.exit_code = exit_code
    call.is_error = success is False or (call.exit_code is not None and call.exit_code != 0)


class CodexParser(RecordParser):
    """Parser for Codex rollout JSONL; see the module docstring for the rules."""

    format = "codex"

    def __init__(self) -> None:
        super().__init__()
        self._sidechain = False
        self._saw_turn_markers = False
        self._recent: dict[EventRole, _RecentMessage] = {}
        self._last_assistant: TranscriptEvent | None = None
        self._items_carry_messages = False

    def feed(self, record: dict[str, Any], line: SourceLine, offset: int) -> None:
        """Consume one line (envelope or legacy)."""
        kind = record.get("type")
        if "payload" not in record:
            self._legacy(record, kind, line, offset)
            return
        payload = as_dict(record.get("payload"))
        timestamp = parse_timestamp(record.get("timestamp"))
        if kind == "session_meta":
            self._session_meta(payload)
        elif kind == "turn_context":
            self.cwd = self.cwd or as_str(payload.get("cwd")) or None
        elif kind == "response_item":
            self._response_item(payload, timestamp, line, offset)
        elif kind == "event_msg":
            self._event_msg(payload, timestamp, line, offset)
        elif kind == "compacted":
            self._message(
                "summary", as_str(payload.get("message")), timestamp, line, offset, "item"
            )
        else:
            self.ignored_records += 1

    def _legacy(self, record: dict[str, Any], kind: Any, line: SourceLine, offset: int) -> None:
        if kind in _RESPONSE_ITEM_TYPES:
            self._response_item(record, parse_timestamp(record.get("timestamp")), line, offset)
        elif kind is None and isinstance(record.get("id"), str) and self.session_id is None:
            self._session_meta(record)
        else:
            self.ignored_records += 1

    def _session_meta(self, payload: dict[str, Any]) -> None:
        self.session_id = self.session_id or as_str(payload.get("id")) or None
        self.cwd = self.cwd or as_str(payload.get("cwd")) or None
        if "subagent" in as_dict(payload.get("source")):
            self._sidechain = True

    def _response_item(
        self, item: dict[str, Any], timestamp: int | None, line: SourceLine, offset: int
    ) -> None:
        kind = item.get("type")
        if kind == "message":
            text = _content_text(item.get("content"))
            role = item.get("role")
            mapped: EventRole | None = None
            if role == "assistant":
                mapped = "assistant"
            elif role == "user":
                mapped = "system" if text.lstrip().startswith(_INJECTED_USER_PREFIXES) else "user"
            elif role in ("developer", "system"):
                mapped = "system"
            if mapped is None:
                self.ignored_records += 1
                return
            self._items_carry_messages = True
            self._message(
                mapped, text, timestamp, line, offset, "item", item.get("phase"), item.get("id")
            )
        elif kind in _CALL_TYPES:
            self._call(item, timestamp, line, offset)
        elif kind in _OUTPUT_TYPES:
            call = self._find_call(as_str(item.get("call_id")))
            if call is not None:
                _apply_output(call, item.get("output"))
        elif kind not in _DROPPED_ITEM_TYPES:
            self.ignored_records += 1

    def _call(
        self, item: dict[str, Any], timestamp: int | None, line: SourceLine, offset: int
    ) -> None:
        call_input: dict[str, Any] | str
        if item.get("type") == "local_shell_call":
            name, call_input = "local_shell", as_dict(item.get("action"))
        elif item.get("type") == "custom_tool_call":
            name, call_input = as_str(item.get("name")), _arguments(item.get("input"))
        else:
            name, call_input = as_str(item.get("name")), _arguments(item.get("arguments"))
        call = TranscriptToolCall(
            id=as_str(item.get("call_id")) or as_str(item.get("id")), name=name, input=call_input
        )
        self._remember_call(call)
        if self._held is not None and self._held.role == "assistant":
            self._held.tool_calls.append(call)
            return
        event = TranscriptEvent(
            id=f"codex-{line.digest()}",
            role="assistant",
            source="codex",
            tool_calls=[call],
            timestamp=timestamp,
            sidechain=self._sidechain,
            cwd=self.cwd,
        )
        self._hold(event, offset)

    def _event_msg(
        self, payload: dict[str, Any], timestamp: int | None, line: SourceLine, offset: int
    ) -> None:
        kind = payload.get("type")
        if kind in ("user_message", "agent_message"):
            if not self._items_carry_messages:
                role: EventRole = "user" if kind == "user_message" else "assistant"
                text = as_str(payload.get("message"))
                self._message(role, text, timestamp, line, offset, "event")
        elif kind == "task_complete":
            self._saw_turn_markers = True
            if self._last_assistant is not None and not self._sidechain:
                self._last_assistant.completed_turn = True
            self._release_held()
        elif kind == "turn_aborted":
            self._release_held()
        elif kind == "exec_command_end":
            call = self._calls.get(as_str(payload.get("call_id")))
            exit_code = as_int(payload.get("exit_code"))
            if call is not None and exit_code is not None:
                call.exit_code = exit_code
                call.is_error = call.is_error or exit_code != 0
                if call.output is None:
                    streams = (as_str(payload.get("stdout")), as_str(payload.get("stderr")))
                    call.output = as_str(payload.get("aggregated_output")) or "\n".join(
                        text for text in streams if text
                    )

    def _message(
        self,
        role: EventRole,
        text: str,
        timestamp: int | None,
        line: SourceLine,
        offset: int,
        kind: str,
        phase: Any = None,
        item_id: Any = None,
    ) -> None:
        if not text:
            return
        final = phase == "final_answer"
        if isinstance(phase, str):
            self._saw_turn_markers = True
        recent = self._recent.get(role)
        if recent is not None and not recent.paired and recent.kind != kind and recent.text == text:
            recent.paired = True  # the same message from the other record kind
            if final and not self._sidechain:
                recent.event.completed_turn = True
                if recent.event is self._held:
                    self._release_held()
            return
        message_id = as_str(item_id) or None
        event = TranscriptEvent(
            id=message_id or f"codex-{line.digest()}",
            role=role,
            source="codex",
            text=text,
            timestamp=timestamp,
            message_id=message_id,
            sidechain=self._sidechain,
            cwd=self.cwd,
        )
        self._recent[role] = _RecentMessage(text, kind, event)
        if role != "assistant":
            self._emit(event)
            return
        self._last_assistant = event
        if final:
            event.completed_turn = not self._sidechain
            self._emit(event)
        else:
            self._hold(event, offset)

    def may_complete(self, event: TranscriptEvent) -> bool:
        """`task_complete`, or a `final_answer` copy of it, completes the last assistant message."""
        return super().may_complete(event) or event is self._last_assistant

    def _on_release(self, event: TranscriptEvent) -> None:
        if not self._saw_turn_markers and event.role == "assistant" and not event.sidechain:
            event.completed_turn = bool(event.text) and not event.tool_calls
