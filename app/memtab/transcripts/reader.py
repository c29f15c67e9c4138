"""Read a transcript file whole (`read_transcript`) or as it grows (`TranscriptTail`).

Both share one line reader: complete lines are decoded as UTF-8 (bad bytes replaced) and
parsed as JSON; a line that is not a JSON object — invalid or truncated JSON, a bare
string or number — is skipped and counted, never fatal. Records are then handed to the
parser of the transcript's format, given or detected from the first records.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from memtab.fs.jsonfile import JsonError, parse_json
from memtab.transcripts.base import RecordParser
from memtab.transcripts.claude import ClaudeParser
from memtab.transcripts.codex import CodexParser
from memtab.transcripts.detect import DETECTION_WINDOW, detect_format
from memtab.transcripts.events import TRANSCRIPT_FORMATS, TranscriptEvent, TranscriptFormat
from memtab.transcripts.mux import MuxParser

logger = logging.getLogger(__name__)

_PARSERS: dict[TranscriptFormat, type[RecordParser]] = {
    "mux": MuxParser,
    "claude": ClaudeParser,
    "codex": CodexParser,
}
MAX_SKIP_REASONS = 10
_READ_BLOCK = 4 * 1024 * 1024


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
    """A whole transcript: its events in file order and what could not be read.

    `skipped_lines` counts lines that are not JSON objects (`skipped` keeps the first few
    reasons); `ignored_records` counts JSON objects that are not conversation records of
    the format (usage-only lines, unknown record types, duplicates);
    `unmatched_tool_results` counts tool results whose call was never seen.
    """

    path: Path
    format: TranscriptFormat | None
    events: list[TranscriptEvent]
    session_id: str | None
    cwd: str | None
    skipped_lines: int
    skipped: tuple[SkippedLine, ...]
    ignored_records: int
    unmatched_tool_results: int


def _decode(raw: bytes) -> tuple[Any, str | None]:
    """A line's JSON value, or None and why not. NaN/Infinity read as null; a line nested
    too deeply to process is skipped like a broken one (memtab.fs.jsonfile)."""
    try:
        return parse_json(raw.decode("utf-8", "replace"), nan_as_null=True), None
    except JsonError as error:
        return None, str(error)


def _check_format(format: str | None) -> TranscriptFormat | None:
    if format is None:
        return None
    for known in TRANSCRIPT_FORMATS:
        if format == known:
            return known
    raise ValueError(f"unknown transcript format {format!r}; expected one of {TRANSCRIPT_FORMATS}")


class TranscriptTail:
    """Incremental reader for a large, growing transcript.

    `read_new()` returns the events of complete lines appended since the last call; a last
    line without its newline is left for a later call. If the file shrinks, is replaced
    (new inode) or no longer ends a line where we stopped, reading restarts from byte 0
    (`restarts` counts this) and events already returned — same `id` — are not returned
    again.

    Events are returned once, but may still gain data in place afterwards, on the very
    object returned: a tool result written on a later line, a Codex exit code or
    `task_complete`. A Claude Code API message spread over several lines is held back until
    a record of another message arrives (or its `stop_reason` is set), so it is returned
    merged and with its final `completed_turn`.

    `offset` is where to resume: save it and pass it back as `offset=` to continue after a
    restart of Memtab (it points before any held-back event). Not thread-safe: use one
    tail per thread.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        format: TranscriptFormat | None = None,
        offset: int = 0,
    ) -> None:
        self.path = Path(path)
        self._fixed_format = _check_format(format)
        self.restarts = 0
        self._emitted_ids: set[str] = set()
        self._identity: tuple[int, int] | None = None
        self._reset(max(0, offset))

    def _reset(self, offset: int) -> None:
        self._read_pos = offset
        self._line_number: int | None = 0 if offset == 0 else None
        self._parser: RecordParser | None = (
            _PARSERS[self._fixed_format]() if self._fixed_format else None
        )
        self._undetected: list[tuple[dict[str, Any], bytes, int]] = []
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

    def read_new(self) -> list[TranscriptEvent]:
        """Events from complete lines appended since the last call.

        A missing file (not written yet, or being replaced) reads as no events; other
        OSErrors (e.g. permission denied) propagate.
        """
        try:
            return self._read(final=False)
        except FileNotFoundError:
            return []

    def read_all(self) -> Transcript:
        """Read to the end as a finished file; returns the events not returned before (all
        of them on a fresh tail).

        A last line without newline is read too (and counted as skipped if it is truncated)
        and held-back events are released, so do this once, when the file is complete.
        """
        events = self._read(final=True)
        if self._parser is None:
            self._ignored_undetected += len(self._undetected)
            self._undetected.clear()
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

    def _read(self, *, final: bool) -> list[TranscriptEvent]:
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
            self._read_lines(handle, final=final)
        if final and self._parser is not None:
            self._parser.finish()
        return self._take_new_events()

    def _must_restart(self, handle: BinaryIO, size: int, identity: tuple[int, int]) -> bool:
        if self._identity is not None and identity != self._identity:
            return True
        if size < self._read_pos:
            return True
        if self._read_pos > 0:
            handle.seek(self._read_pos - 1)
            return handle.read(1) != b"\n"
        return False

    def _read_lines(self, handle: BinaryIO, *, final: bool) -> None:
        carry = b""
        while block := handle.read(_READ_BLOCK):
            data = carry + block if carry else block
            end = data.rfind(b"\n")
            if end < 0:
                carry = data
                continue
            self._consume(data, end + 1)
            carry = data[end + 1 :]
        if final and carry:
            if self._line_number is not None:
                self._line_number += 1
            self._consume_line(carry, self._read_pos, unterminated=True)
            self._read_pos += len(carry)

    def _consume(self, data: bytes, length: int) -> None:
        """Consume `data[:length]`, which is a run of complete lines."""
        start = 0
        while start < length:
            stop = data.index(b"\n", start)
            if self._line_number is not None:
                self._line_number += 1
            self._consume_line(data[start:stop], self._read_pos + start, unterminated=False)
            start = stop + 1
        self._read_pos += length

    def _consume_line(self, raw: bytes, offset: int, *, unterminated: bool) -> None:
        raw = raw.strip()
        if not raw:
            return
        value, error = _decode(raw)
        if error is not None:
            if unterminated:
                error = f"truncated last line (no newline): {error}"
            self._skip(offset, error)
        elif not isinstance(value, dict):
            self._skip(offset, f"not a JSON object (a JSON {type(value).__name__})")
        elif self._parser is None:
            self._undetected.append((value, raw, offset))
            self._detect_from_undetected()
        else:
            self._feed(self._parser, value, raw, offset)

    def _skip(self, offset: int, reason: str) -> None:
        self.skipped_lines += 1
        if len(self.skipped) < MAX_SKIP_REASONS:
            self.skipped.append(SkippedLine(offset, self._line_number, reason))

    def _feed(self, parser: RecordParser, record: dict[str, Any], raw: bytes, offset: int) -> None:
        try:
            parser.feed(record, raw, offset)
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
        records = (_decode(line.strip())[0] for line in head.split(b"\n")[:-1])
        found = detect_format(record for record in records if isinstance(record, dict))
        if found is not None:
            self._adopt(found)

    def _adopt(self, format: TranscriptFormat) -> None:
        """Start parsing as `format`, beginning with the records read while it was unknown."""
        parser = self._parser = _PARSERS[format]()
        pending, self._undetected = self._undetected, []
        for record, raw, offset in pending:
            self._feed(parser, record, raw, offset)

    def _take_new_events(self) -> list[TranscriptEvent]:
        if self._parser is None:
            return []
        fresh = [e for e in self._parser.take_released() if e.id not in self._emitted_ids]
        self._emitted_ids.update(event.id for event in fresh)
        return fresh


def read_transcript(
    path: str | os.PathLike[str], format: TranscriptFormat | None = None
) -> Transcript:
    """Read a whole transcript file. `format` ("mux" | "claude" | "codex") skips detection.

    Never fails on content (see `Transcript` for what is counted); raises OSError only if
    the file cannot be opened.
    """
    return TranscriptTail(path, format).read_all()
