"""What every format's record parser shares: records fed in file order become events released in
order, the newest held back while later lines may extend it; late data merged in place."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import OrderedDict
from typing import Any

from memtab.transcripts.events import (
    SourceLine,
    TranscriptEvent,
    TranscriptFormat,
    TranscriptToolCall,
    clean_text,
)

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
