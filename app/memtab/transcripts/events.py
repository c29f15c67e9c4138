"""The normalized event stream every transcript reader produces: one `TranscriptEvent` per
message, tool calls paired with their output. Reasoning is not kept: private, often encrypted,
huge, and mined by nothing."""

from __future__ import annotations

import hashlib
import json
import re
from abc import ABC, abstractmethod
from collections import OrderedDict
from typing import Annotated, Any, Literal

from memtab.fs.jsonfile import finite_number
from memtab.fs.records import (
    Key,
    NotWritten,
    OmitEmpty,
    OmitNone,
    PlainJson,
    Record,
    computed,
    field,
)

TranscriptFormat = Literal["mux", "claude", "codex"]
EventRole = Literal["user", "assistant", "system", "summary"]

TRANSCRIPT_FORMATS: tuple[TranscriptFormat, ...] = ("mux", "claude", "codex")

# Timestamps below this are taken as seconds since the epoch, above it as milliseconds.
_SECONDS_CUTOFF = 100_000_000_000


def compact_json(value: Any) -> str:
    """Serialize like JavaScript's `JSON.stringify(value)`: no spaces, non-ASCII kept."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def json_len(value: Any) -> int:
    """Length in characters of `compact_json(value)`, the unit of the writer's budget."""
    return len(compact_json(value))


def clean_text(text: str) -> str:
    """Replace lone UTF-16 surrogates so the text always encodes as UTF-8."""
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "replace").decode("utf-8")
    return text


def parse_timestamp(value: Any) -> int | None:
    """Epoch milliseconds from an ISO-8601 string or a number (seconds or ms); None if unusable."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        number = finite_number(value)
        if number is None or number <= 0:
            return None
        return int(number) if number >= _SECONDS_CUTOFF else int(number * 1000)
    if isinstance(value, str) and value:
        # lazy: a window that reads no transcript does without datetime
        from datetime import UTC, datetime

        try:
            moment = datetime.fromisoformat(value)
        except ValueError:
            return None
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=UTC)
        return int(moment.timestamp() * 1000)
    return None


def line_digest(raw: bytes | memoryview) -> str:
    """A short stable id for a record that carries none: the hash of its raw line."""
    return hashlib.blake2b(raw, digest_size=8).hexdigest()


class SourceLine:
    """The line a record was read from, kept only to name a record without an id (`digest()`
    on first use, or at once by `settle()`)."""

    __slots__ = ("_data", "_digest", "_start", "_stop")

    def __init__(self, data: bytes, start: int = 0, stop: int | None = None) -> None:
        self._data: bytes | None = data
        self._start = start
        self._stop = len(data) if stop is None else stop
        self._digest: str | None = None

    def digest(self) -> str:
        """`line_digest` of the line."""
        if self._digest is None:
            assert self._data is not None  # only settle() drops the data, after digesting
            with memoryview(self._data) as view:
                self._digest = line_digest(view[self._start : self._stop])
        return self._digest

    def settle(self) -> None:
        """Digest now and keep only the digest."""
        self.digest()
        self._data = None


# Codex's code mode: a JavaScript cell running one command through its tools.
_CODE_MODE_COMMAND = re.compile(r"""\btools\.exec_command\(\{\s*cmd\s*:\s*("(?:[^"\\\n]|\\.)*")""")


def code_mode_command(cell: str) -> str | None:
    """The command a Codex code-mode cell runs when it runs exactly one; None otherwise."""
    found = _CODE_MODE_COMMAND.findall(cell)
    if len(found) != 1:
        return None
    try:
        command = json.loads(found[0])
    except ValueError:
        return None
    return command if isinstance(command, str) and command.strip() else None


def _shell_command_from(value: Any) -> str | None:
    if isinstance(value, str) and value.strip():
        return value
    if isinstance(value, list) and value and all(isinstance(item, str) for item in value):
        # Codex `shell` calls look like ["bash", "-lc", "<script>"]: the script is what ran.
        if len(value) >= 3 and value[-2] in ("-c", "-lc"):
            return str(value[-1])
        return " ".join(value)
    return None


class TranscriptToolCall(Record, write_only=True, frozen=False):
    """One tool call seen in a transcript and its result once known; its JSON is mux's
    `toolCalls[]` plus the normalized result (docs/formats.md §10.2). `output` None: no result;
    `error_text`: what went wrong, whatever the format."""

    id: Annotated[str, Key("toolCallId")]
    name: Annotated[str, Key("toolName")]
    input: Annotated[dict[str, Any] | str, PlainJson]
    output: Annotated[str | None, OmitNone] = None
    is_error: Annotated[bool, OmitEmpty] = False
    error: Annotated[str, NotWritten] = ""
    # the error, written when it says more than the output
    error_apart: Annotated[str, Key("error"), OmitEmpty] = computed(
        lambda call: call.error if call.error != call.output else ""
    )
    exit_code: Annotated[int | None, OmitNone] = None

    @property
    def has_output(self) -> bool:
        """Whether a result was recorded for this call."""
        return self.output is not None

    @property
    def error_text(self) -> str:
        """The error message, or the output of a call that failed, or "" for a success."""
        if self.error:
            return self.error
        return (self.output or "") if self.is_error else ""

    @property
    def command(self) -> str | None:
        """The shell command this call ran, for any format's shell tool, else None."""
        if isinstance(self.input, str):
            return code_mode_command(self.input) if "tools.exec_command" in self.input else None
        for key in ("script", "command", "cmd"):
            found = _shell_command_from(self.input.get(key))
            if found is not None:
                return found
        return None


