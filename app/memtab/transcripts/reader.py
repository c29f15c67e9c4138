"""Read a transcript whole (`read_transcript`) or as it grows (`TranscriptTail`), line by line:
a line that is not a JSON object is skipped and counted, and each event is handed on once
released, so a reader keeping only some never holds the whole file."""

from __future__ import annotations

import logging
import os
from collections import OrderedDict, deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from memtab.fs.jsonfile import JsonError, parse_json
from memtab.transcripts.claude import ClaudeParser
from memtab.transcripts.codex import CodexParser
from memtab.transcripts.events import (
    TRANSCRIPT_FORMATS,
    EventRole,
    RecordParser,
    SourceLine,
    TranscriptEvent,
    TranscriptFormat,
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
        between = False  # a tool call or a step between two text parts: two passages
        for part in parts:
            kind = part.get("type")
            if kind == "text":
                text = as_str(part.get("text"))
                if text:
                    texts.append(f"\n\n{text}" if between and texts else text)
                    between = False
                continue
            between = True
            if kind == "dynamic-tool":
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


logger = logging.getLogger(__name__)

_PARSERS: dict[TranscriptFormat, type[RecordParser]] = {
    "mux": MuxParser,
    "claude": ClaudeParser,
    "codex": CodexParser,
}
MAX_SKIP_REASONS = 10
# Ids of events returned by earlier reads, so a restart does not return them again; the newest
# are enough, and a tail following a file for days does not grow with it.
REMEMBERED_EVENT_IDS = 20_000

EventSink = Callable[[TranscriptEvent], None]

_CODEX_ENVELOPE_TYPES = ("session_meta", "turn_context", "response_item", "event_msg", "compacted")
_CODEX_LEGACY_TYPES = ("message", "function_call", "function_call_output", "reasoning")
_CLAUDE_TYPES = ("user", "assistant", "summary", "system")
# Records examined to recognize a transcript's format; the first records always say enough.
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


@dataclass(frozen=True, slots=True)
class SkippedLine:
    """Why one line was skipped. `line_number` is None when reading began mid-file."""

    byte_offset: int
    line_number: int | None
    reason: str

    def __str__(self) -> str:
        where = f"line {self.line_number}" if self.line_number is not None else "line"
        return f"{where} at byte {self.byte_offset}: {self.reason}"


@dataclass(frozen=True, slots=True)
class Transcript:
    """A whole transcript: its events in file order and what could not be read (skipped lines,
    ignored records, unmatched tool results)."""

    path: Path
    format: TranscriptFormat | None
    events: list[TranscriptEvent]
    session_id: str | None
    cwd: str | None
    skipped_lines: int
    skipped: tuple[SkippedLine, ...]
    ignored_records: int
    unmatched_tool_results: int


def _decode(text: str) -> tuple[Any, str | None]:
    """A line's JSON value, or None and why not (NaN/Infinity read as null)."""
    try:
        return parse_json(text, nan_as_null=True), None
    except JsonError as error:
        return None, str(error)


_WHITESPACE = frozenset(b" \t\n\r\x0b\x0c")  # what bytes.strip() removes
# Lines longer than this are hashed at once rather than kept for a digest maybe needed.
_LONG_LINE = 64 * 1024


def _content_span(line: bytes) -> tuple[int, int]:
    """Where `line.strip()` would start and stop, without copying the line."""
    start, stop = 0, len(line)
    while start < stop and line[start] in _WHITESPACE:
        start += 1
    while stop > start and line[stop - 1] in _WHITESPACE:
        stop -= 1
    return start, stop


def _check_format(format: str | None) -> TranscriptFormat | None:
    if format is None or format in TRANSCRIPT_FORMATS:
        return format
    raise ValueError(f"unknown transcript format {format!r}; expected one of {TRANSCRIPT_FORMATS}")


class TranscriptTail:
    """Incremental reader for a growing transcript: `read_new()` gives the events of lines
    appended since, restarting (without repeats) when the file shrinks or is replaced. Events may
    still gain data in place (`may_change`); `offset` resumes after a restart. One per thread."""

    def __init__(
        self, path: str | os.PathLike[str], format: TranscriptFormat | None = None, offset: int = 0
    ) -> None:
        self.path = Path(path)
        self._fixed_format = _check_format(format)
        self.restarts = 0
        self._returned_before: OrderedDict[str, None] = OrderedDict()  # by earlier reads
        self._returned_now: deque[str] = deque()  # by the read under way
        self._identity: tuple[int, int] | None = None
        self._reset(max(0, offset))

    def _reset(self, offset: int) -> None:
        self._read_pos = offset
        self._line_number: int | None = 0 if offset == 0 else None
        self._parser: RecordParser | None = (
            _PARSERS[self._fixed_format]() if self._fixed_format else None
        )
        self._undetected: list[tuple[dict[str, Any], SourceLine, int]] = []
        self._ignored_undetected = 0
        self.skipped_lines = 0
        self.skipped: list[SkippedLine] = []

    @property
    def format(self) -> TranscriptFormat | None:
        """The format given or detected (None until a record reveals it)."""
        return self._parser.format if self._parser is not None else None

    @property
    def offset(self) -> int:
        """Byte offset to resume from (see the class docstring)."""
        candidates = [self._read_pos]
        if self._parser is not None and self._parser.held_offset is not None:
            candidates.append(self._parser.held_offset)
        if self._undetected:
            candidates.append(self._undetected[0][2])
        return min(candidates)

    @property
    def session_id(self) -> str | None:
        """Session id from the records (Claude Code `sessionId`, Codex meta `id`, mux workspace)."""
        return self._parser.session_id if self._parser is not None else None

    @property
    def cwd(self) -> str | None:
        """Working directory recorded in the transcript, when it records one."""
        return self._parser.cwd if self._parser is not None else None

    @property
    def ignored_records(self) -> int:
        """JSON objects that were not conversation records (see `Transcript`)."""
        parsed = self._parser.ignored_records if self._parser is not None else 0
        return parsed + self._ignored_undetected

    @property
    def unmatched_tool_results(self) -> int:
        """Tool results whose call was never seen."""
        return self._parser.unmatched_tool_results if self._parser is not None else 0

    def open_calls(self, event: TranscriptEvent) -> list[TranscriptToolCall] | None:
        """What a line not read yet may still change in `event.to_json()` (see `RecordParser`)."""
        return self._parser.open_calls(event) if self._parser is not None else []

    def may_change(self, event: TranscriptEvent) -> bool:
        """Whether a line not read yet may still change `event.to_json()`."""
        return self._parser is not None and self._parser.may_change(event)

    def may_complete(self, event: TranscriptEvent) -> bool:
        """Whether a line not read yet may still change `event.completed_turn`."""
        return self._parser is not None and self._parser.may_complete(event)

    def read_new(self) -> list[TranscriptEvent]:
        """Events from complete lines appended since the last call; a missing file reads as none."""
        events: list[TranscriptEvent] = []
        self.stream_new(events.append)
        return events

    def stream_new(self, on_event: EventSink) -> None:
        """`read_new`, handing each event to `on_event` as released instead of collecting."""
        try:
            self._read(on_event, final=False)
        except FileNotFoundError:
            return

    def read_all(self) -> Transcript:
        """Read to the end as a finished file (the last line too, held-back events released):
        the events not returned before. Once, when complete."""
        events: list[TranscriptEvent] = []
        self.stream_all(events.append)
        return Transcript(
            path=self.path,
            format=self.format,
            events=events,
            session_id=self.session_id,
            cwd=self.cwd,
            skipped_lines=self.skipped_lines,
            skipped=tuple(self.skipped),
            ignored_records=self.ignored_records,
            unmatched_tool_results=self.unmatched_tool_results,
        )

    def stream_all(self, on_event: EventSink) -> None:
        """`read_all`, handing each event to `on_event` as released."""
        self._read(on_event, final=True)
        if self._parser is None:
            self._ignored_undetected += len(self._undetected)
            self._undetected.clear()

    def _read(self, on_event: EventSink, *, final: bool) -> None:
        self._returned_now = deque(maxlen=REMEMBERED_EVENT_IDS)
        try:
            self._read_file(on_event, final=final)
        finally:
            self._remember_returned()

    def _read_file(self, on_event: EventSink, *, final: bool) -> None:
        with self.path.open("rb") as handle:
            status = os.fstat(handle.fileno())
            identity = (status.st_dev, status.st_ino)
            if self._must_restart(handle, status.st_size, identity):
                logger.info("transcript %s was truncated or replaced; rereading it", self.path)
                self.restarts += 1
                self._reset(0)
            self._identity = identity
            if self._parser is None and self._line_number is None:
                self._detect_from_head(handle)
            handle.seek(self._read_pos)
            self._read_lines(handle, on_event, final=final)
        if final and self._parser is not None:
            self._parser.finish()
        self._hand_on(on_event)

    def _must_restart(self, handle: BinaryIO, size: int, identity: tuple[int, int]) -> bool:
        if self._identity is not None and identity != self._identity:
            return True
        if size < self._read_pos:
            return True
        if self._read_pos > 0:
            handle.seek(self._read_pos - 1)
            return handle.read(1) != b"\n"
        return False

    def _read_lines(self, handle: BinaryIO, on_event: EventSink, *, final: bool) -> None:
        """Consume the complete lines from the handle's position, one at a time."""
        for data in handle:
            unterminated = not data.endswith(b"\n")
            if unterminated and not final:
                return  # being written: left for a later read
            if self._line_number is not None:
                self._line_number += 1
            offset = self._read_pos
            self._read_pos += len(data)
            start, stop = _content_span(data)
            if start == stop:
                continue
            line = SourceLine(data, start, stop)
            with memoryview(data) as view:
                text = str(view[start:stop], "utf-8", "replace")
            if stop - start > _LONG_LINE:
                line.settle()  # so the bytes of a 10 MB tool output go before it is parsed
            del data
            self._consume_text(text, line, offset, unterminated=unterminated)
            del text
            self._hand_on(on_event)

    def _consume_text(
        self, text: str, line: SourceLine, offset: int, *, unterminated: bool
    ) -> None:
        value, error = _decode(text)
        if error is not None:
            if unterminated:
                error = f"truncated last line (no newline): {error}"
            self._skip(offset, error)
        elif not isinstance(value, dict):
            self._skip(offset, f"not a JSON object (a JSON {type(value).__name__})")
        elif self._parser is None:
            self._undetected.append((value, line, offset))
            self._detect_from_undetected()
        else:
            self._feed(self._parser, value, line, offset)

    def _skip(self, offset: int, reason: str) -> None:
        self.skipped_lines += 1
        if len(self.skipped) < MAX_SKIP_REASONS:
            self.skipped.append(SkippedLine(offset, self._line_number, reason))

    def _feed(
        self, parser: RecordParser, record: dict[str, Any], line: SourceLine, offset: int
    ) -> None:
        try:
            parser.feed(record, line, offset)
        except Exception as error:  # a record shape no parser rule foresaw: skip, never fail
            logger.debug("unreadable record at byte %d of %s", offset, self.path, exc_info=True)
            self._skip(offset, f"unreadable record: {type(error).__name__}: {error}")

    def _detect_from_undetected(self) -> None:
        found = detect_format(record for record, _, _ in self._undetected)
        if found is not None:
            self._adopt(found)
        elif len(self._undetected) >= DETECTION_WINDOW:
            self._ignored_undetected += len(self._undetected)
            self._undetected.clear()

    def _detect_from_head(self, handle: BinaryIO) -> None:
        """Resuming mid-file without a known format: look at the file's first records."""
        handle.seek(0)
        head = handle.read(min(self._read_pos, 256 * 1024))
        texts = (line.strip().decode("utf-8", "replace") for line in head.split(b"\n")[:-1])
        records = (_decode(text)[0] for text in texts)
        found = detect_format(record for record in records if isinstance(record, dict))
        if found is not None:
            self._adopt(found)

    def _adopt(self, format: TranscriptFormat) -> None:
        """Start parsing as `format`, beginning with the records read while it was unknown."""
        parser = self._parser = _PARSERS[format]()
        pending, self._undetected = self._undetected, []
        for record, line, offset in pending:
            self._feed(parser, record, line, offset)

    def _hand_on(self, on_event: EventSink) -> None:
        """Give `on_event` the released events no earlier read returned."""
        if self._parser is None:
            return
        for event in self._parser.take_released():
            if event.id in self._returned_before:
                continue  # returned by an earlier read, before a restart
            self._returned_now.append(event.id)
            on_event(event)

    def _remember_returned(self) -> None:
        """Add the ids the read returned to those of earlier reads, keeping the newest."""
        remembered = self._returned_before
        for event_id in self._returned_now:
            remembered[event_id] = None
            remembered.move_to_end(event_id)
        while len(remembered) > REMEMBERED_EVENT_IDS:
            remembered.popitem(last=False)
        self._returned_now.clear()


def read_transcript(
    path: str | os.PathLike[str], format: TranscriptFormat | None = None
) -> Transcript:
    """Read a whole transcript file (`format` skips detection); OSError only when it cannot be
    opened."""
    return TranscriptTail(path, format).read_all()