class TranscriptEvent(Record, write_only=True, frozen=False):
    """One normalized message of a transcript; its JSON is what the writer's budget measures and
    trace dumps store (docs/formats.md §10.2). `id` is stable across re-reads; `sidechain`: a
    sub-agent's; `completed_turn`: the unit the background writer counts."""

    id: str
    role: EventRole
    source: Annotated[TranscriptFormat, NotWritten]
    history_sequence: Annotated[int | None, OmitNone] = None
    timestamp: Annotated[int | None, OmitNone] = None
    text: Annotated[str, OmitEmpty] = ""
    tool_calls: Annotated[list[TranscriptToolCall], OmitEmpty] = field(default_factory=list)
    sidechain: Annotated[bool, OmitEmpty] = False
    message_id: Annotated[str | None, NotWritten] = None
    model: Annotated[str | None, NotWritten] = None
    completed_turn: Annotated[bool, NotWritten] = False
    cwd: Annotated[str | None, NotWritten] = None


# How many tool calls a parser remembers to pair late results: bounds memory on huge transcripts.
_REMEMBERED_CALLS = 4096


def as_dict(value: Any) -> dict[str, Any]:
    """`value` if it is a JSON object, else an empty dict (records come in any shape)."""
    return value if isinstance(value, dict) else {}


def as_list(value: Any) -> list[Any]:
    """`value` if it is a JSON array, else an empty list."""
    return value if isinstance(value, list) else []


def as_str(value: Any) -> str:
    """`value` if it is a string (cleaned of lone surrogates), else ""."""
    return clean_text(value) if isinstance(value, str) else ""


def as_int(value: Any) -> int | None:
    """`value` if it is an integer (not a bool), else None."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


class RecordParser(ABC):
    """Turns one format's records into events; see the module docstring for the contract."""

    format: TranscriptFormat

    def __init__(self) -> None:
        self.session_id: str | None = None
        self.cwd: str | None = None
        self.ignored_records = 0
        self.unmatched_tool_results = 0
        self._released: list[TranscriptEvent] = []
        self._held: TranscriptEvent | None = None
        self._held_offset: int | None = None
        self._calls: OrderedDict[str, TranscriptToolCall] = OrderedDict()

    @abstractmethod
    def feed(self, record: dict[str, Any], line: SourceLine, offset: int) -> None:
        """Consume one record; `line` names records without an id, `offset` is its byte start."""

    def take_released(self) -> list[TranscriptEvent]:
        """Events released since the last call, oldest first."""
        released, self._released = self._released, []
        return released

    def finish(self) -> None:
        """The file is complete: release the held event, if any."""
        self._release_held()

    def open_calls(self, event: TranscriptEvent) -> list[TranscriptToolCall] | None:
        """What later records may still change in `event.to_json()`: None when anything may,
        else the calls whose result may ([] when final)."""
        if event is self._held:
            return None
        return [call for call in event.tool_calls if self._calls.get(call.id) is call]

    def may_change(self, event: TranscriptEvent) -> bool:
        """Whether a later record may still change `event.to_json()` at all."""
        calls = self.open_calls(event)
        return calls is None or bool(calls)

    def may_complete(self, event: TranscriptEvent) -> bool:
        """Whether a later record may still change `event.completed_turn`."""
        return event is self._held

    @property
    def held_offset(self) -> int | None:
        """Byte offset of the first line of the held-back event, if one is held."""
        return self._held_offset if self._held is not None else None

    def _emit(self, event: TranscriptEvent) -> None:
        """Release an event that nothing later can extend."""
        self._release_held()
        self._released.append(event)

    def _hold(self, event: TranscriptEvent, offset: int) -> None:
        """Make `event` the held one (releasing the previous)."""
        self._release_held()
        self._held = event
        self._held_offset = offset

    def _release_held(self) -> None:
        if self._held is not None:
            self._on_release(self._held)
            self._released.append(self._held)
            self._held = None
            self._held_offset = None

    @abstractmethod
    def _on_release(self, event: TranscriptEvent) -> None:
        """Settle an event's last flags (`completed_turn`) as it leaves the hold."""

    def _remember_call(self, call: TranscriptToolCall) -> None:
        self._calls[call.id] = call
        self._calls.move_to_end(call.id)
        if len(self._calls) > _REMEMBERED_CALLS:
            self._calls.popitem(last=False)

    def _find_call(self, call_id: str) -> TranscriptToolCall | None:
        call = self._calls.get(call_id) if call_id else None
        if call is None:
            self.unmatched_tool_results += 1
        return call
